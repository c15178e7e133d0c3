// Every built-in layer's from_config, by Keras class name. Keep the list sorted.

#include "layers/builtin_layers.h"

#include "applications/custom_scale_layer.h"

#include "keras/models/functional.h"
#include "keras/models/sequential.h"

#include "keras/layers/activations/activation.h"
#include "keras/layers/activations/elu.h"
#include "keras/layers/activations/leaky_relu.h"
#include "keras/layers/activations/prelu.h"
#include "keras/layers/activations/relu.h"
#include "keras/layers/activations/softmax.h"
#include "keras/layers/attention/additive_attention.h"
#include "keras/layers/attention/attention.h"
#include "keras/layers/attention/grouped_query_attention.h"
#include "keras/layers/attention/multi_head_attention.h"
#include "keras/layers/convolutional/conv.h"
#include "keras/layers/convolutional/conv_transpose.h"
#include "keras/layers/convolutional/depthwise_conv.h"
#include "keras/layers/convolutional/separable_conv.h"
#include "keras/layers/core/dense.h"
#include "keras/layers/core/einsum_dense.h"
#include "keras/layers/core/embedding.h"
#include "keras/layers/core/identity.h"
#include "keras/layers/core/lambda_layer.h"
#include "keras/layers/core/layer_scale.h"
#include "keras/layers/core/masking.h"
#include "keras/layers/merging/add.h"
#include "keras/layers/merging/average.h"
#include "keras/layers/merging/concatenate.h"
#include "keras/layers/merging/dot.h"
#include "keras/layers/merging/maximum.h"
#include "keras/layers/merging/minimum.h"
#include "keras/layers/merging/multiply.h"
#include "keras/layers/merging/subtract.h"
#include "keras/layers/normalization/batch_normalization.h"
#include "keras/layers/normalization/group_normalization.h"
#include "keras/layers/normalization/layer_normalization.h"
#include "keras/layers/normalization/rms_normalization.h"
#include "keras/layers/normalization/unit_normalization.h"
#include "keras/layers/pooling/adaptive_average_pooling.h"
#include "keras/layers/pooling/adaptive_max_pooling.h"
#include "keras/layers/pooling/average_pooling.h"
#include "keras/layers/pooling/global_average_pooling.h"
#include "keras/layers/pooling/global_max_pooling.h"
#include "keras/layers/pooling/max_pooling.h"
#include "keras/layers/preprocessing/category_encoding.h"
#include "keras/layers/preprocessing/center_crop.h"
#include "keras/layers/preprocessing/discretization.h"
#include "keras/layers/preprocessing/normalization.h"
#include "keras/layers/preprocessing/random_brightness.h"
#include "keras/layers/preprocessing/random_contrast.h"
#include "keras/layers/preprocessing/random_flip.h"
#include "keras/layers/preprocessing/random_rotation.h"
#include "keras/layers/preprocessing/random_translation.h"
#include "keras/layers/preprocessing/random_zoom.h"
#include "keras/layers/preprocessing/rescaling.h"
#include "keras/layers/preprocessing/resizing.h"
#include "keras/layers/regularization/activity_regularization.h"
#include "keras/layers/regularization/alpha_dropout.h"
#include "keras/layers/regularization/dropout.h"
#include "keras/layers/regularization/gaussian_dropout.h"
#include "keras/layers/regularization/gaussian_noise.h"
#include "keras/layers/regularization/spatial_dropout.h"
#include "keras/layers/reshaping/cropping1d.h"
#include "keras/layers/reshaping/cropping2d.h"
#include "keras/layers/reshaping/cropping3d.h"
#include "keras/layers/reshaping/flatten.h"
#include "keras/layers/reshaping/permute.h"
#include "keras/layers/reshaping/repeat_vector.h"
#include "keras/layers/reshaping/reshape.h"
#include "keras/layers/reshaping/up_sampling1d.h"
#include "keras/layers/reshaping/up_sampling2d.h"
#include "keras/layers/reshaping/up_sampling3d.h"
#include "keras/layers/reshaping/zero_padding1d.h"
#include "keras/layers/reshaping/zero_padding2d.h"
#include "keras/layers/reshaping/zero_padding3d.h"
#include "keras/layers/rnn/bidirectional.h"
#include "keras/layers/rnn/gru.h"
#include "keras/layers/rnn/lstm.h"
#include "keras/layers/rnn/rnn.h"
#include "keras/layers/rnn/simple_rnn.h"
#include "keras/layers/rnn/stacked_rnn_cells.h"
#include "keras/layers/rnn/time_distributed.h"

