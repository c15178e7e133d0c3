#include "keras/layers/preprocessing/random_posterization.h"

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"
#include "layers/preprocessing/value_range.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

RandomPosterizationLayer::RandomPosterizationLayer(Factor factor,
                                                   RandomPosterizationOptions options)
    : RandomImageLayer(base_options(options), "random_posterization", options.data_format,
                       options.seed),
      options_(std::move(options)) {
  factor_ = base_factor(factor, 1.0, 8.0);
  check(factor_.first >= 1.0 && factor_.second <= 8.0, "RandomPosterization '", name(),
        "': factor should be a number of bits (or a pair) in the range [1, 8]; got factor=",
        factor.to_config().dump(), ".");
  auto& r = options_.value_range;
  if (r.first > r.second) std::swap(r.first, r.second);  // Keras sorts it
}

RandomPosterizationLayer::Transformation RandomPosterizationLayer::get_random_transformation(
    const Tensor& images, bool /*training*/, std::optional<random::Seed> seed) {
  // Keras draws whether or not it is training (and ignores the draw in inference).
  check_images(images);
  backend::BackendScope on_input(images.backend_name());
  const Shape shape{images.ndim() == 4 ? images.shape()[0] : 1};
  const auto lower = static_cast<int64_t>(factor_.first);
  const auto upper = static_cast<int64_t>(factor_.second);
  Tensor bits = lower != upper
                    ? random::randint(shape, lower, upper, DType::UInt8, resolve_seed(images, seed))
                    : ops::full(shape, lower, DType::UInt8);
  return {{"shift_factor", ops::subtract(ops::full(shape, 8, DType::UInt8), bits)}};
}

Tensor RandomPosterizationLayer::transform_images(const Tensor& images, const Transformation& t,
                                                  bool training) {
  auto it = t.find("shift_factor");
  if (!training || it == t.end()) return images;
  Tensor shift = ops::reshape(ops::cast(it->second, DType::UInt8), Shape{-1, 1, 1, 1});
  Tensor x = pd::transform_value_range(ops::cast(images, compute_dtype()), options_.value_range,
                                       {0.0, 255.0});
  x = ops::cast(x, DType::UInt8);
  x = ops::left_shift(ops::right_shift(x, shift), shift);
  return pd::transform_value_range(ops::cast(x, compute_dtype()), {0.0, 255.0},
                                   options_.value_range);
}

Config RandomPosterizationLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["factor"] = Config::array({factor_.first, factor_.second});
  c["value_range"] = pd::value_range_to_config(options_.value_range);
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> RandomPosterizationLayer::from_config(const Config& c) {
  RandomPosterizationOptions o;
  read_base_config(c, o);
  if (c.contains("value_range"))
    o.value_range =
        pd::value_range_from_config(c["value_range"], "RandomPosterization value_range");
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  o.seed = pd::seed_from_config(c);
  return std::make_shared<RandomPosterizationLayer>(
      Factor::from_config(c.at("factor"), "RandomPosterization factor"), o);
}

LayerPtr<RandomPosterizationLayer> RandomPosterization(Factor factor,
                                                       RandomPosterizationOptions options) {
  return make_layer<RandomPosterizationLayer>(std::move(factor), std::move(options));
}

}  // namespace keras::layers
