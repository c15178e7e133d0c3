#pragma once
// keras.layers.Discretization: the bucket of each value among sorted bin boundaries
// (bucket i holds boundaries[i - 1] <= x < boundaries[i]), as an index or encoded.
//
//   auto d = layers::Discretization({.bin_boundaries = std::vector<double>{0.0, 1.0, 2.0}});
//   auto q = layers::Discretization({.num_bins = 4});
//   q->adapt(data);                           // approximate quantiles as boundaries

#include <optional>
#include <vector>

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.Discretization.
struct DiscretizationOptions {
  /// Sorted boundaries; exactly one of bin_boundaries and num_bins is given.
  std::optional<std::vector<double>> bin_boundaries;
  /// The number of bins adapt() computes boundaries for.
  std::optional<int64_t> num_bins;
  /// The quantile error tolerance of adapt() (its summaries hold about 1 / epsilon entries).
  double epsilon = 0.01;
  /// "int" (the bucket index, int32), "one_hot", "multi_hot" or "count" (vectors of
  /// len(bin_boundaries) + 1 entries, in the layer's dtype).
  std::string output_mode = "int";
  /// Sparse outputs are not supported (NotImplementedError).
  bool sparse = false;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The Discretization layer (Keras's "Discretization"). It has no weights; its boundaries are
/// part of its config.
class DiscretizationLayer : public Layer {
 public:
  /// Builds the layer; ValueError for an unknown output_mode, NotImplementedError for sparse.
  explicit DiscretizationLayer(DiscretizationOptions options);
  std::string class_name() const override { return "Discretization"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Computes num_bins - 1 boundaries from approximate quantiles of `data` (Keras's
  /// streaming summary algorithm, in float32), replacing any earlier ones.
  void adapt(const Tensor& data);
  /// The same over a sequence of batches (a dataset); `steps` limits the batches read.
  void adapt(const TensorList& batches, std::optional<int64_t> steps = std::nullopt);

  /// The boundaries (empty optional before adapt() when built with num_bins).
  const std::optional<std::vector<double>>& bin_boundaries() const {
    return options_.bin_boundaries;
  }

 private:
  void update_state(const Tensor& data);
  void finalize_state();

  DiscretizationOptions options_;
  // Keras's summary: values (row 0) and weights (row 1), float32.
  std::vector<float> summary_values_, summary_weights_;
};

/// A layer bucketing values by boundaries.
LayerPtr<DiscretizationLayer> Discretization(DiscretizationOptions options);

}  // namespace keras::layers

#pragma GCC visibility pop
