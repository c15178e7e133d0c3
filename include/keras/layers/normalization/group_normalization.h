#pragma once
// keras.layers.GroupNormalization: splits the channels on `axis` into `groups` groups and
// normalizes each sample over every non-batch axis within each group; gamma and beta are per
// channel. groups=-1 is instance normalization (one group per channel).

#include "keras/layers/options.h"

#pragma GCC visibility push(default)
namespace keras::layers {

struct GroupNormalizationOptions {
  int axis = -1;
  double epsilon = 1e-3;
  bool center = true;
  bool scale = true;
  initializers::InitializerArg beta_initializer = "zeros";
  initializers::InitializerArg gamma_initializer = "ones";
  regularizers::RegularizerArg beta_regularizer;
  regularizers::RegularizerArg gamma_regularizer;
  constraints::ConstraintArg beta_constraint;
  constraints::ConstraintArg gamma_constraint;
  std::string name;
  bool trainable = true;
  std::string dtype;
};

/// The GroupNormalization layer (Keras's "GroupNormalization"). groups=-1 becomes the number
/// of channels when the layer is built (as in Keras, get_config then reports that number).
class GroupNormalizationLayer : public Layer {
 public:
  explicit GroupNormalizationLayer(int groups = 32, GroupNormalizationOptions options = {});
  std::string class_name() const override { return "GroupNormalization"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  static std::shared_ptr<Layer> from_config(const Config& config);

  int groups() const { return groups_; }
  const GroupNormalizationOptions& options() const { return options_; }
  const Variable& gamma() const { return gamma_; }
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
