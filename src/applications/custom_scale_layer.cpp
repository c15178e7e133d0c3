#include "custom_scale_layer.h"

#include "keras/core/errors.h"
#include "keras/ops/ops.h"

namespace keras::applications {

CustomScaleLayer::CustomScaleLayer(double scale, CustomScaleLayerOptions options)
    : Layer(layers::base_options(options), "custom_scale_layer"), scale_(scale) {}

TensorList CustomScaleLayer::call_list(const TensorList& inputs, const CallContext&) {
  check<ValueError>(inputs.size() == 2, "CustomScaleLayer '", name(), "' takes [shortcut, "
                    "residual], two tensors; received ", inputs.size(), ".");
  return {ops::add(inputs[0], ops::multiply(inputs[1], scale_))};
}

Config CustomScaleLayer::get_config() const {
  Config config = Layer::get_config();
  config["scale"] = scale_;
  return config;
}

std::shared_ptr<Layer> CustomScaleLayer::from_config(const Config& c) {
  check<ValueError>(c.contains("scale") && c["scale"].is_number(),
                    "CustomScaleLayer's config needs a number \"scale\"; got ", c.dump(), ".");
  CustomScaleLayerOptions o;
  layers::read_base_config(c, o);
  return std::make_shared<CustomScaleLayer>(c["scale"].get<double>(), o);
}

}  // namespace keras::applications
