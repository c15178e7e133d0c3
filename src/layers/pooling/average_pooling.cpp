#include "keras/layers/pooling/average_pooling.h"

namespace keras::layers {

AveragePooling1DLayer::AveragePooling1DLayer(const ops::IntOrTuple& pool_size,
                                             AveragePooling1DOptions options)
    : BasePoolingLayer(1, "average", pool_size, std::move(options), "AveragePooling1D") {}

std::shared_ptr<Layer> AveragePooling1DLayer::from_config(const Config& config) {
  auto [pool_size, options] = parse_config(config);
  return std::make_shared<AveragePooling1DLayer>(pool_size, options);
}

AveragePooling2DLayer::AveragePooling2DLayer(const ops::IntOrTuple& pool_size,
                                             AveragePooling2DOptions options)
    : BasePoolingLayer(2, "average", pool_size, std::move(options), "AveragePooling2D") {}

std::shared_ptr<Layer> AveragePooling2DLayer::from_config(const Config& config) {
  auto [pool_size, options] = parse_config(config);
  return std::make_shared<AveragePooling2DLayer>(pool_size, options);
}

AveragePooling3DLayer::AveragePooling3DLayer(const ops::IntOrTuple& pool_size,
                                             AveragePooling3DOptions options)
    : BasePoolingLayer(3, "average", pool_size, std::move(options), "AveragePooling3D") {}

std::shared_ptr<Layer> AveragePooling3DLayer::from_config(const Config& config) {
  auto [pool_size, options] = parse_config(config);
  return std::make_shared<AveragePooling3DLayer>(pool_size, options);
}

LayerPtr<AveragePooling1DLayer> AveragePooling1D(const ops::IntOrTuple& pool_size,
                                                 AveragePooling1DOptions options) {
  return make_layer<AveragePooling1DLayer>(pool_size, std::move(options));
}
LayerPtr<AveragePooling2DLayer> AveragePooling2D(const ops::IntOrTuple& pool_size,
                                                 AveragePooling2DOptions options) {
  return make_layer<AveragePooling2DLayer>(pool_size, std::move(options));
}
LayerPtr<AveragePooling3DLayer> AveragePooling3D(const ops::IntOrTuple& pool_size,
                                                 AveragePooling3DOptions options) {
  return make_layer<AveragePooling3DLayer>(pool_size, std::move(options));
}
LayerPtr<AveragePooling1DLayer> AvgPool1D(const ops::IntOrTuple& pool_size,
                                          AveragePooling1DOptions options) {
  return AveragePooling1D(pool_size, std::move(options));
}
LayerPtr<AveragePooling2DLayer> AvgPool2D(const ops::IntOrTuple& pool_size,
                                          AveragePooling2DOptions options) {
  return AveragePooling2D(pool_size, std::move(options));
}
LayerPtr<AveragePooling3DLayer> AvgPool3D(const ops::IntOrTuple& pool_size,
                                          AveragePooling3DOptions options) {
  return AveragePooling3D(pool_size, std::move(options));
}

}  // namespace keras::layers
