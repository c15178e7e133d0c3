#include "keras/layers/pooling/base_pooling.h"

#include "keras/ops/ops.h"
#include "layers/convolutional/layer_args.h"

namespace keras::layers {

BasePoolingLayer::BasePoolingLayer(int rank, const std::string& pool_mode,
                                   const ops::IntOrTuple& pool_size, BasePoolingOptions options,
                                   const std::string& class_name)
    : Layer(base_options(options), to_snake_case(class_name)),
      class_(class_name),
      rank_(rank),
      pool_mode_(pool_mode),
      options_(std::move(options)) {
  check(pool_mode == "max" || pool_mode == "average", class_,
        ": `pool_mode` must be \"max\" or \"average\"; got \"", pool_mode, "\".");
  pool_size_ = detail::standardize_tuple(class_, pool_size, rank, "pool_size");
  strides_ =
      detail::standardize_tuple(class_, options_.strides.value_or(pool_size), rank, "strides");
  padding_ = detail::standardize_padding(class_, options_.padding);
  data_format_ = detail::standardize_data_format(class_, options_.data_format);
}

void BasePoolingLayer::build(const Shape& input_shape) {
  detail::check_input_rank(class_, name(), input_shape, rank_);
  if (padding_ != "valid") return;
  const detail::Tuple spatial = detail::spatial_dims(input_shape, data_format_ == "channels_last");
  for (size_t i = 0; i < spatial.size(); ++i)
    check(spatial[i] < 0 || spatial[i] >= pool_size_[i], class_, " '", name(),
          "': the output would be empty (computed output size zero or negative) for inputs of "
          "shape ",
          shape_string(input_shape), " with pool_size=", detail::tuple_string(pool_size_),
          ", strides=", detail::tuple_string(strides_), ", padding=\"", options_.padding, "\".");
}

Tensor BasePoolingLayer::call(const Tensor& inputs, const CallContext&) {
  detail::check_input_rank(class_, name(), inputs.shape(), rank_);
  Tensor x = detail::autocast(inputs, compute_dtype());
  ops::PoolOptions o{
      .strides = ops::IntOrTuple(strides_), .padding = padding_, .data_format = data_format_};
  const ops::IntOrTuple window(pool_size_);
  return pool_mode_ == "max" ? ops::max_pool(x, window, o) : ops::average_pool(x, window, o);
}

Config BasePoolingLayer::get_config() const {
  Config c = Layer::get_config();
  c["pool_size"] = detail::tuple_config(pool_size_);
  c["padding"] = options_.padding;
  c["strides"] = detail::tuple_config(strides_);
  c["data_format"] = data_format_;
  return c;
}

std::tuple<ops::IntOrTuple, BasePoolingOptions> BasePoolingLayer::parse_config(const Config& c) {
  BasePoolingOptions o;
  read_base_config(c, o);
  if (c.contains("strides") && !c["strides"].is_null())
    o.strides = detail::int_or_tuple(c["strides"]);
  if (c.contains("padding")) o.padding = c["padding"].get<std::string>();
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return {detail::int_or_tuple(c.at("pool_size")), o};
}

}  // namespace keras::layers
