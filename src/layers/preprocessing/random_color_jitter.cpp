#include "keras/layers/preprocessing/random_color_jitter.h"

#include "keras/layers/preprocessing/random_brightness.h"
#include "keras/layers/preprocessing/random_contrast.h"
#include "keras/layers/preprocessing/random_hue.h"
#include "keras/layers/preprocessing/random_saturation.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/preprocessing_utils.h"
#include "layers/preprocessing/value_range.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

RandomColorJitterLayer::RandomColorJitterLayer(RandomColorJitterOptions options)
    : RandomImageLayer(base_options(options), "random_color_jitter", options.data_format,
                       options.seed),
      options_(std::move(options)) {
  const auto& o = options_;
  if (o.brightness_factor) {
    brightness_ = std::make_shared<RandomBrightnessLayer>(
        *o.brightness_factor,
        RandomBrightnessOptions{
            .value_range = o.value_range, .seed = o.seed, .data_format = data_format_});
    track_layer("random_brightness", brightness_);
  }
  if (o.contrast_factor) {
    contrast_ = std::make_shared<RandomContrastLayer>(
        *o.contrast_factor,
        RandomContrastOptions{
            .value_range = o.value_range, .seed = o.seed, .data_format = data_format_});
    track_layer("random_contrast", contrast_);
  }
  if (o.saturation_factor) {
    saturation_ = std::make_shared<RandomSaturationLayer>(
        *o.saturation_factor,
        RandomSaturationOptions{
            .value_range = o.value_range, .data_format = data_format_, .seed = o.seed});
    track_layer("random_saturation", saturation_);
  }
  if (o.hue_factor) {
    hue_ = std::make_shared<RandomHueLayer>(
        *o.hue_factor,
        RandomHueOptions{
            .value_range = o.value_range, .data_format = data_format_, .seed = o.seed});
    track_layer("random_hue", hue_);
  }
}

Tensor RandomColorJitterLayer::transform_images(const Tensor& images, const Transformation&,
                                                bool training) {
  if (!training) return images;
  Tensor x = ops::cast(images, compute_dtype());
  // Each part draws from the jitter's generator (a fixed seed for data-free symbolic images).
  if (brightness_)
    x = brightness_->transform_images(
        x, brightness_->get_random_transformation(x, true, resolve_seed(x, std::nullopt)));
  if (contrast_) {
    Transformation t = contrast_->get_random_transformation(x, true, resolve_seed(x, std::nullopt));
    t["contrast_factor"] = ops::cast(t["contrast_factor"], compute_dtype());
    x = contrast_->transform_images(x, t);
  }
  if (saturation_)
    x = saturation_->transform_images(
        x, saturation_->get_random_transformation(x, true, resolve_seed(x, std::nullopt)));
  if (hue_)
    x = hue_->transform_images(
        x, hue_->get_random_transformation(x, true, resolve_seed(x, std::nullopt)));
  return ops::cast(x, compute_dtype());
}

namespace {

Config factor_config(const std::optional<Factor>& f) {
  return f ? f->to_config() : Config();
}

std::optional<Factor> factor_from(const Config& c, const char* key) {
  if (!c.contains(key) || c[key].is_null()) return std::nullopt;
  return Factor::from_config(c[key], std::string("RandomColorJitter ") + key);
}

}  // namespace

Config RandomColorJitterLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["value_range"] = pd::value_range_to_config(options_.value_range);
  c["brightness_factor"] = factor_config(options_.brightness_factor);
  c["contrast_factor"] = factor_config(options_.contrast_factor);
  c["saturation_factor"] = factor_config(options_.saturation_factor);
  c["hue_factor"] = factor_config(options_.hue_factor);
  c["seed"] = pd::seed_to_config(seed_);
  return c;
}

std::shared_ptr<Layer> RandomColorJitterLayer::from_config(const Config& c) {
  RandomColorJitterOptions o;
  read_base_config(c, o);
  if (c.contains("value_range"))
    o.value_range = pd::value_range_from_config(c["value_range"], "RandomColorJitter value_range");
  o.brightness_factor = factor_from(c, "brightness_factor");
  o.contrast_factor = factor_from(c, "contrast_factor");
  o.saturation_factor = factor_from(c, "saturation_factor");
  o.hue_factor = factor_from(c, "hue_factor");
  o.seed = pd::seed_from_config(c);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<RandomColorJitterLayer>(o);
}

LayerPtr<RandomColorJitterLayer> RandomColorJitter(RandomColorJitterOptions options) {
  return make_layer<RandomColorJitterLayer>(std::move(options));
}

}  // namespace keras::layers
