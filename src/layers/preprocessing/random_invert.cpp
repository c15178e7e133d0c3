#include "keras/layers/preprocessing/random_invert.h"

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"
#include "layers/preprocessing/value_range.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

RandomInvertLayer::RandomInvertLayer(Factor factor, RandomInvertOptions options)
    : RandomImageLayer(base_options(options), "random_invert", options.data_format, options.seed),
      options_(std::move(options)) {
  factor_ = base_factor(factor, 0.0, 1.0);
}

RandomInvertLayer::Transformation RandomInvertLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  check_images(images);
  if (!training) return {};
  backend::BackendScope on_input(images.backend_name());
  const Shape shape{images.ndim() == 4 ? images.shape()[0] : 1};
  random::Seed s = resolve_seed(images, seed);
  Tensor probability = random::uniform(shape, factor_.first, factor_.second, std::nullopt, s);
  Tensor threshold = random::uniform(shape, 0.0, 1.0, std::nullopt, s);
  return {{"apply_inversion", ops::less(threshold, probability)}};
}

Tensor RandomInvertLayer::transform_images(const Tensor& images, const Transformation& t,
                                           bool training) {
  auto it = t.find("apply_inversion");
  if (!training || it == t.end()) return images;
  Tensor x = ops::cast(images, compute_dtype());
  Tensor apply = ops::reshape(it->second, Shape{-1, 1, 1, 1});
  return ops::where(apply, ops::subtract(options_.value_range.second, x), x);
}

Config RandomInvertLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["factor"] = Config::array({factor_.first, factor_.second});
  c["value_range"] = pd::value_range_to_config(options_.value_range);
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> RandomInvertLayer::from_config(const Config& c) {
  RandomInvertOptions o;
  read_base_config(c, o);
  if (c.contains("value_range"))
    o.value_range = pd::value_range_from_config(c["value_range"], "RandomInvert value_range");
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  o.seed = pd::seed_from_config(c);
  Factor factor =
      c.contains("factor") ? Factor::from_config(c["factor"], "RandomInvert factor") : Factor(1.0);
  return std::make_shared<RandomInvertLayer>(factor, o);
}

LayerPtr<RandomInvertLayer> RandomInvert(Factor factor, RandomInvertOptions options) {
  return make_layer<RandomInvertLayer>(std::move(factor), std::move(options));
}

}  // namespace keras::layers
