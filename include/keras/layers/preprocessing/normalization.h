#pragma once
// keras.layers.Normalization: (inputs - mean) / sqrt(variance), per index of the kept axes,
// with the mean and variance given or learned by adapt().
//
//   auto norm = layers::Normalization();          // axis = -1: one statistic per feature
//   norm->adapt(train_x);                          // mean and variance over the other axes
//   auto y = norm(x);
//   auto fixed = layers::Normalization({.mean = 3.0, .variance = 2.0});

#include <vector>

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.Normalization.
struct NormalizationOptions {
  /// The axes that keep their own statistics; empty for one scalar mean and variance (Keras's
  /// axis=None).
  std::vector<int> axis = {-1};
  /// Fixed statistics (both or neither), broadcast to the kept axes (right-aligned). Undefined
  /// tensors mean "learn them with adapt()".
  Tensor mean;
  /// The fixed variance, given together with `mean`.
  Tensor variance;
  /// Undo the normalization instead: mean + inputs * sqrt(variance).
  bool invert = false;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The Normalization layer (Keras's "Normalization"). Without fixed statistics it owns the
/// non-trainable weights "mean" and "variance" (the kept axes' shape) and "count" (an int32
/// scalar Keras keeps for old files), in that order, so saved files load.
class NormalizationLayer : public Layer {
 public:
  /// Builds the layer; ValueError when only one of mean and variance is given or their shapes
  /// differ.
  explicit NormalizationLayer(NormalizationOptions options = {});
  std::string class_name() const override { return "Normalization"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Sets the mean and variance from `data`, over every axis but the kept ones (builds the
  /// layer from data's shape first if needed).
  void adapt(const Tensor& data);
  /// The same over a sequence of batches (a dataset): the statistics are merged batch by
  /// batch as Keras does for a tf.data.Dataset or an iterable of batches.
  void adapt(const TensorList& batches);

  /// The mean and variance the layer uses, shaped to broadcast against its inputs.
  Tensor mean() const;
  /// The variance the layer uses, shaped to broadcast against its inputs.
  Tensor variance() const;
  /// The non-trainable "mean" weight adapt() sets (none with fixed statistics).
  const Variable& adapt_mean() const { return adapt_mean_; }
  /// The non-trainable "variance" weight adapt() sets (none with fixed statistics).
  const Variable& adapt_variance() const { return adapt_variance_; }
  /// The int32 "count" weight Keras keeps for old files (none with fixed statistics).
  const Variable& count() const { return count_; }

 private:
  void check_adapt_shape(const Shape& shape) const;
  void assign_statistics(const Tensor& mean, const Tensor& variance);

  NormalizationOptions options_;
  Shape build_shape_;
  std::vector<int> keep_axis_, reduce_axis_;
  Shape broadcast_shape_, mean_and_var_shape_;
  Tensor fixed_mean_, fixed_variance_;  // the given statistics, broadcast (host, variable dtype)
  Variable adapt_mean_, adapt_variance_, count_;
};

/// A layer normalizing its inputs to mean 0 and variance 1 per index of the kept axes.
LayerPtr<NormalizationLayer> Normalization(NormalizationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
