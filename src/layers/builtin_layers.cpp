// Every built-in layer's from_config, by Keras class name. Keep the list sorted.

#include "layers/builtin_layers.h"

#include "keras/layers/attention/additive_attention.h"
#include "keras/layers/attention/attention.h"
#include "keras/layers/attention/grouped_query_attention.h"
#include "keras/layers/attention/multi_head_attention.h"
#include "keras/layers/core/dense.h"
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

std::vector<std::pair<std::string, LayerFactory>> builtin_layers() {
  return {
      {"ActivityRegularization", ActivityRegularizationLayer::from_config},
      {"Add", AddLayer::from_config},
      {"AdditiveAttention", AdditiveAttentionLayer::from_config},
      {"AlphaDropout", AlphaDropoutLayer::from_config},
      {"Attention", AttentionLayer::from_config},
      {"Average", AverageLayer::from_config},
      {"BatchNormalization", BatchNormalizationLayer::from_config},
      {"Bidirectional", BidirectionalLayer::from_config},
      {"Concatenate", ConcatenateLayer::from_config},
      {"Cropping1D", Cropping1DLayer::from_config},
      {"Cropping2D", Cropping2DLayer::from_config},
      {"Cropping3D", Cropping3DLayer::from_config},
      {"Dense", DenseLayer::from_config},
      {"Dot", DotLayer::from_config},
      {"Dropout", DropoutLayer::from_config},
      {"Flatten", FlattenLayer::from_config},
      {"GRU", GRULayer::from_config},
      {"GRUCell", GRUCellLayer::from_config},
      {"GaussianDropout", GaussianDropoutLayer::from_config},
      {"GaussianNoise", GaussianNoiseLayer::from_config},
      {"GroupNormalization", GroupNormalizationLayer::from_config},
      {"GroupQueryAttention", GroupedQueryAttentionLayer::from_config},
      {"GroupedQueryAttention", GroupedQueryAttentionLayer::from_config},
      {"LSTM", LSTMLayer::from_config},
      {"LSTMCell", LSTMCellLayer::from_config},
      {"LayerNormalization", LayerNormalizationLayer::from_config},
      {"Maximum", MaximumLayer::from_config},
      {"Minimum", MinimumLayer::from_config},
      {"MultiHeadAttention", MultiHeadAttentionLayer::from_config},
      {"Multiply", MultiplyLayer::from_config},
      {"Permute", PermuteLayer::from_config},
      {"RMSNormalization", RMSNormalizationLayer::from_config},
      {"RNN", RNNLayer::from_config},
      {"RepeatVector", RepeatVectorLayer::from_config},
      {"Reshape", ReshapeLayer::from_config},
      {"SimpleRNN", SimpleRNNLayer::from_config},
      {"SimpleRNNCell", SimpleRNNCellLayer::from_config},
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
