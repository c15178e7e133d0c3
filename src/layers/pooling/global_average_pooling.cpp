#include "keras/layers/pooling/global_average_pooling.h"

#include "keras/ops/ops.h"
#include "layers/convolutional/layer_args.h"

namespace keras::layers {

GlobalAveragePooling1DLayer::GlobalAveragePooling1DLayer(GlobalAveragePooling1DOptions options)
    : BaseGlobalPoolingLayer(1, "average", std::move(options), "GlobalAveragePooling1D") {
  set_supports_masking(true);
}

std::shared_ptr<Layer> GlobalAveragePooling1DLayer::from_config(const Config& config) {
  return std::make_shared<GlobalAveragePooling1DLayer>(parse_config(config));
}

GlobalAveragePooling2DLayer::GlobalAveragePooling2DLayer(GlobalAveragePooling2DOptions options)
    : BaseGlobalPoolingLayer(2, "average", std::move(options), "GlobalAveragePooling2D") {}

std::shared_ptr<Layer> GlobalAveragePooling2DLayer::from_config(const Config& config) {
  return std::make_shared<GlobalAveragePooling2DLayer>(parse_config(config));
}

GlobalAveragePooling3DLayer::GlobalAveragePooling3DLayer(GlobalAveragePooling3DOptions options)
    : BaseGlobalPoolingLayer(3, "average", std::move(options), "GlobalAveragePooling3D") {}

std::shared_ptr<Layer> GlobalAveragePooling3DLayer::from_config(const Config& config) {
  return std::make_shared<GlobalAveragePooling3DLayer>(parse_config(config));
}

Tensor GlobalAveragePooling1DLayer::call(const Tensor& inputs, const CallContext& ctx) {
  if (!ctx.mask.defined()) return BaseGlobalPoolingLayer::call(inputs, ctx);
  detail::check_input_rank(cls(), name(), inputs.shape(), 1);
  const bool cl = data_format() == "channels_last";
  const Shape& s = inputs.shape();
  const int64_t steps = s[cl ? 1 : 2];
  check(ctx.mask.ndim() == 2 && ctx.mask.shape()[0] == s[0] && ctx.mask.shape()[1] == steps, cls(),
        " '", name(), "': expected a mask of shape (", s[0], ", ", steps,
        ") (batch, steps) for inputs of shape ", s, "; got mask of shape ", ctx.mask.shape(), ".");
  Tensor x = detail::autocast(inputs, compute_dtype());
  // Keras: masked steps are replaced by zeros (so NaNs there do not propagate), and the sum
  // over the steps is divided by the number of unmasked steps.
  Tensor m = ops::expand_dims(ops::cast(ctx.mask, DType::Bool), cl ? 2 : 1);
  x = ops::where(m, x, ops::zeros({}, x.dtype()));
  const int axis = cl ? 1 : 2;
  return ops::divide(ops::sum(x, axis, keepdims()),
                     ops::sum(ops::cast(m, x.dtype()), axis, keepdims()));
}

Tensor GlobalAveragePooling1DLayer::compute_mask(const Tensor&, const Tensor&) const {
  return Tensor();
}

LayerPtr<GlobalAveragePooling1DLayer> GlobalAveragePooling1D(
    GlobalAveragePooling1DOptions options) {
  return make_layer<GlobalAveragePooling1DLayer>(std::move(options));
}
LayerPtr<GlobalAveragePooling2DLayer> GlobalAveragePooling2D(
    GlobalAveragePooling2DOptions options) {
  return make_layer<GlobalAveragePooling2DLayer>(std::move(options));
}
LayerPtr<GlobalAveragePooling3DLayer> GlobalAveragePooling3D(
    GlobalAveragePooling3DOptions options) {
  return make_layer<GlobalAveragePooling3DLayer>(std::move(options));
}
LayerPtr<GlobalAveragePooling1DLayer> GlobalAvgPool1D(GlobalAveragePooling1DOptions options) {
  return GlobalAveragePooling1D(std::move(options));
}
LayerPtr<GlobalAveragePooling2DLayer> GlobalAvgPool2D(GlobalAveragePooling2DOptions options) {
  return GlobalAveragePooling2D(std::move(options));
}
LayerPtr<GlobalAveragePooling3DLayer> GlobalAvgPool3D(GlobalAveragePooling3DOptions options) {
  return GlobalAveragePooling3D(std::move(options));
}

}  // namespace keras::layers
