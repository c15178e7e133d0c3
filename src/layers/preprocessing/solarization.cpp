#include "keras/layers/preprocessing/solarization.h"

#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"
#include "layers/preprocessing/value_range.h"

namespace keras::layers {
namespace pd = preprocessing_detail;
namespace {

// Keras's Solarization._set_factor: each number in [0, 1]; a number f is (0, f), a pair is
// sorted.
std::pair<double, double> solarization_factor(const Factor& f, const std::string& what) {
  auto in_range = [&](double v) {
    check(v >= 0.0 && v <= 1.0, "Solarization: ", what,
          " should be a number (or a list of two numbers) in the range [0, 1]; got ", what, "=",
          f.to_config().dump(), ".");
  };
  if (!f.is_pair()) {
    in_range(f.value());
    return {0.0, f.value()};
  }
  in_range(f.first());
  in_range(f.second());
  return {std::min(f.first(), f.second()), std::max(f.first(), f.second())};
}

Config pair_config(const std::pair<double, double>& p) {
  return Config::array({p.first, p.second});
}

}  // namespace

SolarizationLayer::SolarizationLayer(SolarizationOptions options)
    : RandomImageLayer(base_options(options), "solarization", options.data_format, options.seed),
      options_(std::move(options)) {
  addition_factor_ = solarization_factor(options_.addition_factor, "addition_factor");
  threshold_factor_ = solarization_factor(options_.threshold_factor, "threshold_factor");
  auto& r = options_.value_range;
  if (r.first > r.second) std::swap(r.first, r.second);  // Keras sorts it
}

SolarizationLayer::Transformation SolarizationLayer::get_random_transformation(
    const Tensor& images, bool training, std::optional<random::Seed> seed) {
  check_images(images);
  if (!training) return {};
  backend::BackendScope on_input(images.backend_name());
  const Shape shape = images.ndim() == 3 ? Shape{1, 1, 1} : Shape{images.shape()[0], 1, 1, 1};
  // One seed for both draws, as Keras passes it: a generator advances between them.
  random::Seed s = resolve_seed(images, seed);
  Tensor additions = random::uniform(shape, addition_factor_.first, addition_factor_.second * 255,
                                     compute_dtype(), s);
  Tensor thresholds = random::uniform(shape, threshold_factor_.first,
                                      threshold_factor_.second * 255, compute_dtype(), s);
  return {{"additions", additions}, {"thresholds", thresholds}};
}

Tensor SolarizationLayer::transform(const Tensor& images, const Transformation& t) {
  auto additions = t.find("additions"), thresholds = t.find("thresholds");
  if (additions == t.end() || thresholds == t.end()) return images;
  Tensor x = pd::transform_value_range(images, options_.value_range, {0.0, 255.0});
  x = ops::clip(ops::add(x, additions->second), 0.0, 255.0);
  x = ops::where(ops::less(x, thresholds->second), x, ops::subtract(255.0, x));
  return pd::transform_value_range(x, {0.0, 255.0}, options_.value_range);
}

Config SolarizationLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["value_range"] = pd::value_range_to_config(options_.value_range);
  c["addition_factor"] = pair_config(addition_factor_);
  c["threshold_factor"] = pair_config(threshold_factor_);
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> SolarizationLayer::from_config(const Config& c) {
  SolarizationOptions o;
  read_base_config(c, o);
  if (c.contains("addition_factor"))
    o.addition_factor = Factor::from_config(c["addition_factor"], "Solarization addition_factor");
  if (c.contains("threshold_factor"))
    o.threshold_factor =
        Factor::from_config(c["threshold_factor"], "Solarization threshold_factor");
  if (c.contains("value_range"))
    o.value_range = pd::value_range_from_config(c["value_range"], "Solarization value_range");
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  o.seed = pd::seed_from_config(c);
  return std::make_shared<SolarizationLayer>(o);
}

LayerPtr<SolarizationLayer> Solarization(SolarizationOptions options) {
  return make_layer<SolarizationLayer>(std::move(options));
}

}  // namespace keras::layers