namespace keras::layers::detail {

namespace {

// An InputLayer exists only through the tensor it produces (keras::Input); the records of
// Sequential and Functional configs read it with InputLayer::tensor_from_config.
std::shared_ptr<Layer> input_layer_outside_a_model(const Config&) {
  throw ValueError(
      "An InputLayer record can only be read as part of a Sequential or Functional config; "
      "use keras::Input() or InputLayer::tensor_from_config.");
}

}  // namespace

std::vector<std::pair<std::string, LayerFactory>> builtin_layers() {
  return {
      {"Activation", ActivationLayer::from_config},
      {"ActivityRegularization", ActivityRegularizationLayer::from_config},
      {"AdaptiveAveragePooling1D", AdaptiveAveragePooling1DLayer::from_config},
      {"AdaptiveAveragePooling2D", AdaptiveAveragePooling2DLayer::from_config},
      {"AdaptiveAveragePooling3D", AdaptiveAveragePooling3DLayer::from_config},
      {"AdaptiveMaxPooling1D", AdaptiveMaxPooling1DLayer::from_config},
      {"AdaptiveMaxPooling2D", AdaptiveMaxPooling2DLayer::from_config},
      {"AdaptiveMaxPooling3D", AdaptiveMaxPooling3DLayer::from_config},
      {"Add", AddLayer::from_config},
      {"AdditiveAttention", AdditiveAttentionLayer::from_config},
      {"AlphaDropout", AlphaDropoutLayer::from_config},
      {"Attention", AttentionLayer::from_config},
      {"Average", AverageLayer::from_config},
      {"AveragePooling1D", AveragePooling1DLayer::from_config},
      {"AveragePooling2D", AveragePooling2DLayer::from_config},
      {"AveragePooling3D", AveragePooling3DLayer::from_config},
      {"AvgPool1D", AveragePooling1DLayer::from_config},
      {"AvgPool2D", AveragePooling2DLayer::from_config},
      {"AvgPool3D", AveragePooling3DLayer::from_config},
      {"BatchNormalization", BatchNormalizationLayer::from_config},
      {"Bidirectional", BidirectionalLayer::from_config},
      {"CategoryEncoding", CategoryEncodingLayer::from_config},
      {"CenterCrop", CenterCropLayer::from_config},
      {"Concatenate", ConcatenateLayer::from_config},
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
      {"Cropping1D", Cropping1DLayer::from_config},
      {"Cropping2D", Cropping2DLayer::from_config},
      {"Cropping3D", Cropping3DLayer::from_config},
      {"CustomScaleLayer", applications::CustomScaleLayer::from_config},
      {"Dense", DenseLayer::from_config},
      {"DepthwiseConv1D", DepthwiseConv1DLayer::from_config},
      {"DepthwiseConv2D", DepthwiseConv2DLayer::from_config},
      {"Discretization", DiscretizationLayer::from_config},
      {"Dot", DotLayer::from_config},
      {"Dropout", DropoutLayer::from_config},
      {"ELU", ELULayer::from_config},
      {"EinsumDense", EinsumDenseLayer::from_config},
      {"Embedding", EmbeddingLayer::from_config},
      {"Flatten", FlattenLayer::from_config},
      {"Functional", FunctionalModel::from_config},
      {"GRU", GRULayer::from_config},
      {"GRUCell", GRUCellLayer::from_config},
      {"GaussianDropout", GaussianDropoutLayer::from_config},
      {"GaussianNoise", GaussianNoiseLayer::from_config},
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
      {"GroupNormalization", GroupNormalizationLayer::from_config},
      {"GroupQueryAttention", GroupedQueryAttentionLayer::from_config},
      {"GroupedQueryAttention", GroupedQueryAttentionLayer::from_config},
      {"Identity", IdentityLayer::from_config},
      {"InputLayer", input_layer_outside_a_model},
      {"LSTM", LSTMLayer::from_config},
      {"LSTMCell", LSTMCellLayer::from_config},
      {"Lambda", LambdaLayer::from_config},
      {"LayerNormalization", LayerNormalizationLayer::from_config},
      {"LayerScale", LayerScaleLayer::from_config},
      {"LeakyReLU", LeakyReLULayer::from_config},
      {"Masking", MaskingLayer::from_config},
      {"MaxPool1D", MaxPooling1DLayer::from_config},
      {"MaxPool2D", MaxPooling2DLayer::from_config},
      {"MaxPool3D", MaxPooling3DLayer::from_config},
      {"MaxPooling1D", MaxPooling1DLayer::from_config},
      {"MaxPooling2D", MaxPooling2DLayer::from_config},
      {"MaxPooling3D", MaxPooling3DLayer::from_config},
      {"Maximum", MaximumLayer::from_config},
      {"Minimum", MinimumLayer::from_config},
      {"Model", FunctionalModel::from_config},
      {"MultiHeadAttention", MultiHeadAttentionLayer::from_config},
      {"Multiply", MultiplyLayer::from_config},
      {"Normalization", NormalizationLayer::from_config},
      {"PReLU", PReLULayer::from_config},
      {"Permute", PermuteLayer::from_config},
      {"RMSNormalization", RMSNormalizationLayer::from_config},
      {"RNN", RNNLayer::from_config},
      {"RandomBrightness", RandomBrightnessLayer::from_config},
      {"RandomContrast", RandomContrastLayer::from_config},
      {"RandomFlip", RandomFlipLayer::from_config},
      {"RandomRotation", RandomRotationLayer::from_config},
      {"RandomTranslation", RandomTranslationLayer::from_config},
      {"RandomZoom", RandomZoomLayer::from_config},
      {"ReLU", ReLULayer::from_config},
      {"RepeatVector", RepeatVectorLayer::from_config},
      {"Rescaling", RescalingLayer::from_config},
      {"Reshape", ReshapeLayer::from_config},
      {"Resizing", ResizingLayer::from_config},
      {"SeparableConv1D", SeparableConv1DLayer::from_config},
      {"SeparableConv2D", SeparableConv2DLayer::from_config},
      {"SeparableConvolution1D", SeparableConv1DLayer::from_config},
      {"SeparableConvolution2D", SeparableConv2DLayer::from_config},
      {"Sequential", SequentialModel::from_config},
      {"SimpleRNN", SimpleRNNLayer::from_config},
      {"SimpleRNNCell", SimpleRNNCellLayer::from_config},
      {"Softmax", SoftmaxLayer::from_config},
      {"SpatialDropout1D", SpatialDropout1DLayer::from_config},
      {"SpatialDropout2D", SpatialDropout2DLayer::from_config},
      {"SpatialDropout3D", SpatialDropout3DLayer::from_config},
      {"StackedRNNCells", StackedRNNCellsLayer::from_config},
      {"Subtract", SubtractLayer::from_config},
      {"TimeDistributed", TimeDistributedLayer::from_config},
      {"UnitNormalization", UnitNormalizationLayer::from_config},
      {"UpSampling1D", UpSampling1DLayer::from_config},
      {"UpSampling2D", UpSampling2DLayer::from_config},
      {"UpSampling3D", UpSampling3DLayer::from_config},
      {"ZeroPadding1D", ZeroPadding1DLayer::from_config},
      {"ZeroPadding2D", ZeroPadding2DLayer::from_config},
      {"ZeroPadding3D", ZeroPadding3DLayer::from_config},
  };
}

}  // namespace keras::layers::detail
