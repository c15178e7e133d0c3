#include "keras/layers/preprocessing/auto_contrast.h"

#include "keras/ops/ops.h"
#include "layers/preprocessing/value_range.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

AutoContrastLayer::AutoContrastLayer(AutoContrastOptions options)
    : BaseImagePreprocessingLayer(base_options(options), "auto_contrast", options.data_format),
      options_(std::move(options)) {
  auto& r = options_.value_range;
  if (r.first > r.second) std::swap(r.first, r.second);  // Keras sorts it
}

Tensor AutoContrastLayer::transform_images(const Tensor& images, const Transformation&, bool) {
  Tensor original = ops::cast(images, compute_dtype());
  Tensor x = pd::transform_value_range(original, options_.value_range, {0.0, 255.0});
  Tensor low = ops::min(x, {1, 2}, true);
  Tensor high = ops::max(x, {1, 2}, true);
  Tensor scale = ops::divide(255.0, ops::subtract(high, low));
  Tensor offset = ops::negative(ops::multiply(low, scale));
  Tensor out = ops::clip(ops::add(ops::multiply(x, scale), offset), 0.0, 255.0);
  out = pd::transform_value_range(out, {0.0, 255.0}, options_.value_range);
  // A constant image gives 0 / 0: keep it as it was.
  return ops::where(ops::isnan(out), original, out);
}

Config AutoContrastLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["value_range"] = pd::value_range_to_config(options_.value_range);
  return c;
}

std::shared_ptr<Layer> AutoContrastLayer::from_config(const Config& c) {
  AutoContrastOptions o;
  read_base_config(c, o);
  if (c.contains("value_range"))
    o.value_range = pd::value_range_from_config(c["value_range"], "AutoContrast value_range");
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<AutoContrastLayer>(o);
}

LayerPtr<AutoContrastLayer> AutoContrast(AutoContrastOptions options) {
  return make_layer<AutoContrastLayer>(std::move(options));
}

}  // namespace keras::layers
