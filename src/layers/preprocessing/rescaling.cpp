#include "keras/layers/preprocessing/rescaling.h"

#include "keras/core/config.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;
namespace {

Config to_config(const ScaleValue& v) {
  if (v.is_scalar()) return v.scalar();
  return pd::tensor_to_config(ops::convert_to_tensor(v.values(), v.shape()));
}

ScaleValue from_config_value(const Config& c, const std::string& what) {
  Tensor t = pd::config_to_tensor(c, what);
  check(t.defined(), what, " must be a number or an array; got null.");
  return ScaleValue::from_tensor(t);
}

}  // namespace

ScaleValue::ScaleValue(std::vector<double> values, Shape shape)
    : values_(std::move(values)), shape_(std::move(shape)) {
  check(static_cast<int64_t>(values_.size()) == shape_.numel(), "Rescaling: ", values_.size(),
        " values do not fill an array of shape ", shape_, ".");
}

ScaleValue ScaleValue::from_tensor(const Tensor& t) {
  check(t.defined(), "Rescaling: the scale or offset is an undefined tensor.");
  Tensor host = t.is_weak() ? ops::convert_to_tensor(t, DType::Float64) : t;
  return ScaleValue(host.to_vector<double>(), host.shape());
}

RescalingLayer::RescalingLayer(ScaleValue scale, RescalingOptions options)
    : Layer(base_options(options), "rescaling"),
      scale_(std::move(scale)),
      options_(std::move(options)) {
  set_supports_masking(true);
}

Tensor RescalingLayer::call(const Tensor& inputs, const CallContext&) {
  const DType dtype = compute_dtype();
  Tensor x = ops::cast(inputs, dtype);
  auto value = [&](const ScaleValue& v) -> Tensor {
    if (v.is_scalar()) return Tensor(v.scalar());
    Shape shape = v.shape();
    // Keras reshapes an array scale to (C, 1, 1) for channels_first images.
    if (config::image_data_format() == "channels_first")
      while (shape.rank() < 3) shape.push_back(1);
    return ops::cast(Tensor::from_vector(v.values(), shape, inputs.backend_name()), dtype);
  };
  return ops::add(ops::multiply(x, value(scale_)), value(options_.offset));
}

Config RescalingLayer::get_config() const {
  Config c = Layer::get_config();
  c["scale"] = to_config(scale_);
  c["offset"] = to_config(options_.offset);
  return c;
}

std::shared_ptr<Layer> RescalingLayer::from_config(const Config& c) {
  RescalingOptions o;
  read_base_config(c, o);
  if (c.contains("offset")) o.offset = from_config_value(c["offset"], "Rescaling offset");
  return std::make_shared<RescalingLayer>(from_config_value(c.at("scale"), "Rescaling scale"), o);
}

LayerPtr<RescalingLayer> Rescaling(ScaleValue scale, RescalingOptions options) {
  return make_layer<RescalingLayer>(std::move(scale), std::move(options));
}

}  // namespace keras::layers
