#include "keras/layers/preprocessing/max_num_bounding_boxes.h"

#include <algorithm>

#include "keras/ops/ops.h"

namespace keras::layers {

MaxNumBoundingBoxesLayer::MaxNumBoundingBoxesLayer(int64_t max_number,
                                                   MaxNumBoundingBoxesOptions options)
    : BaseImagePreprocessingLayer(base_options(options), "max_num_bounding_boxes",
                                  options.data_format),
      max_number_(max_number),
      options_(std::move(options)) {
  check(max_number_ >= 0, "MaxNumBoundingBoxes '", name(),
        "': max_number must be a non-negative integer (boxes kept per image); got ", max_number_,
        ".");
}

Tensor MaxNumBoundingBoxesLayer::transform_images(const Tensor& images, const Transformation&,
                                                  bool) {
  return images;
}

std::pair<Tensor, Tensor> MaxNumBoundingBoxesLayer::transform_bounding_boxes(
    const Tensor& boxes, const Tensor& labels) const {
  check(boxes.defined() && labels.defined() && boxes.ndim() == 3 && boxes.shape()[2] == 4 &&
            labels.ndim() == 2 && labels.shape()[0] == boxes.shape()[0] &&
            labels.shape()[1] == boxes.shape()[1],
        "MaxNumBoundingBoxes '", name(),
        "': expected boxes of shape (batch, num_boxes, 4) and labels of shape (batch, "
        "num_boxes); got ",
        boxes.defined() ? boxes.shape() : Shape{}, " and ",
        labels.defined() ? labels.shape() : Shape{}, ".");
  const int64_t batch = boxes.shape()[0], kept = std::min(boxes.shape()[1], max_number_);
  Tensor b = ops::slice(boxes, {0, 0, 0}, Shape{batch, kept, 4});
  Tensor l = ops::slice(labels, {0, 0}, Shape{batch, kept});
  if (kept < max_number_) {
    const int64_t pad = max_number_ - kept;
    const auto fill = static_cast<double>(options_.fill_value);
    b = ops::concatenate({b, ops::full(Shape{batch, pad, 4}, fill, boxes.dtype())}, 1);
    l = ops::concatenate({l, ops::full(Shape{batch, pad}, fill, labels.dtype())}, 1);
  }
  return {b, l};
}

Config MaxNumBoundingBoxesLayer::get_config() const {
  Config c = BaseImagePreprocessingLayer::get_config();
  if (!options_.bounding_box_format.empty())
    c["bounding_box_format"] = options_.bounding_box_format;
  c["max_number"] = max_number_;
  return c;
}

std::shared_ptr<Layer> MaxNumBoundingBoxesLayer::from_config(const Config& c) {
  MaxNumBoundingBoxesOptions o;
  read_base_config(c, o);
  if (c.contains("bounding_box_format") && !c["bounding_box_format"].is_null())
    o.bounding_box_format = c["bounding_box_format"].get<std::string>();
  if (c.contains("fill_value") && !c["fill_value"].is_null())
    o.fill_value = c["fill_value"].get<int64_t>();
  if (c.contains("data_format") && !c["data_format"].is_null())
    o.data_format = c["data_format"].get<std::string>();
  return std::make_shared<MaxNumBoundingBoxesLayer>(c.at("max_number").get<int64_t>(), o);
}

LayerPtr<MaxNumBoundingBoxesLayer> MaxNumBoundingBoxes(int64_t max_number,
                                                       MaxNumBoundingBoxesOptions options) {
  return make_layer<MaxNumBoundingBoxesLayer>(max_number, std::move(options));
}

}  // namespace keras::layers
