#include "keras/layers/pooling/base_global_pooling.h"

#include "keras/ops/ops.h"
#include "layers/convolutional/layer_args.h"

namespace keras::layers {

BaseGlobalPoolingLayer::BaseGlobalPoolingLayer(int rank, const std::string& pool_mode,
                                               BaseGlobalPoolingOptions options,
                                               const std::string& class_name)
    : Layer(base_options(options), to_snake_case(class_name)),
      class_(class_name),
      rank_(rank),
      pool_mode_(pool_mode),
      options_(std::move(options)) {
  check(pool_mode == "max" || pool_mode == "average", class_,
        ": `pool_mode` must be \"max\" or \"average\"; got \"", pool_mode, "\".");
  data_format_ = detail::standardize_data_format(class_, options_.data_format);
}

void BaseGlobalPoolingLayer::build(const Shape& input_shape) {
  detail::check_input_rank(class_, name(), input_shape, rank_);
}

std::vector<int> BaseGlobalPoolingLayer::spatial_axes() const {
  std::vector<int> axes;
  const int first = data_format_ == "channels_last" ? 1 : 2;
  for (int i = 0; i < rank_; ++i) axes.push_back(first + i);
  return axes;
}

Tensor BaseGlobalPoolingLayer::call(const Tensor& inputs, const CallContext&) {
  detail::check_input_rank(class_, name(), inputs.shape(), rank_);
  Tensor x = detail::autocast(inputs, compute_dtype());
  return pool_mode_ == "max" ? ops::max(x, spatial_axes(), options_.keepdims)
                             : ops::mean(x, spatial_axes(), options_.keepdims);
}

Config BaseGlobalPoolingLayer::get_config() const {
  Config c = Layer::get_config();
  c["data_format"] = data_format_;
  c["keepdims"] = options_.keepdims;
  return c;
}

BaseGlobalPoolingOptions BaseGlobalPoolingLayer::parse_config(const Config& c) {
  BaseGlobalPoolingOptions o;
  read_base_config(c, o);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  if (c.contains("keepdims")) o.keepdims = c["keepdims"].get<bool>();
  return o;
}

}  // namespace keras::layers
