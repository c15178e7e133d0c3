#include "keras/layers/preprocessing/random_sharpness.h"

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/colour_utils.h"
#include "layers/preprocessing/preprocessing_utils.h"
#include "layers/preprocessing/value_range.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

RandomSharpnessLayer::RandomSharpnessLayer(Factor factor, RandomSharpnessOptions options)
    : RandomImageLayer(base_options(options), "random_sharpness", options.data_format,
                       options.seed),
      options_(std::move(options)) {
  factor_ = base_factor(factor, 0.0, 1.0);
  options_.value_range = pd::sorted_pair(options_.value_range);
}

RandomSharpnessLayer::Transformation RandomSharpnessLayer::get_random_transformation(
    const Tensor& images, bool /*training*/, std::optional<random::Seed> seed) {
  // Keras draws whether or not it is training (and ignores the draw in inference).
  check_images(images);
  backend::BackendScope on_input(images.backend_name());
  const int64_t batch = images.ndim() == 4 ? images.shape()[0] : 1;
  return {{"factor", random::uniform(Shape{batch}, factor_.first, factor_.second, std::nullopt,
                                     resolve_seed(images, seed))}};
}

// The base transform_images has cast the images to the compute dtype.
Tensor RandomSharpnessLayer::transform(const Tensor& images, const Transformation& t) {
  auto it = t.find("factor");
  if (it == t.end()) return images;
  const DType dtype = compute_dtype();
  // The kernel is symmetric, so swapping the channel and width axes (as Keras does) is enough
  // to filter channels_first images as channels_last.
  const bool first = data_format_ == "channels_first";
  Tensor x = first ? ops::swapaxes(images, 1, 3) : images;
  Tensor amount =
      ops::reshape(ops::cast(ops::multiply(it->second, 2.0), dtype), Shape{-1, 1, 1, 1});
  const double a = 1.0 / 13.0, b = 5.0 / 13.0;
  Tensor kernel = ops::cast(
      Tensor::from_vector(std::vector<double>{a, a, a, a, b, a, a, a, a}, Shape{3, 3, 1, 1}),
      dtype);
  kernel = ops::tile(kernel, {1, 1, x.shape()[3], 1});
  Tensor smooth =
      ops::depthwise_conv(x, kernel, {.padding = "same", .data_format = "channels_last"});
  Tensor out = ops::add(x, ops::multiply(ops::subtract(1.0, amount), ops::subtract(smooth, x)));
  out = ops::clip(out, options_.value_range.first, options_.value_range.second);
  return first ? ops::swapaxes(out, 1, 3) : out;
}

Config RandomSharpnessLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["factor"] = Config::array({factor_.first, factor_.second});
  c["value_range"] = pd::value_range_to_config(options_.value_range);
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> RandomSharpnessLayer::from_config(const Config& c) {
  RandomSharpnessOptions o;
  read_base_config(c, o);
  if (c.contains("value_range"))
    o.value_range = pd::value_range_from_config(c["value_range"], "RandomSharpness value_range");
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  o.seed = pd::seed_from_config(c);
  check(c.contains("factor"), "RandomSharpness.from_config: the config has no 'factor'.");
  return std::make_shared<RandomSharpnessLayer>(
      Factor::from_config(c["factor"], "RandomSharpness factor"), o);
}

LayerPtr<RandomSharpnessLayer> RandomSharpness(Factor factor, RandomSharpnessOptions options) {
  return make_layer<RandomSharpnessLayer>(std::move(factor), std::move(options));
}

}  // namespace keras::layers
