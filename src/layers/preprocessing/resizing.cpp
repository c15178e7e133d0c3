#include "keras/layers/preprocessing/resizing.h"

#include "keras/layers/preprocessing/center_crop.h"
#include "keras/ops/ops.h"

namespace keras::layers {

// ---- Resizing ----------------------------------------------------------------------------

ResizingLayer::ResizingLayer(int64_t height, int64_t width, ResizingOptions options)
    : BaseImagePreprocessingLayer(base_options(options), "resizing", options.data_format),
      height_(height),
      width_(width),
      options_(std::move(options)) {
  options_.data_format = data_format_;
  check(height > 0 && width > 0, "Resizing '", name(),
        "': height and width must be positive; got height=", height, ", width=", width, ".");
  const std::string& m = options_.interpolation;
  check(m == "bilinear" || m == "nearest" || m == "bicubic" || m == "lanczos3" ||
            m == "lanczos5",
        "Resizing '", name(), "': interpolation must be one of \"bilinear\", \"nearest\", ",
        "\"bicubic\", \"lanczos3\", \"lanczos5\"; got \"", m, "\".");
  check(options_.fill_mode == "constant", "Resizing '", name(),
        "': only fill_mode=\"constant\" is supported; got \"", options_.fill_mode, "\".");
  check(!(options_.crop_to_aspect_ratio && options_.pad_to_aspect_ratio), "Resizing '", name(),
        "': only one of pad_to_aspect_ratio and crop_to_aspect_ratio can be true.");
}

Tensor ResizingLayer::transform_images(const Tensor& images, const Transformation&, bool) {
  return ops::image::resize(images, {height_, width_},
                            {.interpolation = options_.interpolation,
                             .antialias = options_.antialias,
                             .crop_to_aspect_ratio = options_.crop_to_aspect_ratio,
                             .pad_to_aspect_ratio = options_.pad_to_aspect_ratio,
                             .fill_mode = options_.fill_mode,
                             .fill_value = options_.fill_value,
                             .data_format = data_format_});
}

Config ResizingLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["height"] = height_;
  c["width"] = width_;
  c["interpolation"] = options_.interpolation;
  c["crop_to_aspect_ratio"] = options_.crop_to_aspect_ratio;
  c["pad_to_aspect_ratio"] = options_.pad_to_aspect_ratio;
  c["fill_mode"] = options_.fill_mode;
  c["fill_value"] = options_.fill_value;
  c["antialias"] = options_.antialias;
  return c;
}

std::shared_ptr<Layer> ResizingLayer::from_config(const Config& c) {
  ResizingOptions o;
  read_base_config(c, o);
  o.interpolation = c.value("interpolation", o.interpolation);
  o.crop_to_aspect_ratio = c.value("crop_to_aspect_ratio", false);
  o.pad_to_aspect_ratio = c.value("pad_to_aspect_ratio", false);
  o.fill_mode = c.value("fill_mode", o.fill_mode);
  o.fill_value = c.value("fill_value", 0.0);
  o.antialias = c.value("antialias", false);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<ResizingLayer>(c.at("height").get<int64_t>(),
                                         c.at("width").get<int64_t>(), o);
}

LayerPtr<ResizingLayer> Resizing(int64_t height, int64_t width, ResizingOptions options) {
  return make_layer<ResizingLayer>(height, width, std::move(options));
}

// ---- CenterCrop --------------------------------------------------------------------------

CenterCropLayer::CenterCropLayer(int64_t height, int64_t width, CenterCropOptions options)
    : BaseImagePreprocessingLayer(base_options(options), "center_crop", options.data_format),
      height_(height),
      width_(width) {
  check(height > 0 && width > 0, "CenterCrop '", name(),
        "': height and width must be positive; got height=", height, ", width=", width, ".");
}

Tensor CenterCropLayer::transform_images(const Tensor& images, const Transformation&, bool) {
  Tensor x = ops::cast(images, compute_dtype());
  const auto [h_axis, w_axis] = spatial_axes(x.ndim());
  const int64_t h_diff = x.shape()[h_axis] - height_, w_diff = x.shape()[w_axis] - width_;
  if (h_diff >= 0 && w_diff >= 0)
    return ops::image::crop_images(x, {.top_cropping = h_diff / 2,
                                       .left_cropping = w_diff / 2,
                                       .target_height = height_,
                                       .target_width = width_,
                                       .data_format = data_format_});
  // Smaller than the target: Keras's smart_resize (crop to the aspect ratio, then bilinear).
  return ops::image::resize(x, {height_, width_},
                            {.crop_to_aspect_ratio = true, .data_format = data_format_});
}

Config CenterCropLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  c["height"] = height_;
  c["width"] = width_;
  return c;
}

std::shared_ptr<Layer> CenterCropLayer::from_config(const Config& c) {
  CenterCropOptions o;
  read_base_config(c, o);
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<CenterCropLayer>(c.at("height").get<int64_t>(),
                                           c.at("width").get<int64_t>(), o);
}

LayerPtr<CenterCropLayer> CenterCrop(int64_t height, int64_t width, CenterCropOptions options) {
  return make_layer<CenterCropLayer>(height, width, std::move(options));
}

}  // namespace keras::layers
