#include "keras/layers/preprocessing/random_color_degeneration.h"

#include "keras/backend/registry.h"
#include "keras/ops/image.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/colour_utils.h"
#include "layers/preprocessing/preprocessing_utils.h"
#include "layers/preprocessing/value_range.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

RandomColorDegenerationLayer::RandomColorDegenerationLayer(Factor factor,
                                                           RandomColorDegenerationOptions options)
    : RandomImageLayer(base_options(options), "random_color_degeneration", options.data_format,
                       options.seed),
      options_(std::move(options)) {
  factor_ = base_factor(factor, -1.0, 1.0);
  options_.value_range = pd::sorted_pair(options_.value_range);
}

RandomColorDegenerationLayer::Transformation
RandomColorDegenerationLayer::get_random_transformation(const Tensor& images, bool /*training*/,
                                                        std::optional<random::Seed> seed) {
  // Keras draws whether or not it is training (and ignores the draw in inference).
  check_images(images);
  backend::BackendScope on_input(images.backend_name());
  const int64_t batch = images.ndim() == 4 ? images.shape()[0] : 1;
  return {{"factor", random::uniform(Shape{batch, 1, 1, 1}, factor_.first, factor_.second,
                                     std::nullopt, resolve_seed(images, seed))}};
}

// The base transform_images has cast the images to the compute dtype.
Tensor RandomColorDegenerationLayer::transform(const Tensor& images, const Transformation& t) {
  auto it = t.find("factor");
  if (it == t.end()) return images;
  Tensor amount = ops::cast(it->second, compute_dtype());
  // The one gray channel broadcasts over the three.
  Tensor gray = ops::image::rgb_to_grayscale(images, data_format_);
  Tensor out = ops::add(images, ops::multiply(amount, ops::subtract(gray, images)));
  return ops::cast(ops::clip(out, options_.value_range.first, options_.value_range.second),
                   compute_dtype());
}

Config RandomColorDegenerationLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["factor"] = Config::array({factor_.first, factor_.second});
  c["value_range"] = pd::value_range_to_config(options_.value_range);
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> RandomColorDegenerationLayer::from_config(const Config& c) {
  RandomColorDegenerationOptions o;
  read_base_config(c, o);
  if (c.contains("value_range"))
    o.value_range =
        pd::value_range_from_config(c["value_range"], "RandomColorDegeneration value_range");
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  o.seed = pd::seed_from_config(c);
  check(c.contains("factor"), "RandomColorDegeneration.from_config: the config has no 'factor'.");
  return std::make_shared<RandomColorDegenerationLayer>(
      Factor::from_config(c["factor"], "RandomColorDegeneration factor"), o);
}

LayerPtr<RandomColorDegenerationLayer> RandomColorDegeneration(
    Factor factor, RandomColorDegenerationOptions options) {
  return make_layer<RandomColorDegenerationLayer>(std::move(factor), std::move(options));
}

}  // namespace keras::layers
