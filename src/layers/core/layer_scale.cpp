// Facts from keras/src/applications/convnext.py (class LayerScale): the weight, its
// initializer and the config keys.

#include "keras/layers/core/layer_scale.h"

#include "keras/initializers/initializers.h"
#include "keras/ops/ops.h"

namespace keras::layers {

LayerScaleLayer::LayerScaleLayer(double init_values, int64_t projection_dim,
                                 LayerScaleOptions options)
    : Layer(base_options(options), "layer_scale"),
      init_values_(init_values),
      projection_dim_(projection_dim) {
  check<ValueError>(projection_dim > 0, "LayerScale: projection_dim must be positive; received ",
                    projection_dim, ".");
}

void LayerScaleLayer::build(const Shape&) {
  // Keras ignores the input shape here: the scale has projection_dim entries, and a mismatch
  // shows at call time.
  gamma_ = add_weight({.shape = {projection_dim_},
                       .initializer = std::make_shared<initializers::Constant>(init_values_),
                       .trainable = true});
}

Tensor LayerScaleLayer::call(const Tensor& inputs, const CallContext&) {
  check<ValueError>(inputs.ndim() >= 1 && inputs.shape().back() == projection_dim_,
                    "LayerScale '", name(), "': expected inputs with last axis ",
                    projection_dim_, " (projection_dim); got shape ", inputs.shape(), ".");
  return ops::multiply(ops::cast(inputs, compute_dtype()), gamma_.value());
}

Config LayerScaleLayer::get_config() const {
  Config c = Layer::get_config();
  c["init_values"] = init_values_;
  c["projection_dim"] = projection_dim_;
  return c;
}

std::shared_ptr<Layer> LayerScaleLayer::from_config(const Config& c) {
  LayerScaleOptions o;
  read_base_config(c, o);
  return std::make_shared<LayerScaleLayer>(c.at("init_values").get<double>(),
                                           c.at("projection_dim").get<int64_t>(), o);
}

LayerPtr<LayerScaleLayer> LayerScale(double init_values, int64_t projection_dim,
                                     LayerScaleOptions options) {
  return make_layer<LayerScaleLayer>(init_values, projection_dim, std::move(options));
}

}  // namespace keras::layers
