#include "keras/layers/reshaping/reshape.h"

#include "keras/ops/ops.h"
#include "layers/reshaping/reshaping_utils.h"

namespace keras::layers {

ReshapeLayer::ReshapeLayer(Shape target_shape, ReshapeOptions options)
    : Layer(base_options(options), "reshape"), target_shape_(std::move(target_shape)) {
  int unknown = 0;
  for (int64_t d : target_shape_) {
    check(d >= -1, "Reshape: each dimension in `target_shape` must be a non-negative integer, "
          "or -1 for a single unknown dimension. Received: target_shape=", target_shape_, ".");
    unknown += d == -1;
  }
  check(unknown <= 1, "Reshape: there must be at most one unknown dimension (-1) in "
        "`target_shape`. Received: target_shape=", target_shape_, ".");
}

Shape ReshapeLayer::resolve(const Shape& input_shape) const {
  Shape inner = input_shape.rank() == 0 ? Shape{} : Shape(input_shape.begin() + 1, input_shape.end());
  for (int64_t d : inner)
    if (d < 0) return target_shape_;  // unknown input axes: -1 stays unknown
  const int64_t size = inner.numel();
  int64_t known = 1;
  int unknown_at = -1;
  for (int i = 0; i < target_shape_.rank(); ++i) {
    if (target_shape_[i] == -1) unknown_at = i;
    else known *= target_shape_[i];
  }
  if (unknown_at < 0) {
    check(size == known, "Reshape '", name(),
          "': the total size of the tensor must be unchanged. Received: input_shape=",
          shape_string(input_shape), ", target_shape=", target_shape_, ".");
    return target_shape_;
  }
  check(known != 0 && size % known == 0, "Reshape '", name(),
        "': the total size of the tensor must be unchanged, however, the input size cannot be "
        "divided by the specified dimensions in target_shape. Received: input_shape=",
        shape_string(input_shape), ", target_shape=", target_shape_, ".");
  Shape out = target_shape_;
  out[static_cast<size_t>(unknown_at)] = size / known;
  return out;
}

void ReshapeLayer::build(const Shape& input_shape) {
  check(input_shape.rank() >= 1, "Reshape '", name(),
        "': inputs need a batch axis; got shape ", shape_string(input_shape), ".");
  resolve(input_shape);
}

Tensor ReshapeLayer::call(const Tensor& inputs, const CallContext&) {
  build(inputs.shape());
  Shape out = resolve(inputs.shape());
  out.insert(0, inputs.shape()[0]);
  return ops::reshape(autocast(inputs), out);
}

Config ReshapeLayer::get_config() const {
  Config c = Layer::get_config();
  c["target_shape"] = target_shape_.to_vector();
  return c;
}

std::shared_ptr<Layer> ReshapeLayer::from_config(const Config& c) {
  ReshapeOptions o;
  read_base_config(c, o);
  return std::make_shared<ReshapeLayer>(Shape(c.at("target_shape").get<std::vector<int64_t>>()), o);
}

LayerPtr<ReshapeLayer> Reshape(Shape target_shape, ReshapeOptions options) {
  return make_layer<ReshapeLayer>(std::move(target_shape), std::move(options));
}

}  // namespace keras::layers
