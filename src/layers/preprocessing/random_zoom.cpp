#include "keras/layers/preprocessing/random_zoom.h"

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;
namespace {

// Keras's RandomZoom._set_factor: each number in (-1, 1]; a number f gives (-|f|, |f|).
std::pair<double, double> zoom_range(const std::string& layer, const Factor& f,
                                     const char* what) {
  auto in_range = [&](double v) {
    check(v <= 1.0 && v > -1.0, layer, ": the height_factor and width_factor arguments should ",
          "be a number (or a list of two numbers) in the range (-1.0, 1.0]; got ", what, "=",
          f.to_config().dump(), ".");
  };
  if (f.is_pair()) {
    in_range(f.first());
    in_range(f.second());
    return {std::min(f.first(), f.second()), std::max(f.first(), f.second())};
  }
  in_range(f.value());
  return {-std::abs(f.value()), std::abs(f.value())};
}

}  // namespace

RandomZoomLayer::RandomZoomLayer(Factor height_factor, RandomZoomOptions options)
    : RandomImageLayer(base_options(options), "random_zoom", options.data_format, options.seed),
      height_factor_(std::move(height_factor)),
      options_(std::move(options)) {
  const std::string layer = "RandomZoom '" + name() + "'";
  height_range_ = zoom_range(layer, height_factor_, "height_factor");
  if (options_.width_factor) width_range_ = zoom_range(layer, *options_.width_factor, "width_factor");
  pd::check_warp_options(layer, options_.fill_mode, options_.interpolation);
}

RandomZoomLayer::Transformation RandomZoomLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  if (!training) return {};
  check_images(images);
  backend::BackendScope on_input(images.backend_name());
  const Shape shape{images.ndim() == 4 ? images.shape()[0] : 1, 1};
  const random::Seed s = resolve_seed(images, seed);
  Tensor height_zoom = random::uniform(shape, 1.0 + height_range_.first,
                                       1.0 + height_range_.second, std::nullopt, s);
  Tensor width_zoom = options_.width_factor
                          ? random::uniform(shape, 1.0 + width_range_.first,
                                            1.0 + width_range_.second, std::nullopt, s)
                          : height_zoom;
  return {{"height_zoom", height_zoom}, {"width_zoom", width_zoom}};
}

Tensor RandomZoomLayer::transform(const Tensor& images, const Transformation& t) {
  auto hz = t.find("height_zoom"), wz = t.find("width_zoom");
  if (hz == t.end() || wz == t.end()) return images;
  const auto [batch, height, width] = image_dims(images);
  (void)batch;
  Tensor zx = ops::cast(wz->second, DType::Float32), zy = ops::cast(hz->second, DType::Float32);
  // [zx, 0, (W - 1) / 2 (1 - zx), 0, zy, (H - 1) / 2 (1 - zy), 0, 0]: zoom about the centre.
  Tensor x_offset = ops::multiply(Tensor((static_cast<float>(width) - 1.0f) / 2.0f),
                                  ops::subtract(1.0, zx));
  Tensor y_offset = ops::multiply(Tensor((static_cast<float>(height) - 1.0f) / 2.0f),
                                  ops::subtract(1.0, zy));
  Tensor zero = ops::zeros_like(zx);
  Tensor matrix = ops::concatenate({zx, zero, x_offset, zero, zy, y_offset, zero, zero}, 1);
  return ops::image::affine_transform(images, matrix,
                                      {.interpolation = options_.interpolation,
                                       .fill_mode = options_.fill_mode,
                                       .fill_value = options_.fill_value,
                                       .data_format = data_format_});
}

Config RandomZoomLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["height_factor"] = height_factor_.to_config();
  c["width_factor"] = options_.width_factor ? options_.width_factor->to_config() : Config(nullptr);
  c["fill_mode"] = options_.fill_mode;
  c["interpolation"] = options_.interpolation;
  c["seed"] = pd::seed_to_config(seed_);
  c["fill_value"] = options_.fill_value;
  return c;
}

std::shared_ptr<Layer> RandomZoomLayer::from_config(const Config& c) {
  RandomZoomOptions o;
  read_base_config(c, o);
  if (c.contains("width_factor") && !c["width_factor"].is_null())
    o.width_factor = Factor::from_config(c["width_factor"], "RandomZoom width_factor");
  o.fill_mode = c.value("fill_mode", o.fill_mode);
  o.fill_value = c.value("fill_value", 0.0);
  o.interpolation = c.value("interpolation", o.interpolation);
  o.seed = pd::seed_from_config(c);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<RandomZoomLayer>(
      Factor::from_config(c.at("height_factor"), "RandomZoom height_factor"), o);
}

LayerPtr<RandomZoomLayer> RandomZoom(Factor height_factor, RandomZoomOptions options) {
  return make_layer<RandomZoomLayer>(std::move(height_factor), std::move(options));
}

}  // namespace keras::layers
