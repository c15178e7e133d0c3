#include "keras/layers/preprocessing/random_perspective.h"

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

RandomPerspectiveLayer::RandomPerspectiveLayer(RandomPerspectiveOptions options)
    : RandomImageLayer(base_options(options), "random_perspective", options.data_format,
                       options.seed),
      options_(std::move(options)) {
  factor_ = base_factor(options_.factor, 0.0, 1.0);
  check(options_.scale >= 0.0 && options_.scale <= 1.0, "RandomPerspective '", name(),
        "': scale should be a number in the range [0, 1]; got scale=", options_.scale, ".");
  if (options_.interpolation != "nearest" && options_.interpolation != "bilinear")
    throw NotImplementedError("RandomPerspective '" + name() + "': unknown interpolation '" +
                              options_.interpolation + "'; expected 'nearest' or 'bilinear'.");
}

RandomPerspectiveLayer::Transformation RandomPerspectiveLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  check_images(images);
  // Shape inference (symbolic images) needs no draw: the layer keeps the shape.
  if (!training || images.backend().is_symbolic()) return {};
  backend::BackendScope on_input(images.backend_name());
  const auto [batch, height, width] = image_dims(images);
  const DType dtype = compute_dtype();
  const random::Seed s = resolve_seed(images, seed);
  Tensor probability =
      random::uniform(Shape{batch}, factor_.first, factor_.second, std::nullopt, s);
  Tensor threshold = random::uniform(Shape{batch}, 0.0, 1.0, std::nullopt, s);
  Tensor moves =
      random::uniform(Shape{batch, 4, 2}, -0.5 * options_.scale, 0.5 * options_.scale, dtype, s);
  const double w = static_cast<double>(width - 1), h = static_cast<double>(height - 1);
  Tensor corners = ops::cast(
      ops::convert_to_tensor(std::vector<double>{0, 0, w, 0, 0, h, w, h}, Shape{1, 4, 2}), dtype);
  Tensor start = ops::broadcast_to(corners, Shape{batch, 4, 2});
  return {{"apply_perspective", ops::less(threshold, probability)},
          {"start_points", start},
          {"end_points", ops::add(start, ops::multiply(start, moves))}};
}

Tensor RandomPerspectiveLayer::transform(const Tensor& images, const Transformation& t) {
  if (t.empty()) return images;
  auto apply = t.find("apply_perspective"), start = t.find("start_points"),
       end = t.find("end_points");
  check(apply != t.end() && start != t.end() && end != t.end(), "RandomPerspective '", name(),
        "': the transformation needs \"apply_perspective\", \"start_points\" and "
        "\"end_points\" (from get_random_transformation).");
  Tensor warped = ops::image::perspective_transform(images, start->second, end->second,
                                                    {.interpolation = options_.interpolation,
                                                     .fill_value = options_.fill_value,
                                                     .data_format = data_format_});
  const int64_t n = apply->second.shape()[0];
  return ops::where(ops::reshape(apply->second, Shape{n, 1, 1, 1}),
                    ops::cast(warped, images.dtype()), images);
}

Config RandomPerspectiveLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["factor"] = Config::array({factor_.first, factor_.second});
  c["scale"] = options_.scale;
  c["interpolation"] = options_.interpolation;
  c["fill_value"] = options_.fill_value;
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> RandomPerspectiveLayer::from_config(const Config& c) {
  RandomPerspectiveOptions o;
  read_base_config(c, o);
  if (c.contains("factor")) o.factor = Factor::from_config(c["factor"], "RandomPerspective factor");
  o.scale = c.value("scale", o.scale);
  o.interpolation = c.value("interpolation", o.interpolation);
  o.fill_value = c.value("fill_value", 0.0);
  o.seed = pd::seed_from_config(c);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<RandomPerspectiveLayer>(o);
}

LayerPtr<RandomPerspectiveLayer> RandomPerspective(RandomPerspectiveOptions options) {
  return make_layer<RandomPerspectiveLayer>(std::move(options));
}

}  // namespace keras::layers
