#pragma once
// The built-in initializers of keras.initializers, with Keras's defaults. Random ones take an
// optional seed: with one, every call gives the same values; without, the instance draws a
// seed from the global generator once, at construction (so it also repeats itself, as Keras
// 3's unseeded initializers do).

#include <optional>
#include <string>
#include <vector>

#include "keras/initializers/initializer.h"

#pragma GCC visibility push(default)
namespace keras::initializers {

/// Initializers that draw random numbers.
class RandomInitializer : public Initializer {
 public:
  /// `seed`: the seed of every draw; without one, a seed is drawn from the global generator now.
  explicit RandomInitializer(std::optional<int64_t> seed);
  Config get_config() const override;

 protected:
  /// The seed draws use (the given one, or the one drawn at construction).
  uint64_t seed() const { return seed_; }

 private:
  std::optional<int64_t> given_seed_;
  uint64_t seed_;
};

/// All zeros.
class Zeros final : public Initializer {
 public:
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "Zeros"; }
};

/// All ones.
class Ones final : public Initializer {
 public:
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "Ones"; }
};

/// Every element `value`.
class Constant final : public Initializer {
 public:
  /// Keras's Constant(value=0): the value of every element.
  explicit Constant(double value = 0.0) : value_(value) {}
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "Constant"; }
  Config get_config() const override { return {{"value", value_}}; }

 private:
  double value_;
};

/// gain * identity (2-d shapes only).
class Identity final : public Initializer {
 public:
  /// Keras's Identity(gain=1): the diagonal's value; calls with a shape that is not 2-d throw
  /// ValueError.
  explicit Identity(double gain = 1.0) : gain_(gain) {}
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "Identity"; }
  /// Keras 3.15's config leaves gain out (a non-default gain is lost there): written only
  /// when it is not 1.
  Config get_config() const override {
    return gain_ == 1.0 ? Config::object() : Config({{"gain", gain_}});
  }

 private:
  double gain_;
};

/// Normal draws: mean 0.0, stddev 0.05 by default.
class RandomNormal final : public RandomInitializer {
 public:
  /// Keras's RandomNormal(mean=0, stddev=0.05, seed=None).
  explicit RandomNormal(double mean = 0.0, double stddev = 0.05,
                        std::optional<int64_t> seed = std::nullopt);
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "RandomNormal"; }
  Config get_config() const override;

 private:
  double mean_, stddev_;
};

/// Uniform draws in [minval, maxval): -0.05 to 0.05 by default.
class RandomUniform final : public RandomInitializer {
 public:
  /// Keras's RandomUniform(minval=-0.05, maxval=0.05, seed=None).
  explicit RandomUniform(double minval = -0.05, double maxval = 0.05,
                         std::optional<int64_t> seed = std::nullopt);
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "RandomUniform"; }
  Config get_config() const override;

 private:
  double minval_, maxval_;
};

/// Normal draws truncated at two standard deviations: mean 0.0, stddev 0.05 by default.
class TruncatedNormal final : public RandomInitializer {
 public:
  /// Keras's TruncatedNormal(mean=0, stddev=0.05, seed=None): values lie within two `stddev` of
  /// `mean`.
  explicit TruncatedNormal(double mean = 0.0, double stddev = 0.05,
                           std::optional<int64_t> seed = std::nullopt);
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "TruncatedNormal"; }
  Config get_config() const override;

 private:
  double mean_, stddev_;
};

/// VarianceScaling(scale, mode, distribution): the family Glorot, He and LeCun belong to.
/// mode: "fan_in", "fan_out", "fan_avg"; distribution: "truncated_normal", "untruncated_normal",
/// "uniform".
class VarianceScaling : public RandomInitializer {
 public:
  /// Keras's VarianceScaling(scale=1, mode="fan_in", distribution="truncated_normal", seed=None).
  /// Draws have variance `scale / n`, n being fan_in, fan_out or their mean (per `mode`); "normal"
  /// is read as "truncated_normal"; ValueError for a `scale` that is not positive or an unknown
  /// `mode` or `distribution`.
  explicit VarianceScaling(double scale = 1.0, std::string mode = "fan_in",
                           std::string distribution = "truncated_normal",
                           std::optional<int64_t> seed = std::nullopt);
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "VarianceScaling"; }
  Config get_config() const override;
  /// Keras 3.15's input_axes/output_axes: the kernel axes whose sizes multiply into fan_in and
  /// fan_out (both given), instead of the convolution-kernel rule. Negative axes count from
  /// the end, as Python indexing does.
  void set_fan_axes(std::optional<std::vector<int>> input_axes,
                    std::optional<std::vector<int>> output_axes);

 protected:
  /// input_axes and output_axes as Keras writes them (null when unset).
  Config fan_axes_config() const;

 private:
  double scale_;
  std::string mode_, distribution_;
  std::optional<std::vector<int>> input_axes_, output_axes_;
};

/// A VarianceScaling preset that reports its own class name and only its seed in configs.
class VarianceScalingPreset : public VarianceScaling {
 public:
  /// A VarianceScaling with these arguments whose class_name() is `class_name` (the Glorot, He and
  /// LeCun presets).
  VarianceScalingPreset(std::string class_name, double scale, std::string mode,
                        std::string distribution, std::optional<int64_t> seed);
  std::string class_name() const override { return class_name_; }
  Config get_config() const override;

 private:
  std::string class_name_;
};

/// Glorot (Xavier) uniform: limit sqrt(6 / (fan_in + fan_out)).
InitializerPtr GlorotUniform(std::optional<int64_t> seed = std::nullopt);
/// Glorot normal: truncated normal, stddev sqrt(2 / (fan_in + fan_out)).
InitializerPtr GlorotNormal(std::optional<int64_t> seed = std::nullopt);
/// He uniform: limit sqrt(6 / fan_in).
InitializerPtr HeUniform(std::optional<int64_t> seed = std::nullopt);
/// He normal: truncated normal, stddev sqrt(2 / fan_in).
InitializerPtr HeNormal(std::optional<int64_t> seed = std::nullopt);
/// LeCun uniform: limit sqrt(3 / fan_in).
InitializerPtr LecunUniform(std::optional<int64_t> seed = std::nullopt);
/// LeCun normal: truncated normal, stddev sqrt(1 / fan_in).
InitializerPtr LecunNormal(std::optional<int64_t> seed = std::nullopt);

/// A (semi-)orthogonal matrix from the QR decomposition of normal draws, times gain; shapes of
/// rank > 2 are flattened to (prod(shape[:-1]), shape[-1]).
class Orthogonal final : public RandomInitializer {
 public:
  /// Keras's Orthogonal(gain=1, seed=None): `gain` multiplies the orthogonal matrix.
  explicit Orthogonal(double gain = 1.0, std::optional<int64_t> seed = std::nullopt);
  Tensor operator()(const Shape& shape, DType dtype) const override;
  std::string class_name() const override { return "Orthogonal"; }
  Config get_config() const override;

 private:
  double gain_;
};

/// Keras's compute_fans: (fan_in, fan_out) of a weight shape, from the given axes when both are
/// set (Keras 3.15's input_axes/output_axes), else by the convolution-kernel rule.
std::pair<double, double> compute_fans(const Shape& shape,
                                       const std::optional<std::vector<int>>& input_axes = {},
                                       const std::optional<std::vector<int>>& output_axes = {});

}  // namespace keras::initializers

#pragma GCC visibility pop
