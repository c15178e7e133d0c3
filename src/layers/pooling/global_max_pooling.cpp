#include "keras/layers/pooling/global_max_pooling.h"

namespace keras::layers {

GlobalMaxPooling1DLayer::GlobalMaxPooling1DLayer(GlobalMaxPooling1DOptions options)
    : BaseGlobalPoolingLayer(1, "max", std::move(options), "GlobalMaxPooling1D") {}

std::shared_ptr<Layer> GlobalMaxPooling1DLayer::from_config(const Config& config) {
  return std::make_shared<GlobalMaxPooling1DLayer>(parse_config(config));
}

GlobalMaxPooling2DLayer::GlobalMaxPooling2DLayer(GlobalMaxPooling2DOptions options)
    : BaseGlobalPoolingLayer(2, "max", std::move(options), "GlobalMaxPooling2D") {}

std::shared_ptr<Layer> GlobalMaxPooling2DLayer::from_config(const Config& config) {
  return std::make_shared<GlobalMaxPooling2DLayer>(parse_config(config));
}

GlobalMaxPooling3DLayer::GlobalMaxPooling3DLayer(GlobalMaxPooling3DOptions options)
    : BaseGlobalPoolingLayer(3, "max", std::move(options), "GlobalMaxPooling3D") {}

std::shared_ptr<Layer> GlobalMaxPooling3DLayer::from_config(const Config& config) {
  return std::make_shared<GlobalMaxPooling3DLayer>(parse_config(config));
}

LayerPtr<GlobalMaxPooling1DLayer> GlobalMaxPooling1D(GlobalMaxPooling1DOptions options) {
  return make_layer<GlobalMaxPooling1DLayer>(std::move(options));
}
LayerPtr<GlobalMaxPooling2DLayer> GlobalMaxPooling2D(GlobalMaxPooling2DOptions options) {
  return make_layer<GlobalMaxPooling2DLayer>(std::move(options));
}
LayerPtr<GlobalMaxPooling3DLayer> GlobalMaxPooling3D(GlobalMaxPooling3DOptions options) {
  return make_layer<GlobalMaxPooling3DLayer>(std::move(options));
}
LayerPtr<GlobalMaxPooling1DLayer> GlobalMaxPool1D(GlobalMaxPooling1DOptions options) {
  return GlobalMaxPooling1D(std::move(options));
}
LayerPtr<GlobalMaxPooling2DLayer> GlobalMaxPool2D(GlobalMaxPooling2DOptions options) {
  return GlobalMaxPooling2D(std::move(options));
}
LayerPtr<GlobalMaxPooling3DLayer> GlobalMaxPool3D(GlobalMaxPooling3DOptions options) {
  return GlobalMaxPooling3D(std::move(options));
}

}  // namespace keras::layers
