#include "keras/layers/preprocessing/clahe.h"

#include "keras/backend/backend.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/value_range.h"

namespace keras::layers {
namespace pd = preprocessing_detail;
namespace {

// The tile coordinate of each pixel along one axis: the tiles `lower` and `lower + 1` (of the
// edge-padded grid of n + 2 tiles) and the weight of the second, as Keras computes them in
// float32.
struct AxisBlend {
  Tensor lower, upper, weight;
};

AxisBlend axis_blend(int64_t padded, int64_t tile, int64_t n) {
  Tensor pos = ops::cast(ops::arange(int64_t{0}, padded), DType::Float32);
  pos = ops::add(
      ops::divide(ops::subtract(pos, static_cast<double>(tile) / 2.0), static_cast<double>(tile)),
      1.0);
  Tensor lower = ops::floor(pos);
  Tensor upper = ops::add(lower, 1.0);
  Tensor weight = ops::subtract(pos, lower);
  auto index = [&](const Tensor& t) {
    return ops::cast(ops::clip(t, 0.0, static_cast<double>(n + 1)), DType::Int64);
  };
  return {index(lower), index(upper), weight};
}

}  // namespace

ContrastLimitedAdaptiveHistogramEqualizationLayer::
    ContrastLimitedAdaptiveHistogramEqualizationLayer(
        ContrastLimitedAdaptiveHistogramEqualizationOptions options)
    : BaseImagePreprocessingLayer(base_options(options),
                                  "contrast_limited_adaptive_histogram_equalization",
                                  options.data_format),
      options_(std::move(options)) {
  const auto& g = options_.tile_grid_size;
  check(g[0] > 0 && g[1] > 0, "ContrastLimitedAdaptiveHistogramEqualization '", name(),
        "': tile_grid_size must be two positive integers; got (", g[0], ", ", g[1], ").");
  check(options_.value_range.first != options_.value_range.second,
        "ContrastLimitedAdaptiveHistogramEqualization '", name(),
        "': value_range must be two different numbers; got [", options_.value_range.first, ", ",
        options_.value_range.second, "].");
}

Tensor ContrastLimitedAdaptiveHistogramEqualizationLayer::clahe(const Tensor& images) const {
  const Shape& s = images.shape();
  const int64_t batch = s[0], height = s[1], width = s[2], channels = s[3];
  const int64_t grid_h = options_.tile_grid_size[0], grid_w = options_.tile_grid_size[1];
  const int64_t tile_h = (height + grid_h - 1) / grid_h, tile_w = (width + grid_w - 1) / grid_w;
  const int64_t pad_h = tile_h * grid_h - height, pad_w = tile_w * grid_w - width;
  Tensor padded = images;
  if (pad_h != 0 || pad_w != 0)
    padded = ops::pad(images, {{0, 0}, {0, pad_h}, {0, pad_w}, {0, 0}}, "symmetric");

  // One histogram per (image, tile row, tile column, channel): bincount of each row.
  Tensor tiles = ops::reshape(padded, Shape{batch, grid_h, tile_h, grid_w, tile_w, channels});
  tiles = ops::transpose(tiles, {0, 1, 3, 5, 2, 4});
  tiles = ops::reshape(tiles, Shape{batch * grid_h * grid_w * channels, tile_h * tile_w});
  Tensor levels = ops::clip(ops::cast(tiles, DType::Int32), 0, 255);
  Tensor hists = ops::cast(ops::bincount(levels, Tensor(), 256), DType::Float32);
  hists = ops::reshape(hists, Shape{batch, grid_h, grid_w, channels, 256});

  const double pixels = static_cast<double>(tile_h * tile_w);
  if (options_.clip_limit > 0) {
    // Keras casts the limit to the histograms' float32.
    const double limit = static_cast<float>(options_.clip_limit * pixels / 256.0);
    Tensor clipped = ops::clip(hists, 0.0, limit);
    Tensor excess = ops::sum(ops::subtract(hists, clipped), {-1}, true);
    hists = ops::add(clipped, ops::divide(excess, 256.0));
  }
  Tensor cdf = ops::cumsum(hists, -1);
  Tensor cdf_min = ops::min(cdf, {-1}, true);
  Tensor numerator = ops::multiply(ops::subtract(cdf, cdf_min), 255.0);
  Tensor denominator = ops::subtract(ops::cast(Tensor(pixels), DType::Float32), cdf_min);
  denominator = ops::where(ops::equal(denominator, 0.0), ops::ones_like(denominator), denominator);
  Tensor cdf_norm = ops::clip(ops::divide(numerator, denominator), 0.0, 255.0);
  // The edge tiles repeated around the grid, so that border pixels blend with themselves.
  Tensor table = ops::pad(cdf_norm, {{0, 0}, {1, 1}, {1, 1}, {0, 0}, {0, 0}}, "edge");

  const AxisBlend y = axis_blend(tile_h * grid_h, tile_h, grid_h);
  const AxisBlend x = axis_blend(tile_w * grid_w, tile_w, grid_w);
  const int64_t stride_c = 256, stride_x = stride_c * channels, stride_y = stride_x * (grid_w + 2),
                stride_b = stride_y * (grid_h + 2);
  Tensor flat = ops::reshape(table, Shape{-1});
  Tensor level = ops::cast(ops::clip(padded, 0, 255), DType::Int64);
  Tensor b_index =
      ops::reshape(ops::multiply(ops::arange(int64_t{0}, batch), stride_b), Shape{batch, 1, 1, 1});
  Tensor c_index = ops::reshape(ops::multiply(ops::arange(int64_t{0}, channels), stride_c),
                                Shape{1, 1, 1, channels});
  Tensor base = ops::add(ops::add(b_index, c_index), level);
  auto rows = [&](const Tensor& t) {
    return ops::reshape(ops::multiply(t, stride_y), Shape{1, -1, 1, 1});
  };
  auto cols = [&](const Tensor& t) {
    return ops::reshape(ops::multiply(t, stride_x), Shape{1, 1, -1, 1});
  };
  auto at = [&](const Tensor& r, const Tensor& c) {
    return ops::take(flat, ops::add(ops::add(base, rows(r)), cols(c)));
  };
  Tensor wy = ops::reshape(y.weight, Shape{1, -1, 1, 1});
  Tensor wx = ops::reshape(x.weight, Shape{1, 1, -1, 1});
  Tensor top = ops::add(ops::multiply(at(y.lower, x.lower), ops::subtract(1.0, wx)),
                        ops::multiply(at(y.lower, x.upper), wx));
  Tensor bottom = ops::add(ops::multiply(at(y.upper, x.lower), ops::subtract(1.0, wx)),
                           ops::multiply(at(y.upper, x.upper), wx));
  Tensor result = ops::add(ops::multiply(top, ops::subtract(1.0, wy)), ops::multiply(bottom, wy));
  return ops::slice(result, {0, 0, 0, 0}, Shape{batch, height, width, channels});
}

Tensor ContrastLimitedAdaptiveHistogramEqualizationLayer::transform_images(const Tensor& images,
                                                                           const Transformation&,
                                                                           bool) {
  check_images(images);
  // The histograms need the pixel values: data-free symbolic images keep their shape.
  if (images.backend().is_symbolic()) return images;
  const bool unbatched = images.ndim() == 3;
  Tensor x = unbatched ? ops::expand_dims(images, 0) : images;
  const bool first = data_format_ == "channels_first";
  if (first) x = ops::transpose(x, {0, 2, 3, 1});
  const DType original = x.dtype();
  const std::pair<double, double> byte_range{0.0, 255.0};
  // Keras maps (in float32) only when the ranges differ, so (0, 255) images reach the
  // histograms in their own dtype.
  if (options_.value_range != byte_range)
    x = pd::transform_value_range(ops::cast(x, DType::Float32), options_.value_range, byte_range);
  x = clahe(x);
  x = pd::transform_value_range(x, byte_range, options_.value_range);
  x = ops::cast(x, original);
  if (first) x = ops::transpose(x, {0, 3, 1, 2});
  return unbatched ? ops::squeeze(x, 0) : x;
}

Config ContrastLimitedAdaptiveHistogramEqualizationLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["value_range"] = pd::value_range_to_config(options_.value_range);
  c["clip_limit"] = options_.clip_limit;
  c["tile_grid_size"] = Config::array({options_.tile_grid_size[0], options_.tile_grid_size[1]});
  return c;
}

