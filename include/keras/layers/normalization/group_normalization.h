#pragma once
// keras.layers.GroupNormalization: splits the channels on `axis` into `groups` groups and
// normalizes each sample over every non-batch axis within each group; gamma and beta are per
// channel. groups=-1 is instance normalization (one group per channel).

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The keyword arguments of keras.layers.GroupNormalization's constructor.
struct GroupNormalizationOptions {
  /// Keras's `axis`: the channels axis split into groups; negative counts from the end.
  int axis = -1;
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
  /// Regularizer of beta; none when empty.
  regularizers::RegularizerArg beta_regularizer;
  /// Regularizer of gamma; none when empty.
  regularizers::RegularizerArg gamma_regularizer;
  /// Constraint on beta, applied after each optimizer update; none when empty.
  constraints::ConstraintArg beta_constraint;
  /// Constraint on gamma, applied after each optimizer update; none when empty.
  constraints::ConstraintArg gamma_constraint;
  /// The layer's name (Keras's `name`); empty: a unique name made from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training.
  bool trainable = true;
  /// The dtype policy's name (Keras's `dtype`, e.g. "mixed_float16"); empty: the global policy.
  std::string dtype;
};

/// The GroupNormalization layer (Keras's "GroupNormalization"). groups=-1 becomes the number
/// of channels when the layer is built (as in Keras, get_config then reports that number).
class GroupNormalizationLayer : public Layer {
 public:
  /// Keras's GroupNormalization(groups, ...); ValueError when `groups` is neither positive nor -1,
  /// or epsilon is negative or not finite.
  explicit GroupNormalizationLayer(int groups = 32, GroupNormalizationOptions options = {});
  std::string class_name() const override { return "GroupNormalization"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Makes the layer from a get_config() record (Keras's `from_config`).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `groups`: the number of channel groups (-1, one per channel, becomes the channel
  /// count at build).
  int groups() const { return groups_; }
  /// The keyword arguments.
  const GroupNormalizationOptions& options() const { return options_; }
  /// The "gamma" scale weight, one per channel (undefined without scale or before build).
  const Variable& gamma() const { return gamma_; }
  /// The "beta" offset weight, one per channel (undefined without center or before build).
  const Variable& beta() const { return beta_; }

 private:
  int groups_;
  GroupNormalizationOptions options_;
  int axis_ = -1;  // non-negative once built
  int ndim_ = 0;
  int64_t channels_ = 0;
  Variable gamma_, beta_;
};

/// Group normalization with `groups` groups along `options.axis` (Keras's default: 32).
LayerPtr<GroupNormalizationLayer> GroupNormalization(int groups = 32,
                                                     GroupNormalizationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
