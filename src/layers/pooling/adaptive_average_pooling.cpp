#include "keras/layers/pooling/adaptive_average_pooling.h"

namespace keras::layers {

AdaptiveAveragePooling1DLayer::AdaptiveAveragePooling1DLayer(
    const ops::IntOrTuple& output_size, AdaptiveAveragePooling1DOptions options)
    : BaseAdaptivePoolingLayer(1, "average", output_size, std::move(options),
                               "AdaptiveAveragePooling1D") {}

std::shared_ptr<Layer> AdaptiveAveragePooling1DLayer::from_config(const Config& config) {
  auto [output_size, options] = parse_config(config);
  return std::make_shared<AdaptiveAveragePooling1DLayer>(output_size, options);
}

AdaptiveAveragePooling2DLayer::AdaptiveAveragePooling2DLayer(
    const ops::IntOrTuple& output_size, AdaptiveAveragePooling2DOptions options)
    : BaseAdaptivePoolingLayer(2, "average", output_size, std::move(options),
                               "AdaptiveAveragePooling2D") {}

std::shared_ptr<Layer> AdaptiveAveragePooling2DLayer::from_config(const Config& config) {
  auto [output_size, options] = parse_config(config);
  return std::make_shared<AdaptiveAveragePooling2DLayer>(output_size, options);
}

AdaptiveAveragePooling3DLayer::AdaptiveAveragePooling3DLayer(
    const ops::IntOrTuple& output_size, AdaptiveAveragePooling3DOptions options)
    : BaseAdaptivePoolingLayer(3, "average", output_size, std::move(options),
                               "AdaptiveAveragePooling3D") {}

std::shared_ptr<Layer> AdaptiveAveragePooling3DLayer::from_config(const Config& config) {
  auto [output_size, options] = parse_config(config);
  return std::make_shared<AdaptiveAveragePooling3DLayer>(output_size, options);
}

LayerPtr<AdaptiveAveragePooling1DLayer> AdaptiveAveragePooling1D(
    const ops::IntOrTuple& output_size, AdaptiveAveragePooling1DOptions options) {
  return make_layer<AdaptiveAveragePooling1DLayer>(output_size, std::move(options));
}
LayerPtr<AdaptiveAveragePooling2DLayer> AdaptiveAveragePooling2D(
    const ops::IntOrTuple& output_size, AdaptiveAveragePooling2DOptions options) {
  return make_layer<AdaptiveAveragePooling2DLayer>(output_size, std::move(options));
}
LayerPtr<AdaptiveAveragePooling3DLayer> AdaptiveAveragePooling3D(
    const ops::IntOrTuple& output_size, AdaptiveAveragePooling3DOptions options) {
  return make_layer<AdaptiveAveragePooling3DLayer>(output_size, std::move(options));
}

}  // namespace keras::layers
