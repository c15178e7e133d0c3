#pragma once
// keras.layers.Dropout: in training, zeroes each element with probability `rate` and scales the
// rest by 1 / (1 - rate); the identity in inference.

#include <memory>
#include <optional>

#include "keras/layers/options.h"
#include "keras/random/random.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// Dropout's keyword arguments besides `rate`.
struct DropoutOptions {
  /// The shape of the keep/drop mask, broadcast against the input (one decision shared along
  /// its size-1 axes); -1 takes the input's extent (Keras's None). Default: the input's shape.
  std::optional<Shape> noise_shape;
  /// Seeds the layer's SeedGenerator: the same seed gives the same masks call after call of a
  /// new layer; without one, the layer's generator is seeded from the global generator.
  std::optional<int64_t> seed;
  /// Keras's `name`: the layer's name; empty for a unique automatic one.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// Keras's `dtype`: a dtype policy name ("mixed_float16"); empty for the global policy.
  std::string dtype;
};

/// The Dropout layer (Keras's "Dropout"). Each training call draws a new mask from the layer's
/// SeedGenerator.
class DropoutLayer : public Layer {
 public:
  /// A Dropout layer; ValueError when `rate` is outside [0, 1] or `noise_shape` is invalid.
  DropoutLayer(double rate, DropoutOptions options = {});
  std::string class_name() const override { return "Dropout"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from its get_config() dict (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The drop probability (Keras's `rate`).
  double rate() const { return rate_; }
  /// The layer's keyword arguments besides `rate`.
  const DropoutOptions& options() const { return options_; }
  /// The generator the masks come from (null when rate is 0).
  random::SeedGenerator* seed_generator() const { return generator_.get(); }

 protected:
  /// For the spatial variants: their generated-name prefix and class name (for messages).
  DropoutLayer(double rate, DropoutOptions options, const std::string& default_name,
               const std::string& label);
  /// Dropout with `noise_shape`, or the identity outside training.
  Tensor apply(const Tensor& inputs, const CallContext& ctx,
               const std::optional<Shape>& noise_shape);

 private:
  double rate_;
  DropoutOptions options_;
  std::unique_ptr<random::SeedGenerator> generator_;
};

/// Dropout with drop probability `rate` in [0, 1].
LayerPtr<DropoutLayer> Dropout(double rate, DropoutOptions options = {});

namespace detail {
/// The seed a draw of a noise layer uses: its generator, except on data-free (shape
/// inference) tensors, where a fixed seed keeps the generator from advancing.
random::Seed draw_seed(random::SeedGenerator* generator, const Tensor& like);
/// `seed` as Keras writes it: an integer or null.
Config seed_to_config(const std::optional<int64_t>& seed);
std::optional<int64_t> seed_from_config(const Config& config);
/// Checks a noise_shape argument (entries positive or -1); ValueError naming `layer`.
void check_noise_shape(const std::optional<Shape>& noise_shape, const std::string& layer);
/// A noise shape as Keras writes it: a list with null for -1, or null.
Config noise_shape_to_config(const std::optional<Shape>& noise_shape);
std::optional<Shape> noise_shape_from_config(const Config& config);
}  // namespace detail

}  // namespace keras::layers

#pragma GCC visibility pop
