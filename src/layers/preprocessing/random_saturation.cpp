#include "keras/layers/preprocessing/random_saturation.h"

#include "keras/backend/registry.h"
#include "keras/ops/image.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/colour_utils.h"
#include "layers/preprocessing/preprocessing_utils.h"
#include "layers/preprocessing/value_range.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

RandomSaturationLayer::RandomSaturationLayer(Factor factor, RandomSaturationOptions options)
    : RandomImageLayer(base_options(options), "random_saturation", options.data_format,
                       options.seed),
      options_(std::move(options)) {
  factor_ = base_factor(factor, -1.0, 1.0);
  options_.value_range = pd::sorted_pair(options_.value_range);
}

RandomSaturationLayer::Transformation RandomSaturationLayer::get_random_transformation(
    const Tensor& images, bool /*training*/, std::optional<random::Seed> seed) {
  // Keras draws whether or not it is training (and ignores the draw in inference).
  check_images(images);
  backend::BackendScope on_input(images.backend_name());
  const int64_t batch = images.ndim() == 4 ? images.shape()[0] : 1;
  Tensor u = random::uniform(Shape{batch}, factor_.first, factor_.second, std::nullopt,
                             resolve_seed(images, seed));
  // Keras's epsilon() is 1e-7: u = 1 gives a multiplier of 1e7.
  return {{"factor", ops::divide(u, ops::add(ops::subtract(1.0, u), 1e-7))}};
}

Tensor RandomSaturationLayer::transform_images(const Tensor& images, const Transformation& t,
                                               bool training) {
  auto it = t.find("factor");
  if (!training || it == t.end()) return images;
  // Keras converts the images as they come (its call has cast floats to the compute dtype
  // already); integers, which its rgb_to_hsv refuses, are cast here.
  Tensor x = is_floating(images.dtype()) ? images : ops::cast(images, compute_dtype());
  const int64_t batch = x.shape()[0];
  Tensor scale = ops::reshape(ops::cast(it->second, compute_dtype()), Shape{batch, 1, 1});
  Tensor hsv = ops::image::rgb_to_hsv(x, data_format_);
  Tensor s = ops::multiply(pd::image_channel(hsv, 1, data_format_), scale);
  s = ops::clip(s, options_.value_range.first, options_.value_range.second);
  return ops::image::hsv_to_rgb(pd::replace_channel(hsv, 1, s, data_format_), data_format_);
}

Config RandomSaturationLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["factor"] = Config::array({factor_.first, factor_.second});
  c["value_range"] = pd::value_range_to_config(options_.value_range);
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> RandomSaturationLayer::from_config(const Config& c) {
  RandomSaturationOptions o;
  read_base_config(c, o);
  if (c.contains("value_range"))
    o.value_range = pd::value_range_from_config(c["value_range"], "RandomSaturation value_range");
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  o.seed = pd::seed_from_config(c);
  check(c.contains("factor"), "RandomSaturation.from_config: the config has no 'factor'.");
  return std::make_shared<RandomSaturationLayer>(
      Factor::from_config(c["factor"], "RandomSaturation factor"), o);
}

LayerPtr<RandomSaturationLayer> RandomSaturation(Factor factor, RandomSaturationOptions options) {
  return make_layer<RandomSaturationLayer>(std::move(factor), std::move(options));
}

}  // namespace keras::layers
