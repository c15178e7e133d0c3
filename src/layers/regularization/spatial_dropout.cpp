#include "keras/layers/regularization/spatial_dropout.h"

#include "keras/core/config.h"

namespace keras::layers {
namespace {

DropoutOptions as_dropout_options(const SpatialDropoutOptions& o) {
  return DropoutOptions{.noise_shape = std::nullopt,
                        .seed = o.seed,
                        .name = o.name,
                        .trainable = o.trainable,
                        .dtype = o.dtype};
}

std::string standardize_data_format(const std::string& format, const std::string& who) {
  std::string f = format.empty() ? config::image_data_format() : format;
  check(f == "channels_last" || f == "channels_first", who,
        ": the `data_format` argument must be one of \"channels_first\", \"channels_last\". "
        "Received: data_format=", format, ".");
  return f;
}

}  // namespace

SpatialDropoutLayer::SpatialDropoutLayer(int spatial_rank, double rate,
                                         SpatialDropoutOptions options)
    : DropoutLayer(rate, as_dropout_options(options),
                   "spatial_dropout" + std::to_string(spatial_rank) + "d",
                   "SpatialDropout" + std::to_string(spatial_rank) + "D"),
      spatial_rank_(spatial_rank),
      data_format_(spatial_rank == 1 ? "channels_last"
                                     : standardize_data_format(
                                           options.data_format,
                                           "SpatialDropout" + std::to_string(spatial_rank) +
                                               "D '" + name() + "'")) {
  set_built(false);
}

void SpatialDropoutLayer::build(const Shape& input_shape) {
  check(input_shape.rank() == spatial_rank_ + 2, class_name(), " '", name(),
        "': expected an input of rank ", spatial_rank_ + 2, "; got shape ",
        shape_string(input_shape), ".");
}

Tensor SpatialDropoutLayer::call(const Tensor& inputs, const CallContext& ctx) {
  check(inputs.ndim() == spatial_rank_ + 2, class_name(), " '", name(),
        "': expected an input of rank ", spatial_rank_ + 2, "; got shape ", inputs.shape(), ".");
  // One decision per sample and channel: -1 takes the input's extent.
  Shape noise;
  const bool first = data_format_ == "channels_first";
  for (int d = 0; d < inputs.ndim(); ++d) {
    bool keep_extent = d == 0 || (first ? d == 1 : d == inputs.ndim() - 1);
    noise.push_back(keep_extent ? -1 : 1);
  }
  return apply(inputs, ctx, noise);
}

Config SpatialDropoutLayer::get_config() const {
  // Keras's BaseSpatialDropout writes only these keys (no trainable; dtype as a name).
  Config c;
  c["rate"] = rate();
  c["seed"] = detail::seed_to_config(options().seed);
  c["name"] = name();
  c["dtype"] = std::string(dtype_name(variable_dtype()));
  if (spatial_rank_ > 1) c["data_format"] = data_format_;
  return c;
}

template <typename T>
std::shared_ptr<Layer> SpatialDropoutLayer::make_from_config(const Config& c) {
  SpatialDropoutOptions o;
  read_base_config(c, o);
  if (c.contains("seed")) o.seed = detail::seed_from_config(c["seed"]);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<T>(c.at("rate").get<double>(), std::move(o));
}

std::shared_ptr<Layer> SpatialDropout1DLayer::from_config(const Config& c) {
  return make_from_config<SpatialDropout1DLayer>(c);
}
std::shared_ptr<Layer> SpatialDropout2DLayer::from_config(const Config& c) {
  return make_from_config<SpatialDropout2DLayer>(c);
}
std::shared_ptr<Layer> SpatialDropout3DLayer::from_config(const Config& c) {
  return make_from_config<SpatialDropout3DLayer>(c);
}

LayerPtr<SpatialDropout1DLayer> SpatialDropout1D(double rate, SpatialDropoutOptions options) {
  return make_layer<SpatialDropout1DLayer>(rate, std::move(options));
}
LayerPtr<SpatialDropout2DLayer> SpatialDropout2D(double rate, SpatialDropoutOptions options) {
  return make_layer<SpatialDropout2DLayer>(rate, std::move(options));
}
LayerPtr<SpatialDropout3DLayer> SpatialDropout3D(double rate, SpatialDropoutOptions options) {
  return make_layer<SpatialDropout3DLayer>(rate, std::move(options));
}

}  // namespace keras::layers
