// The op classes of keras.src.ops.image that keras-cpp implements (keras/ops/operation.h).

#include "keras/ops/image.h"
#include "ops/operations/operation_tables.h"

namespace keras::ops::detail {
namespace {

constexpr const char* kModule = "keras.src.ops.image";

OperationSpec op(std::string name, std::function<Tensor(const OperationCall&)> f) {
  return one_output(std::move(name), kModule, std::move(f));
}

// Keras's None is config::image_data_format(), which the options spell "".
std::string data_format(const OperationCall& c) {
  return c.string("data_format", "");
}

// PadImages' and CropImages' config (both options structs follow Keras's constructor order).
template <typename Options>
Options window(const OperationCall& c, const std::string& kind) {
  return {c.optional_integer("top_" + kind),
          c.optional_integer("left_" + kind),
          c.optional_integer("bottom_" + kind),
          c.optional_integer("right_" + kind),
          c.optional_integer("target_height"),
          c.optional_integer("target_width"),
          data_format(c)};
}

// An "int or tuple" argument (ExtractPatches' size, strides, dilation_rate).
ops::IntOrTuple int_or_tuple(const OperationCall& c, const std::string& name) {
  Config v = c.attr(name);
  if (v.is_number()) return ops::IntOrTuple(v.get<int64_t>());
  return ops::IntOrTuple(c.integers(name));
}

// A pair of numbers (GaussianBlur's sigma), `fallback` when absent.
std::array<double, 2> number_pair(const OperationCall& c, const std::string& name,
                                  std::array<double, 2> fallback) {
  Config v = c.attr(name);
  if (v.is_null()) return fallback;
  if (v.is_number()) return {v.get<double>(), v.get<double>()};
  if (!v.is_array() || v.size() != 2) c.fail(name + " must be a pair of numbers.");
  return {v[0].get<double>(), v[1].get<double>()};
}

Tensor extract_patches(const OperationCall& c) {
  image::ExtractPatchesOptions o{.padding = c.string("padding", "valid"),
                                 .data_format = data_format(c)};
  if (!c.attr("strides").is_null()) o.strides = int_or_tuple(c, "strides");
  if (!c.attr("dilation_rate").is_null()) o.dilation_rate = int_or_tuple(c, "dilation_rate");
  return image::extract_patches(c.tensor(0), int_or_tuple(c, "size"), o);
}

Tensor elastic_transform(const OperationCall& c) {
  image::ElasticTransformOptions o{.alpha = c.number("alpha", 20.0),
                                   .sigma = c.number("sigma", 5.0),
                                   .interpolation = c.string("interpolation", "bilinear"),
                                   .fill_mode = c.string("fill_mode", "reflect"),
                                   .fill_value = c.number("fill_value", 0.0),
                                   .data_format = data_format(c)};
  if (auto seed = c.optional_integer("seed")) o.seed = random::Seed(static_cast<int>(*seed));
  return image::elastic_transform(c.tensor(0), o);
}

Tensor scale_and_translate(const OperationCall& c) {
  std::vector<int64_t> shape = c.integers("output_shape", 1);
  std::vector<int64_t> dims = c.integers("spatial_dims");
  return image::scale_and_translate(c.tensor(0), Shape(shape.begin(), shape.end()), c.tensor(2),
                                    c.tensor(3), std::vector<int>(dims.begin(), dims.end()),
                                    c.string("method", ""), c.flag("antialias", true));
}

Tensor ssim(const OperationCall& c) {
  return image::ssim(c.tensor(0), c.tensor(1),
                     {c.number("max_val", 1.0), c.integer("filter_size", 11),
                      c.number("filter_sigma", 1.5), c.number("k1", 0.01), c.number("k2", 0.03),
                      data_format(c)});
}

}  // namespace

void add_image_operations(OperationTable& table) {
  table.insert(
      table.end(),
      {
          op("Resize",
             [](const OperationCall& c) {
               std::vector<int64_t> size = c.integers("size");
               if (size.size() != 2) c.fail("size must be (height, width).");
               return image::resize(
                   c.tensor(0), {size[0], size[1]},
                   {c.string("interpolation", "bilinear"), c.flag("antialias", false),
                    c.flag("crop_to_aspect_ratio", false), c.flag("pad_to_aspect_ratio", false),
                    c.string("fill_mode", "constant"), c.number("fill_value", 0.0),
                    data_format(c)});
             }),
          op("AffineTransform",
             [](const OperationCall& c) {
               return image::affine_transform(
                   c.tensor(0), c.tensor(1),
                   {c.string("interpolation", "bilinear"), c.string("fill_mode", "constant"),
                    c.number("fill_value", 0.0), data_format(c)});
             }),
          op("MapCoordinates",
             [](const OperationCall& c) {
               if (c.attr("order").is_null()) c.fail("the argument order is required.");
               return image::map_coordinates(
                   c.tensor(0), c.tensor(1), static_cast<int>(c.integer("order", 0)),
                   {c.string("fill_mode", "constant"), c.number("fill_value", 0.0)});
             }),
          op("PadImages",
             [](const OperationCall& c) {
               return image::pad_images(c.tensor(0), window<image::PadImagesOptions>(c, "padding"));
             }),
          op("CropImages",
             [](const OperationCall& c) {
               return image::crop_images(c.tensor(0),
                                         window<image::CropImagesOptions>(c, "cropping"));
             }),
          op("RGBToGrayscale",
             [](const OperationCall& c) { return image::rgb_to_grayscale(c.tensor(0), data_format(c)); }),
          op("RGBToHSV",
             [](const OperationCall& c) { return image::rgb_to_hsv(c.tensor(0), data_format(c)); }),
          op("HSVToRGB",
             [](const OperationCall& c) { return image::hsv_to_rgb(c.tensor(0), data_format(c)); }),
          op("ExtractPatches", extract_patches),
          op("PerspectiveTransform",
             [](const OperationCall& c) {
               return image::perspective_transform(
                   c.tensor(0), c.tensor(1), c.tensor(2),
                   {c.string("interpolation", "bilinear"), c.number("fill_value", 0.0),
                    data_format(c)});
             }),
          op("GaussianBlur",
             [](const OperationCall& c) {
               std::vector<int64_t> k =
                   c.attr("kernel_size").is_null() ? std::vector<int64_t>{3, 3} : c.integers("kernel_size");
               if (k.size() == 1) k.push_back(k[0]);
               if (k.size() != 2) c.fail("kernel_size must be a pair of ints.");
               return image::gaussian_blur(c.tensor(0), {k[0], k[1]},
                                           number_pair(c, "sigma", {1.0, 1.0}), data_format(c));
             }),
          op("ElasticTransform", elastic_transform),
          op("ScaleAndTranslate", scale_and_translate),
          op("SobelEdges",
             [](const OperationCall& c) { return image::sobel_edges(c.tensor(0), data_format(c)); }),
          op("SSIM", ssim),
      });
}

}  // namespace keras::ops::detail
