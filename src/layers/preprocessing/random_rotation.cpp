#include "keras/layers/preprocessing/random_rotation.h"

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

namespace preprocessing_detail {

// The checks every affine random layer makes of fill_mode and interpolation.
void check_warp_options(const std::string& layer, const std::string& fill_mode,
                        const std::string& interpolation) {
  check<NotImplementedError>(fill_mode == "reflect" || fill_mode == "wrap" ||
                                 fill_mode == "constant" || fill_mode == "nearest",
                             layer, ": unknown fill_mode \"", fill_mode,
                             "\"; expected one of \"reflect\", \"wrap\", \"constant\", \"nearest\".");
  check<NotImplementedError>(interpolation == "nearest" || interpolation == "bilinear", layer,
                             ": unknown interpolation \"", interpolation,
                             "\"; expected \"nearest\" or \"bilinear\".");
}

}  // namespace preprocessing_detail

RandomRotationLayer::RandomRotationLayer(Factor factor, RandomRotationOptions options)
    : RandomImageLayer(base_options(options), "random_rotation", options.data_format,
                       options.seed),
      options_(std::move(options)) {
  factor_ = base_factor(factor, -1.0, 1.0);
  pd::check_warp_options("RandomRotation '" + name() + "'", options_.fill_mode,
                         options_.interpolation);
}

RandomRotationLayer::Transformation RandomRotationLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  if (!training) return {};
  check_images(images);
  backend::BackendScope on_input(images.backend_name());
  const auto [batch, height, width] = image_dims(images);
  Tensor angle = random::uniform(Shape{batch}, factor_.first * 360.0, factor_.second * 360.0,
                                 std::nullopt, resolve_seed(images, seed));
  Tensor zeros = ops::zeros_like(angle), ones = ops::ones_like(angle);
  Tensor matrix = pd::compute_affine_matrix(0.5, 0.5, angle, zeros, zeros, ones, zeros, zeros,
                                            height, width);
  if (images.ndim() == 3) matrix = ops::squeeze(matrix, 0);
  return {{"angle", angle}, {"rotation_matrix", matrix}};
}

Tensor RandomRotationLayer::transform(const Tensor& images, const Transformation& t) {
  auto it = t.find("rotation_matrix");
  if (it == t.end()) return images;
  return ops::image::affine_transform(images, it->second,
                                      {.interpolation = options_.interpolation,
                                       .fill_mode = options_.fill_mode,
                                       .fill_value = options_.fill_value,
                                       .data_format = data_format_});
}

Config RandomRotationLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["factor"] = Config::array({factor_.first, factor_.second});
  c["fill_mode"] = options_.fill_mode;
  c["fill_value"] = options_.fill_value;
  c["interpolation"] = options_.interpolation;
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> RandomRotationLayer::from_config(const Config& c) {
  RandomRotationOptions o;
  read_base_config(c, o);
  o.fill_mode = c.value("fill_mode", o.fill_mode);
  o.fill_value = c.value("fill_value", 0.0);
  o.interpolation = c.value("interpolation", o.interpolation);
  o.seed = pd::seed_from_config(c);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<RandomRotationLayer>(
      Factor::from_config(c.at("factor"), "RandomRotation factor"), o);
}

LayerPtr<RandomRotationLayer> RandomRotation(Factor factor, RandomRotationOptions options) {
  return make_layer<RandomRotationLayer>(std::move(factor), std::move(options));
}

}  // namespace keras::layers
