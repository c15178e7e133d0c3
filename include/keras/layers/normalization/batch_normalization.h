#pragma once
// keras.layers.BatchNormalization: normalizes each feature along `axis` with the batch's
// statistics in training (updating moving averages of them) and the moving averages in
// inference. Weights: gamma, beta (trainable), moving_mean, moving_variance (not trainable),
// then with renorm moving_stddev, renorm_mean, renorm_stddev.

#include <optional>

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// Batch renormalization's clipping of its corrections r (to [rmin, rmax]) and d (to
/// [-dmax, dmax]); a missing bound does not clip.
struct RenormClipping {
  /// Upper bound of r.
  std::optional<double> rmax;
  /// Lower bound of r.
  std::optional<double> rmin;
  /// Bound of |d|; not negative.
  std::optional<double> dmax;
  /// Equal when every bound is.
  bool operator==(const RenormClipping&) const = default;
};

/// The constructor arguments of keras.layers.BatchNormalization.
struct BatchNormalizationOptions {
  /// Keras's `axis`: the features axis (each feature has its own statistics); negative counts
  /// from the end.
  int axis = -1;
  /// Keras's `momentum` of the moving averages: each training step sets
  /// moving = moving * momentum + batch * (1 - momentum).
  double momentum = 0.99;
  /// Keras's `epsilon`: added to the variance to avoid dividing by zero.
  double epsilon = 1e-3;
  /// Keras's `center`: adds the learned offset beta after normalizing (no beta weight when false).
  bool center = true;
  /// Keras's `scale`: multiplies by the learned gamma after normalizing (no gamma weight when
  /// false; a following linear layer can do the scaling).
  bool scale = true;
  /// Initializer of beta (Keras's `beta_initializer`).
  initializers::InitializerArg beta_initializer = "zeros";
  /// Initializer of gamma (Keras's `gamma_initializer`).
  initializers::InitializerArg gamma_initializer = "ones";
  /// Initializer of moving_mean (Keras's `moving_mean_initializer`).
  initializers::InitializerArg moving_mean_initializer = "zeros";
  /// Initializer of moving_variance (Keras's `moving_variance_initializer`).
  initializers::InitializerArg moving_variance_initializer = "ones";
  /// Regularizer of beta; none when empty.
  regularizers::RegularizerArg beta_regularizer;
  /// Regularizer of gamma; none when empty.
  regularizers::RegularizerArg gamma_regularizer;
  /// Constraint on beta, applied after each optimizer update; none when empty.
  constraints::ConstraintArg beta_constraint;
  /// Constraint on gamma, applied after each optimizer update; none when empty.
  constraints::ConstraintArg gamma_constraint;
  /// Batch Renormalization (Ioffe, 2017; Keras 3.14+): trains with corrections towards
  /// running statistics; inference is unchanged.
  bool renorm = false;
  /// Keras's `renorm_clipping` (with renorm): the clipping of the corrections; unset: none.
  std::optional<RenormClipping> renorm_clipping;
  /// Keras's `renorm_momentum` (with renorm): the momentum of the renorm mean and standard
  /// deviation; `momentum` still updates the moving statistics used in inference.
  double renorm_momentum = 0.99;
  /// In a job of several processes, the batch statistics of the global batch (summed over the
  /// processes at each training step: ops::moments(..., synchronized)); the local batch's
  /// otherwise. Keras supports it on TensorFlow only.
  bool synchronized = false;
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};

/// The BatchNormalization layer (Keras's "BatchNormalization").
///
/// training=true (and the layer trainable): normalizes with the batch's mean and biased
/// variance over every axis but `axis` (over the positions where the mask is true when one is
/// given) and updates moving = moving * momentum + batch * (1 - momentum). Otherwise, and
/// always when trainable is false (as in Keras 3), normalizes with the moving statistics.
class BatchNormalizationLayer : public Layer {
 public:
  /// Makes the layer; ValueError for a negative or non-finite epsilon, a non-finite momentum, or
  /// an inconsistent renorm_clipping.
  explicit BatchNormalizationLayer(BatchNormalizationOptions options = {});
  std::string class_name() const override { return "BatchNormalization"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// The constructor arguments.
  const BatchNormalizationOptions& options() const { return options_; }
  /// The "gamma" scale weight, one per feature (undefined without scale or before build).
  const Variable& gamma() const { return gamma_; }
  /// The "beta" offset weight, one per feature (undefined without center or before build).
  const Variable& beta() const { return beta_; }
  /// The non-trainable "moving_mean" used in inference (undefined before build).
  const Variable& moving_mean() const { return moving_mean_; }
  /// The non-trainable "moving_variance" used in inference (undefined before build).
  const Variable& moving_variance() const { return moving_variance_; }

 private:
  std::pair<Tensor, Tensor> batch_moments(const Tensor& x, const Tensor& mask) const;

  BatchNormalizationOptions options_;
  int axis_ = -1;  // non-negative once built
  int ndim_ = 0;
  int64_t channels_ = 0;
  Variable gamma_, beta_, moving_mean_, moving_variance_;
  Variable moving_stddev_, renorm_mean_, renorm_stddev_;
};

/// Batch normalization along `options.axis` (the features axis).
LayerPtr<BatchNormalizationLayer> BatchNormalization(BatchNormalizationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
