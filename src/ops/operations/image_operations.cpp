// The op classes of keras.src.ops.image that keras-cpp implements (keras/ops/operation.h).
//
// Not here (keras::ops::image has no such op): RGBToGrayscale, RGBToHSV, HSVToRGB,
// ExtractPatches, PerspectiveTransform, GaussianBlur, ElasticTransform, ScaleAndTranslate,
// SobelEdges, SSIM.

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
      });
}

}  // namespace keras::ops::detail
