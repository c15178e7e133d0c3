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
  std::optional<double> rmax;
  std::optional<double> rmin;
  std::optional<double> dmax;
  bool operator==(const RenormClipping&) const = default;
};

struct BatchNormalizationOptions {
  int axis = -1;
  double momentum = 0.99;
  double epsilon = 1e-3;
  bool center = true;
  bool scale = true;
  initializers::InitializerArg beta_initializer = "zeros";
  initializers::InitializerArg gamma_initializer = "ones";
  initializers::InitializerArg moving_mean_initializer = "zeros";
  initializers::InitializerArg moving_variance_initializer = "ones";
  regularizers::RegularizerArg beta_regularizer;
  regularizers::RegularizerArg gamma_regularizer;
  constraints::ConstraintArg beta_constraint;
  constraints::ConstraintArg gamma_constraint;
  /// Batch Renormalization (Ioffe, 2017; Keras 3.14+): trains with corrections towards
  /// running statistics; inference is unchanged.
  bool renorm = false;
  std::optional<RenormClipping> renorm_clipping;
  double renorm_momentum = 0.99;
  /// In a job of several processes, the batch statistics of the global batch (summed over the
  /// processes at each training step: ops::moments(..., synchronized)); the local batch's
  /// otherwise. Keras supports it on TensorFlow only.
  bool synchronized = false;
  std::string name;
  bool trainable = true;
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
  explicit BatchNormalizationLayer(BatchNormalizationOptions options = {});
  std::string class_name() const override { return "BatchNormalization"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  const BatchNormalizationOptions& options() const { return options_; }
  const Variable& gamma() const { return gamma_; }
  const Variable& beta() const { return beta_; }
  const Variable& moving_mean() const { return moving_mean_; }
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
