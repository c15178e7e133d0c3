#pragma once
// keras.layers.MaxNumBoundingBoxes: bounding boxes and their labels truncated or padded to a
// fixed number per image, so that batches of detection targets have one shape.
//
//   auto fixed = layers::MaxNumBoundingBoxes(10);
//   auto [boxes, labels] = fixed->transform_bounding_boxes(boxes, labels);   // (N, 10, 4), (N, 10)

#include <utility>

#include "keras/layers/preprocessing/base_image_preprocessing_layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.MaxNumBoundingBoxes other than `max_number`.
struct MaxNumBoundingBoxesOptions {
  /// The value of padded boxes and labels.
  int64_t fill_value = -1;
  /// The boxes' format ("xyxy", "xywh", ...; empty for none), written to the config only.
  std::string bounding_box_format;
  /// "channels_last" or "channels_first"; empty means keras.config.image_data_format().
  std::string data_format;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The MaxNumBoundingBoxes layer (Keras's "MaxNumBoundingBoxes"). keras-cpp's preprocessing
/// layers take images, not Keras's {"images", "bounding_boxes"} dicts, so a call passes images
/// through (as Keras does for them) and the boxes go through transform_bounding_boxes. As in
/// Keras 3.15, the config holds max_number but not fill_value (a loaded layer pads with -1).
class MaxNumBoundingBoxesLayer : public BaseImagePreprocessingLayer {
 public:
  /// A layer cutting or padding the boxes of each image to `max_number` (Keras's `max_number`).
  explicit MaxNumBoundingBoxesLayer(int64_t max_number, MaxNumBoundingBoxesOptions options = {});
  std::string class_name() const override { return "MaxNumBoundingBoxes"; }
  /// The images, unchanged.
  Tensor transform_images(const Tensor& images, const Transformation& transformation,
                          bool training = true) override;
  /// Boxes (batch, num_boxes, 4) and labels (batch, num_boxes) cut or padded (with fill_value)
  /// to max_number boxes: ((batch, max_number, 4), (batch, max_number)).
  std::pair<Tensor, Tensor> transform_bounding_boxes(const Tensor& boxes,
                                                     const Tensor& labels) const;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `max_number`: the number of boxes per image after the layer.
  int64_t max_number() const { return max_number_; }

 private:
  int64_t max_number_;
  MaxNumBoundingBoxesOptions options_;
};

/// A layer fixing the number of bounding boxes per image.
LayerPtr<MaxNumBoundingBoxesLayer> MaxNumBoundingBoxes(int64_t max_number,
                                                       MaxNumBoundingBoxesOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
