#pragma once
// The base of the image preprocessing and augmentation layers (Keras's
// BaseImagePreprocessingLayer): images of rank 3 (one image) or 4 (a batch) in the layer's
// data_format; a call draws a random transformation (get_random_transformation) and applies it
// (transform_images). Random layers transform only when training; a layer's draws come from
// its own SeedGenerator, so the same seed gives the same transformations.
//
// keras-cpp transforms images only (no bounding boxes, segmentation masks or labels dicts).

#include <array>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "keras/layers/options.h"
#include "keras/random/random.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// A factor argument: one number or a (lower, upper) pair (`0.2`, `{-0.1, 0.3}`).
class Factor {
 public:
  /// One number f (whether it means (-f, f) or (0, f) is up to the layer).
  Factor(double value) : values_{value} {}  // NOLINT: numbers convert
  /// A `{lower, upper}` list; ValueError unless it has exactly two numbers.
  Factor(std::initializer_list<double> pair);  // NOLINT
  /// The pair (lower, upper).
  Factor(double lower, double upper) : values_{lower, upper} {}

  /// Whether the factor is a (lower, upper) pair rather than one number.
  bool is_pair() const { return values_.size() == 2; }
  /// The number (when !is_pair()).
  double value() const { return values_[0]; }
  /// The pair (when is_pair()).
  double first() const { return values_[0]; }
  /// The pair's second number (when is_pair()).
  double second() const { return values_[1]; }
  /// The number, or the pair as a list (what Keras writes to configs).
  Config to_config() const;
  /// A number or a two-element list.
  static Factor from_config(const Config& config, const std::string& what);

 private:
  std::vector<double> values_;
};

/// The base of the image preprocessing layers.
class BaseImagePreprocessingLayer : public Layer {
 public:
  /// What get_random_transformation draws, by Keras's names ("angle", "flips", ...); empty
  /// when nothing is drawn.
  using Transformation = std::map<std::string, Tensor>;

  /// `default_name` is the layer's name when options.name is empty; an empty `data_format`
  /// means keras.config.image_data_format(), anything but "channels_last" or "channels_first"
  /// is a ValueError.
  BaseImagePreprocessingLayer(LayerOptions options, std::string default_name,
                              std::string data_format);

  /// The random transformation a call on `images` (rank 3 or 4) draws when `training`, from
  /// `seed` or else the layer's generator (Keras's get_random_transformation).
  virtual Transformation get_random_transformation(const Tensor& images, bool training = true,
                                                   std::optional<random::Seed> seed = std::nullopt);
  /// `transformation` applied to a batch of images (rank 4); identity (after the dtype
  /// conversion the layer does) when not `training`.
  virtual Tensor transform_images(const Tensor& images, const Transformation& transformation,
                                  bool training = true);

  /// get_random_transformation then transform_images (a rank-3 image is transformed as a batch
  /// of one).
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;

  /// "channels_last" or "channels_first" (an empty argument resolved to the global default).
  const std::string& data_format() const { return data_format_; }

 protected:
  /// The geometric or colour transform itself (Keras's _transform_images); the default
  /// transform_images casts to the compute dtype and calls it when training.
  virtual Tensor transform(const Tensor& images, const Transformation& transformation);
  /// Floating inputs in the compute dtype (Keras's autocast); others unchanged.
  Tensor autocast(const Tensor& x) const;
  /// The (height, width) axes of rank-`rank` images.
  std::pair<int, int> spatial_axes(int rank) const;
  /// Batch size, height and width of rank-3 or rank-4 images (batch 1 for rank 3).
  std::array<int64_t, 3> image_dims(const Tensor& images) const;
  /// ValueError unless `images` has rank 3 or 4.
  void check_images(const Tensor& images) const;
  /// Keras's _set_factor: (lower, upper) from a factor within [bound_lo, bound_hi]; a single
  /// number f gives (max(-|f|, bound_lo), |f|).
  std::pair<double, double> base_factor(const Factor& factor, double bound_lo,
                                        double bound_hi) const;

  /// The resolved data_format: "channels_last" or "channels_first".
  std::string data_format_;
};

/// The seed argument of the random layers: an integer, or none (seeded at random).
using SeedArg = std::optional<int64_t>;

/// The common part of the random image layers: the seed and its generator.
class RandomImageLayer : public BaseImagePreprocessingLayer {
 public:
  /// As BaseImagePreprocessingLayer's, plus the `seed` of the layer's SeedGenerator (none: a
  /// random seed).
  RandomImageLayer(LayerOptions options, std::string default_name, std::string data_format,
                   SeedArg seed);
  /// Keras's `seed` as given (none when the layer is seeded at random).
  const SeedArg& seed() const { return seed_; }
  /// The SeedGenerator the layer's draws come from (Keras's `generator`).
  random::SeedGenerator& generator() { return generator_; }

 protected:
  /// `seed`, or the layer's generator (a fixed seed for the data-free images of shape
  /// inference, so that building a Functional model does not advance the generator).
  random::Seed resolve_seed(const Tensor& images, const std::optional<random::Seed>& seed);

  /// Keras's `seed` as given.
  SeedArg seed_;
  /// The layer's SeedGenerator, seeded from `seed`.
  random::SeedGenerator generator_;
};

}  // namespace keras::layers

#pragma GCC visibility pop
