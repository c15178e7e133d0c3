#include "keras/layers/preprocessing/random_brightness.h"

#include <cmath>

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

RandomBrightnessLayer::RandomBrightnessLayer(Factor factor, RandomBrightnessOptions options)
    : RandomImageLayer(base_options(options), "random_brightness", options.data_format,
                       options.seed),
      options_(std::move(options)) {
  factor_ = base_factor(factor, -1.0, 1.0);
  auto& r = options_.value_range;
  if (r.first > r.second) std::swap(r.first, r.second);  // Keras sorts value_range
}

RandomBrightnessLayer::Transformation RandomBrightnessLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  check_images(images);
  if (!training) return {};
  backend::BackendScope on_input(images.backend_name());
  const Shape shape = images.ndim() == 3 ? Shape{1, 1, 1} : Shape{images.shape()[0], 1, 1, 1};
  Tensor delta = random::uniform(shape, factor_.first, factor_.second, std::nullopt,
                                 resolve_seed(images, seed));
  const double width = options_.value_range.second - options_.value_range.first;
  return {{"rgb_delta", ops::multiply(delta, Tensor(width))}};
}

Tensor RandomBrightnessLayer::transform_images(const Tensor& images, const Transformation& t,
                                               bool training) {
  auto it = t.find("rgb_delta");
  if (!training || it == t.end()) return images;
  Tensor out = ops::add(images, ops::cast(it->second, images.dtype()));
  const auto [lo, hi] = options_.value_range;
  if (is_integer(images.dtype()))
    return ops::clip(out, static_cast<int64_t>(std::ceil(lo)), static_cast<int64_t>(std::floor(hi)));
  return ops::clip(out, lo, hi);
}

Config RandomBrightnessLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["factor"] = Config::array({factor_.first, factor_.second});
  c["value_range"] = Config::array({options_.value_range.first, options_.value_range.second});
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> RandomBrightnessLayer::from_config(const Config& c) {
  RandomBrightnessOptions o;
  read_base_config(c, o);
  if (c.contains("value_range")) {
    const Config& r = c["value_range"];
    check(r.is_array() && r.size() == 2, "RandomBrightness: value_range must be a list of two ",
          "numbers; got ", r.dump(), ".");
    o.value_range = {r[0].get<double>(), r[1].get<double>()};
  }
  o.seed = pd::seed_from_config(c);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<RandomBrightnessLayer>(
      Factor::from_config(c.at("factor"), "RandomBrightness factor"), o);
}

LayerPtr<RandomBrightnessLayer> RandomBrightness(Factor factor, RandomBrightnessOptions options) {
  return make_layer<RandomBrightnessLayer>(std::move(factor), std::move(options));
}

}  // namespace keras::layers
