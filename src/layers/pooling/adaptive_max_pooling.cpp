#include "keras/layers/pooling/adaptive_max_pooling.h"

namespace keras::layers {

AdaptiveMaxPooling1DLayer::AdaptiveMaxPooling1DLayer(const ops::IntOrTuple& output_size,
                                                     AdaptiveMaxPooling1DOptions options)
    : BaseAdaptivePoolingLayer(1, "max", output_size, std::move(options), "AdaptiveMaxPooling1D") {}

std::shared_ptr<Layer> AdaptiveMaxPooling1DLayer::from_config(const Config& config) {
  auto [output_size, options] = parse_config(config);
  return std::make_shared<AdaptiveMaxPooling1DLayer>(output_size, options);
}

AdaptiveMaxPooling2DLayer::AdaptiveMaxPooling2DLayer(const ops::IntOrTuple& output_size,
                                                     AdaptiveMaxPooling2DOptions options)
    : BaseAdaptivePoolingLayer(2, "max", output_size, std::move(options), "AdaptiveMaxPooling2D") {}

std::shared_ptr<Layer> AdaptiveMaxPooling2DLayer::from_config(const Config& config) {
  auto [output_size, options] = parse_config(config);
  return std::make_shared<AdaptiveMaxPooling2DLayer>(output_size, options);
}

AdaptiveMaxPooling3DLayer::AdaptiveMaxPooling3DLayer(const ops::IntOrTuple& output_size,
                                                     AdaptiveMaxPooling3DOptions options)
    : BaseAdaptivePoolingLayer(3, "max", output_size, std::move(options), "AdaptiveMaxPooling3D") {}

std::shared_ptr<Layer> AdaptiveMaxPooling3DLayer::from_config(const Config& config) {
  auto [output_size, options] = parse_config(config);
  return std::make_shared<AdaptiveMaxPooling3DLayer>(output_size, options);
}

LayerPtr<AdaptiveMaxPooling1DLayer> AdaptiveMaxPooling1D(const ops::IntOrTuple& output_size,
                                                         AdaptiveMaxPooling1DOptions options) {
  return make_layer<AdaptiveMaxPooling1DLayer>(output_size, std::move(options));
}
LayerPtr<AdaptiveMaxPooling2DLayer> AdaptiveMaxPooling2D(const ops::IntOrTuple& output_size,
                                                         AdaptiveMaxPooling2DOptions options) {
  return make_layer<AdaptiveMaxPooling2DLayer>(output_size, std::move(options));
}
LayerPtr<AdaptiveMaxPooling3DLayer> AdaptiveMaxPooling3D(const ops::IntOrTuple& output_size,
                                                         AdaptiveMaxPooling3DOptions options) {
  return make_layer<AdaptiveMaxPooling3DLayer>(output_size, std::move(options));
}

}  // namespace keras::layers
