#include "keras/layers/preprocessing/random_translation.h"

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;
namespace {

// Keras's RandomTranslation._set_factor: each number in [-1, 1]; f gives (-|f|, |f|).
std::pair<double, double> translation_range(const std::string& layer, const Factor& f,
                                            const char* what) {
  auto in_range = [&](double v) {
    check(v <= 1.0 && v >= -1.0, layer, ": the factor argument should be a number (or a list ",
          "of two numbers) in the range [-1.0, 1.0]; got ", what, "=", f.to_config().dump(), ".");
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

RandomTranslationLayer::RandomTranslationLayer(Factor height_factor, Factor width_factor,
                                               RandomTranslationOptions options)
    : RandomImageLayer(base_options(options), "random_translation", options.data_format,
                       options.seed),
      height_factor_(std::move(height_factor)),
      width_factor_(std::move(width_factor)),
      options_(std::move(options)) {
  const std::string layer = "RandomTranslation '" + name() + "'";
  height_range_ = translation_range(layer, height_factor_, "height_factor");
  width_range_ = translation_range(layer, width_factor_, "width_factor");
  pd::check_warp_options(layer, options_.fill_mode, options_.interpolation);
}

RandomTranslationLayer::Transformation RandomTranslationLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  if (!training) return {};
  check_images(images);
  backend::BackendScope on_input(images.backend_name());
  const auto [batch, height, width] = image_dims(images);
  const random::Seed s = resolve_seed(images, seed);
  Tensor h = random::uniform(Shape{batch, 1}, height_range_.first, height_range_.second,
                             std::nullopt, s);
  h = ops::multiply(h, Tensor(static_cast<double>(height)));
  Tensor w = random::uniform(Shape{batch, 1}, width_range_.first, width_range_.second,
                             std::nullopt, s);
  w = ops::multiply(w, Tensor(static_cast<double>(width)));
  return {{"translations", ops::cast(ops::concatenate({w, h}, 1), DType::Float32)}};
}

Tensor RandomTranslationLayer::transform(const Tensor& images, const Transformation& t) {
  auto it = t.find("translations");
  if (it == t.end()) return images;
  const Tensor& tr = it->second;
  const int64_t n = tr.shape()[0];
  Tensor ones = ops::ones(Shape{n, 1}, tr.dtype()), zeros = ops::zeros(Shape{n, 1}, tr.dtype());
  Tensor tx = ops::slice(tr, {0, 0}, Shape{n, 1}), ty = ops::slice(tr, {0, 1}, Shape{n, 1});
  Tensor matrix = ops::concatenate(
      {ones, zeros, ops::negative(tx), zeros, ones, ops::negative(ty), zeros, zeros}, 1);
  return ops::image::affine_transform(images, matrix,
                                      {.interpolation = options_.interpolation,
                                       .fill_mode = options_.fill_mode,
                                       .fill_value = options_.fill_value,
                                       .data_format = data_format_});
}

Config RandomTranslationLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["height_factor"] = height_factor_.to_config();
  c["width_factor"] = width_factor_.to_config();
  c["fill_mode"] = options_.fill_mode;
  c["interpolation"] = options_.interpolation;
  c["seed"] = pd::seed_to_config(seed_);
  c["fill_value"] = options_.fill_value;
  return c;
}

std::shared_ptr<Layer> RandomTranslationLayer::from_config(const Config& c) {
  RandomTranslationOptions o;
  read_base_config(c, o);
  o.fill_mode = c.value("fill_mode", o.fill_mode);
  o.fill_value = c.value("fill_value", 0.0);
  o.interpolation = c.value("interpolation", o.interpolation);
  o.seed = pd::seed_from_config(c);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<RandomTranslationLayer>(
      Factor::from_config(c.at("height_factor"), "RandomTranslation height_factor"),
      Factor::from_config(c.at("width_factor"), "RandomTranslation width_factor"), o);
}

LayerPtr<RandomTranslationLayer> RandomTranslation(Factor height_factor, Factor width_factor,
                                                   RandomTranslationOptions options) {
  return make_layer<RandomTranslationLayer>(std::move(height_factor), std::move(width_factor),
                                            std::move(options));
}

}  // namespace keras::layers
