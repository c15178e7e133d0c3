#include "keras/layers/preprocessing/random_contrast.h"

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace pd = preprocessing_detail;
namespace {

Config value_range_config(const std::pair<double, double>& r) {
  return Config::array({r.first, r.second});
}

std::pair<double, double> value_range_from(const Config& c, const std::string& what) {
  check(c.is_array() && c.size() == 2, what, " must be a list of two numbers; got ", c.dump(), ".");
  return {c[0].get<double>(), c[1].get<double>()};
}

}  // namespace

RandomContrastLayer::RandomContrastLayer(Factor factor, RandomContrastOptions options)
    : RandomImageLayer(base_options(options), "random_contrast", options.data_format,
                       options.seed),
      options_(std::move(options)) {
  factor_ = base_factor(factor, 0.0, 1.0);
}

RandomContrastLayer::Transformation RandomContrastLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  check_images(images);
  if (!training) return {};
  backend::BackendScope on_input(images.backend_name());
  const Shape shape = images.ndim() == 3 ? Shape{1, 1, 1} : Shape{images.shape()[0], 1, 1, 1};
  return {{"contrast_factor",
           random::uniform(shape, 1.0 - factor_.first, 1.0 + factor_.second, compute_dtype(),
                           resolve_seed(images, seed))}};
}

Tensor RandomContrastLayer::transform_images(const Tensor& images, const Transformation& t,
                                             bool training) {
  auto it = t.find("contrast_factor");
  if (!training || it == t.end()) return images;
  const auto [h_axis, w_axis] = spatial_axes(images.ndim());
  Tensor mean = ops::mean(ops::mean(images, h_axis, true), w_axis, true);
  Tensor out = ops::add(ops::multiply(ops::subtract(images, mean), it->second), mean);
  return ops::clip(out, options_.value_range.first, options_.value_range.second);
}

Config RandomContrastLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["factor"] = Config::array({factor_.first, factor_.second});
  c["value_range"] = value_range_config(options_.value_range);
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> RandomContrastLayer::from_config(const Config& c) {
  RandomContrastOptions o;
  read_base_config(c, o);
  if (c.contains("value_range"))
    o.value_range = value_range_from(c["value_range"], "RandomContrast value_range");
  o.seed = pd::seed_from_config(c);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<RandomContrastLayer>(
      Factor::from_config(c.at("factor"), "RandomContrast factor"), o);
}

LayerPtr<RandomContrastLayer> RandomContrast(Factor factor, RandomContrastOptions options) {
  return make_layer<RandomContrastLayer>(std::move(factor), std::move(options));
}

}  // namespace keras::layers
