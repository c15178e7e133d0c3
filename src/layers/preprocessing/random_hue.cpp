#include "keras/layers/preprocessing/random_hue.h"

#include "keras/backend/registry.h"
#include "keras/ops/image.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/colour_utils.h"
#include "layers/preprocessing/preprocessing_utils.h"
#include "layers/preprocessing/value_range.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

RandomHueLayer::RandomHueLayer(Factor factor, RandomHueOptions options)
    : RandomImageLayer(base_options(options), "random_hue", options.data_format, options.seed),
      options_(std::move(options)) {
  factor_ = base_factor(factor, 0.0, 1.0);
}

RandomHueLayer::Transformation RandomHueLayer::get_random_transformation(
    const Tensor& images, bool /*training*/, std::optional<random::Seed> seed) {
  // Keras draws whether or not it is training (and ignores the draw in inference).
  check_images(images);
  backend::BackendScope on_input(images.backend_name());
  const int64_t batch = images.ndim() == 4 ? images.shape()[0] : 1;
  // One seed for both draws, as Keras passes it: a generator advances between them.
  random::Seed s = resolve_seed(images, seed);
  Tensor u = random::uniform(Shape{batch}, 0.0, 1.0, std::nullopt, s);
  Tensor sign = ops::subtract(1.0, ops::multiply(ops::cast(ops::greater(u, 0.5), u.dtype()), 2.0));
  Tensor amount = random::uniform(Shape{batch}, factor_.first, factor_.second, std::nullopt, s);
  return {{"factor", ops::multiply(ops::multiply(sign, amount), 0.5)}};
}

Tensor RandomHueLayer::transform_images(const Tensor& images, const Transformation& t,
                                        bool training) {
  auto it = t.find("factor");
  if (!training || it == t.end()) return images;
  Tensor x = ops::cast(images, compute_dtype());
  x = pd::transform_value_range(x, options_.value_range, {0.0, 1.0});
  const int64_t batch = x.shape()[0];
  Tensor shift = ops::reshape(ops::cast(it->second, x.dtype()), Shape{batch, 1, 1});
  Tensor hsv = ops::image::rgb_to_hsv(x, data_format_);
  // A hue moved past either end of [0, 1] wraps around once (the shift is at most 1/2).
  Tensor hue = ops::add(pd::image_channel(hsv, 0, data_format_), shift);
  hue = ops::where(ops::greater(hue, 1.0), ops::subtract(hue, 1.0), hue);
  hue = ops::where(ops::less(hue, 0.0), ops::add(hue, 1.0), hue);
  x = ops::image::hsv_to_rgb(pd::replace_channel(hsv, 0, hue, data_format_), data_format_);
  x = ops::clip(x, 0.0, 1.0);
  return ops::cast(pd::transform_value_range(x, {0.0, 1.0}, options_.value_range), compute_dtype());
}

Config RandomHueLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["factor"] = Config::array({factor_.first, factor_.second});
  c["value_range"] = pd::value_range_to_config(options_.value_range);
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> RandomHueLayer::from_config(const Config& c) {
  RandomHueOptions o;
  read_base_config(c, o);
  if (c.contains("value_range"))
    o.value_range = pd::value_range_from_config(c["value_range"], "RandomHue value_range");
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  o.seed = pd::seed_from_config(c);
  check(c.contains("factor"), "RandomHue.from_config: the config has no 'factor'.");
  return std::make_shared<RandomHueLayer>(Factor::from_config(c["factor"], "RandomHue factor"), o);
}

LayerPtr<RandomHueLayer> RandomHue(Factor factor, RandomHueOptions options) {
  return make_layer<RandomHueLayer>(std::move(factor), std::move(options));
}

}  // namespace keras::layers
