#include "keras/layers/pooling/max_pooling.h"

namespace keras::layers {

MaxPooling1DLayer::MaxPooling1DLayer(const ops::IntOrTuple& pool_size, MaxPooling1DOptions options)
    : BasePoolingLayer(1, "max", pool_size, std::move(options), "MaxPooling1D") {}

std::shared_ptr<Layer> MaxPooling1DLayer::from_config(const Config& config) {
  auto [pool_size, options] = parse_config(config);
  return std::make_shared<MaxPooling1DLayer>(pool_size, options);
}

MaxPooling2DLayer::MaxPooling2DLayer(const ops::IntOrTuple& pool_size, MaxPooling2DOptions options)
    : BasePoolingLayer(2, "max", pool_size, std::move(options), "MaxPooling2D") {}

std::shared_ptr<Layer> MaxPooling2DLayer::from_config(const Config& config) {
  auto [pool_size, options] = parse_config(config);
  return std::make_shared<MaxPooling2DLayer>(pool_size, options);
}

MaxPooling3DLayer::MaxPooling3DLayer(const ops::IntOrTuple& pool_size, MaxPooling3DOptions options)
    : BasePoolingLayer(3, "max", pool_size, std::move(options), "MaxPooling3D") {}

std::shared_ptr<Layer> MaxPooling3DLayer::from_config(const Config& config) {
  auto [pool_size, options] = parse_config(config);
  return std::make_shared<MaxPooling3DLayer>(pool_size, options);
}

LayerPtr<MaxPooling1DLayer> MaxPooling1D(const ops::IntOrTuple& pool_size,
                                         MaxPooling1DOptions options) {
  return make_layer<MaxPooling1DLayer>(pool_size, std::move(options));
}
LayerPtr<MaxPooling2DLayer> MaxPooling2D(const ops::IntOrTuple& pool_size,
                                         MaxPooling2DOptions options) {
  return make_layer<MaxPooling2DLayer>(pool_size, std::move(options));
}
LayerPtr<MaxPooling3DLayer> MaxPooling3D(const ops::IntOrTuple& pool_size,
                                         MaxPooling3DOptions options) {
  return make_layer<MaxPooling3DLayer>(pool_size, std::move(options));
}
LayerPtr<MaxPooling1DLayer> MaxPool1D(const ops::IntOrTuple& pool_size,
                                      MaxPooling1DOptions options) {
  return MaxPooling1D(pool_size, std::move(options));
}
LayerPtr<MaxPooling2DLayer> MaxPool2D(const ops::IntOrTuple& pool_size,
                                      MaxPooling2DOptions options) {
  return MaxPooling2D(pool_size, std::move(options));
}
LayerPtr<MaxPooling3DLayer> MaxPool3D(const ops::IntOrTuple& pool_size,
                                      MaxPooling3DOptions options) {
  return MaxPooling3D(pool_size, std::move(options));
}

}  // namespace keras::layers
