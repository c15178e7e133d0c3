// Every built-in layer's from_config, by Keras class name. Keep the list sorted.

#include "layers/builtin_layers.h"

#include "keras/layers/convolutional/conv.h"
#include "keras/layers/convolutional/conv_transpose.h"
#include "keras/layers/convolutional/depthwise_conv.h"
#include "keras/layers/convolutional/separable_conv.h"
#include "keras/layers/core/dense.h"
#include "keras/layers/pooling/adaptive_average_pooling.h"
#include "keras/layers/pooling/adaptive_max_pooling.h"
#include "keras/layers/pooling/average_pooling.h"
#include "keras/layers/pooling/global_average_pooling.h"
#include "keras/layers/pooling/global_max_pooling.h"
#include "keras/layers/pooling/max_pooling.h"

namespace keras::layers::detail {

std::vector<std::pair<std::string, LayerFactory>> builtin_layers() {
  return {
      {"AdaptiveAveragePooling1D", AdaptiveAveragePooling1DLayer::from_config},
      {"AdaptiveAveragePooling2D", AdaptiveAveragePooling2DLayer::from_config},
      {"AdaptiveAveragePooling3D", AdaptiveAveragePooling3DLayer::from_config},
      {"AdaptiveMaxPooling1D", AdaptiveMaxPooling1DLayer::from_config},
      {"AdaptiveMaxPooling2D", AdaptiveMaxPooling2DLayer::from_config},
      {"AdaptiveMaxPooling3D", AdaptiveMaxPooling3DLayer::from_config},
      {"AveragePooling1D", AveragePooling1DLayer::from_config},
      {"AveragePooling2D", AveragePooling2DLayer::from_config},
      {"AveragePooling3D", AveragePooling3DLayer::from_config},
      {"AvgPool1D", AveragePooling1DLayer::from_config},
      {"AvgPool2D", AveragePooling2DLayer::from_config},
      {"AvgPool3D", AveragePooling3DLayer::from_config},
      {"Conv1D", Conv1DLayer::from_config},
      {"Conv1DTranspose", Conv1DTransposeLayer::from_config},
      {"Conv2D", Conv2DLayer::from_config},
      {"Conv2DTranspose", Conv2DTransposeLayer::from_config},
      {"Conv3D", Conv3DLayer::from_config},
      {"Conv3DTranspose", Conv3DTransposeLayer::from_config},
      {"Convolution1D", Conv1DLayer::from_config},
      {"Convolution1DTranspose", Conv1DTransposeLayer::from_config},
      {"Convolution2D", Conv2DLayer::from_config},
      {"Convolution2DTranspose", Conv2DTransposeLayer::from_config},
      {"Convolution3D", Conv3DLayer::from_config},
      {"Convolution3DTranspose", Conv3DTransposeLayer::from_config},
      {"Dense", DenseLayer::from_config},
      {"DepthwiseConv1D", DepthwiseConv1DLayer::from_config},
      {"DepthwiseConv2D", DepthwiseConv2DLayer::from_config},
      {"GlobalAveragePooling1D", GlobalAveragePooling1DLayer::from_config},
      {"GlobalAveragePooling2D", GlobalAveragePooling2DLayer::from_config},
      {"GlobalAveragePooling3D", GlobalAveragePooling3DLayer::from_config},
      {"GlobalAvgPool1D", GlobalAveragePooling1DLayer::from_config},
      {"GlobalAvgPool2D", GlobalAveragePooling2DLayer::from_config},
      {"GlobalAvgPool3D", GlobalAveragePooling3DLayer::from_config},
      {"GlobalMaxPool1D", GlobalMaxPooling1DLayer::from_config},
      {"GlobalMaxPool2D", GlobalMaxPooling2DLayer::from_config},
      {"GlobalMaxPool3D", GlobalMaxPooling3DLayer::from_config},
      {"GlobalMaxPooling1D", GlobalMaxPooling1DLayer::from_config},
      {"GlobalMaxPooling2D", GlobalMaxPooling2DLayer::from_config},
      {"GlobalMaxPooling3D", GlobalMaxPooling3DLayer::from_config},
      {"MaxPool1D", MaxPooling1DLayer::from_config},
      {"MaxPool2D", MaxPooling2DLayer::from_config},
      {"MaxPool3D", MaxPooling3DLayer::from_config},
      {"MaxPooling1D", MaxPooling1DLayer::from_config},
      {"MaxPooling2D", MaxPooling2DLayer::from_config},
      {"MaxPooling3D", MaxPooling3DLayer::from_config},
      {"SeparableConv1D", SeparableConv1DLayer::from_config},
      {"SeparableConv2D", SeparableConv2DLayer::from_config},
      {"SeparableConvolution1D", SeparableConv1DLayer::from_config},
      {"SeparableConvolution2D", SeparableConv2DLayer::from_config},
  };
}

}  // namespace keras::layers::detail
