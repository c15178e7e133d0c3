#include "keras/layers/preprocessing/equalization.h"

#include "keras/backend/backend.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/colour_utils.h"
#include "layers/preprocessing/value_range.h"

namespace keras::layers {
namespace pd = preprocessing_detail;

EqualizationLayer::EqualizationLayer(EqualizationOptions options)
    : BaseImagePreprocessingLayer(base_options(options), "equalization", options.data_format),
      options_(std::move(options)) {
  options_.value_range = pd::sorted_pair(options_.value_range);
  check(options_.bins >= 1, "Equalization '", name(),
        "': bins must be a positive integer; got bins=", options_.bins, ".");
  check(options_.value_range.first < options_.value_range.second, "Equalization '", name(),
        "': value_range must be two different numbers; got [", options_.value_range.first, ", ",
        options_.value_range.second, "].");
}

// `channel` (batch, height, width) on the 0-255 scale equalized, as Keras's
// _equalize_channel after its scaling.
Tensor EqualizationLayer::equalize_channel(const Tensor& channel) const {
  const int64_t bins = options_.bins;
  Tensor values = ops::cast(channel, DType::Float32);
  Tensor scaled = ops::divide(ops::multiply(values, static_cast<double>(bins - 1)), 255.0);
  Tensor index = ops::clip(ops::cast(scaled, DType::Int32), 0, bins - 1);
  Tensor hist = ops::bincount(ops::reshape(index, Shape{-1}), Tensor(), bins);

  Tensor cdf = ops::cast(ops::cumsum(hist), DType::Float64);
  Tensor cdf_min = ops::take(cdf, ops::argmax(ops::cast(ops::greater(cdf, 0.0), DType::Int32)));
  Tensor denominator = ops::subtract(ops::take(cdf, Tensor(bins - 1)), cdf_min);
  denominator = ops::where(ops::equal(denominator, 0.0), 1.0, denominator);
  Tensor lookup = ops::divide(ops::multiply(ops::subtract(cdf, cdf_min), 255.0), denominator);
  lookup = ops::clip(ops::round(lookup), 0.0, 255.0);
  Tensor position = ops::multiply(ops::divide(channel, 255.0), static_cast<double>(bins - 1));
  Tensor equalized = ops::take(
      lookup, ops::cast(ops::clip(position, 0.0, static_cast<double>(bins - 1)), DType::Int32));
  // A channel with one value (or none) has nothing to spread.
  Tensor flat = ops::less_equal(ops::count_nonzero(hist), 1);
  return ops::where(flat, channel, equalized);
}

// The base transform_images has cast the images to the compute dtype.
Tensor EqualizationLayer::transform(const Tensor& images, const Transformation&) {
  // The histograms need the pixel values: data-free symbolic images keep their shape.
  if (images.backend().is_symbolic()) return images;
  const auto [lo, hi] = options_.value_range;
  // Keras's _scale_values to [0, 255] and back (applied even for (0, 255), where it is exact).
  const double scale = 255.0 / (hi - lo), offset = -lo * scale;
  const double back = (hi - lo) / 255.0;
  const int axis = data_format_ == "channels_last" ? 3 : 1;
  const int64_t channels = images.shape()[axis];
  std::vector<Tensor> out;
  for (int64_t c = 0; c < channels; ++c) {
    Tensor channel = ops::add(ops::multiply(ops::take(images, Tensor(c), axis), scale), offset);
    out.push_back(ops::add(ops::multiply(equalize_channel(channel), back), lo));
  }
  return ops::cast(ops::stack(out, axis), compute_dtype());
}

Config EqualizationLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["bins"] = options_.bins;
  c["value_range"] = pd::value_range_to_config(options_.value_range);
  return c;
}

std::shared_ptr<Layer> EqualizationLayer::from_config(const Config& c) {
  EqualizationOptions o;
  read_base_config(c, o);
  if (c.contains("value_range"))
    o.value_range = pd::value_range_from_config(c["value_range"], "Equalization value_range");
  if (c.contains("bins")) {
    check(c["bins"].is_number_integer(), "Equalization bins must be an integer; got ",
          c["bins"].dump(), ".");
    o.bins = c["bins"].get<int64_t>();
  }
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<EqualizationLayer>(o);
}

LayerPtr<EqualizationLayer> Equalization(EqualizationOptions options) {
  return make_layer<EqualizationLayer>(std::move(options));
}

}  // namespace keras::layers
