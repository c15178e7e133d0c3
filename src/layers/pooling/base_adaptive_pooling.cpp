#include "keras/layers/pooling/base_adaptive_pooling.h"

#include "keras/ops/ops.h"
#include "layers/convolutional/layer_args.h"

namespace keras::layers {

BaseAdaptivePoolingLayer::BaseAdaptivePoolingLayer(int rank, const std::string& pool_mode,
                                                   const ops::IntOrTuple& output_size,
                                                   BaseAdaptivePoolingOptions options,
                                                   const std::string& class_name)
    : Layer(base_options(options), to_snake_case(class_name)),
      class_(class_name),
      rank_(rank),
      pool_mode_(pool_mode),
      options_(std::move(options)) {
  check(pool_mode == "max" || pool_mode == "average", class_,
        ": `pool_mode` must be \"max\" or \"average\"; got \"", pool_mode, "\".");
  // Keras raises TypeError for an output_size of the wrong length.
  check<TypeError>(output_size.is_scalar() || static_cast<int>(output_size.values().size()) == rank,
                   class_, ": `output_size` must be an integer or a tuple of ", rank,
                   " integers; got ", output_size.values().size(), " values.");
  output_size_ = detail::standardize_tuple(class_, output_size, rank, "output_size");
  data_format_ = detail::standardize_data_format(class_, options_.data_format);
}

void BaseAdaptivePoolingLayer::build(const Shape& input_shape) {
  detail::check_input_rank(class_, name(), input_shape, rank_);
}

Tensor BaseAdaptivePoolingLayer::call(const Tensor& inputs, const CallContext&) {
  detail::check_input_rank(class_, name(), inputs.shape(), rank_);
  Tensor x = detail::autocast(inputs, compute_dtype());
  const ops::IntOrTuple size(output_size_);
  return pool_mode_ == "max" ? ops::adaptive_max_pool(x, size, data_format_)
                             : ops::adaptive_average_pool(x, size, data_format_);
}

Config BaseAdaptivePoolingLayer::get_config() const {
  Config c = Layer::get_config();
  c["output_size"] = detail::tuple_config(output_size_);
  c["data_format"] = data_format_;
  return c;
}

std::tuple<ops::IntOrTuple, BaseAdaptivePoolingOptions> BaseAdaptivePoolingLayer::parse_config(
    const Config& c) {
  BaseAdaptivePoolingOptions o;
  read_base_config(c, o);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return {detail::int_or_tuple(c.at("output_size")), o};
}

}  // namespace keras::layers