std::shared_ptr<Layer> ContrastLimitedAdaptiveHistogramEqualizationLayer::from_config(
    const Config& c) {
  ContrastLimitedAdaptiveHistogramEqualizationOptions o;
  read_base_config(c, o);
  const std::string what = "ContrastLimitedAdaptiveHistogramEqualization";
  if (c.contains("value_range"))
    o.value_range = pd::value_range_from_config(c["value_range"], what + " value_range");
  if (c.contains("clip_limit")) {
    check(c["clip_limit"].is_number(), what, " clip_limit must be a number; got ",
          c["clip_limit"].dump(), ".");
    o.clip_limit = c["clip_limit"].get<double>();
  }
  if (c.contains("tile_grid_size")) {
    const Config& g = c["tile_grid_size"];
    check(g.is_array() && g.size() == 2 && g[0].is_number_integer() && g[1].is_number_integer(),
          what, " tile_grid_size must be a list of two integers; got ", g.dump(), ".");
    o.tile_grid_size = {g[0].get<int64_t>(), g[1].get<int64_t>()};
  }
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<ContrastLimitedAdaptiveHistogramEqualizationLayer>(o);
}

LayerPtr<ContrastLimitedAdaptiveHistogramEqualizationLayer>
ContrastLimitedAdaptiveHistogramEqualization(
    ContrastLimitedAdaptiveHistogramEqualizationOptions options) {
  return make_layer<ContrastLimitedAdaptiveHistogramEqualizationLayer>(std::move(options));
}

}  // namespace keras::layers
