// Every registered layer class through model.save / saving::load_model: a small Functional
// model using the layer in a typical non-default configuration is saved, reloaded and compared
// (bit-identical predictions, the same to_json(), the same get_weights()). The table is keyed
// by Keras class name; a final test fails when a registered class has no row, so a new layer
// cannot skip the round trip.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "assertions.h"
#include "keras/keras.h"
#include "keras/layers/attention/multi_head_attention_base.h"
#include "keras/layers/preprocessing/discretization.h"
#include "keras/layers/preprocessing/integer_lookup.h"
#include "keras/layers/preprocessing/normalization.h"

namespace keras {
namespace {

namespace fs = std::filesystem;

std::string temp_path(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / "keras_cpp_layer_round_trip";
  fs::create_directories(dir);
  return (dir / name).string();
}

Tensor uniform(Shape shape, uint64_t seed) {
  return random::uniform(std::move(shape), 0.0, 1.0, DType::Float32, seed);
}

/// One class: the layer's config (from_config builds it, so the row is data), the inputs'
/// shapes without the batch axis, and what the inputs hold.
struct Row {
  std::string config;
  std::vector<Shape> inputs;
  /// Integer inputs in [0, int_range) when > 0 (Embedding, CategoryEncoding).
  int64_t int_range = 0;
  /// Runs on the new layer before it is called (adapt for the stateful preprocessing layers).
  std::function<void(Layer&)> prepare;
  /// Non-empty: the class cannot go through a Functional graph or a file yet, and why.
  std::string exception;
};

void adapt_normalization(Layer& layer) {
  dynamic_cast<layers::NormalizationLayer&>(layer).adapt(ops::multiply(uniform({16, 4}, 77), 5.0));
}

void adapt_discretization(Layer& layer) {
  dynamic_cast<layers::DiscretizationLayer&>(layer).adapt(uniform({32, 4}, 78));
}

// A learned vocabulary, which the archive keeps as assets/<layer path>/vocabulary.txt.
void adapt_integer_lookup(Layer& layer) {
  dynamic_cast<layers::IntegerLookupLayer&>(layer).adapt(
      Tensor::from_vector(std::vector<int64_t>{1, 1, 1, 4, 4, 2, 5, 0, 0, 3, 3, 3}, {4, 3}));
}

// Moves BatchNormalization's moving mean and variance away from their initial 0 and 1, so that
// predictions depend on every variable being reloaded into the right slot.
void update_moving_stats(Layer& layer) {
  layer(ops::add(ops::multiply(uniform({8, 4}, 79), 3.0), 2.0), {.training = true});
}

// Keras class name -> row. Configs use Keras 3 keys; every class gets a non-default setting.
const std::map<std::string, Row>& table() {
  static const std::map<std::string, Row> rows = {
      // activations
      {"Activation", {R"({"activation": "tanh"})", {{4}}}},
      {"ELU", {R"({"alpha": 0.5})", {{4}}}},
      {"LeakyReLU", {R"({"negative_slope": 0.2})", {{4}}}},
      {"PReLU",
       {R"({"alpha_initializer": {"module": "keras.initializers", "class_name": "Constant", "config": {"value": 0.25}, "registered_name": null}, "shared_axes": [1]})",
        {{3, 4}}}},
      {"ReLU", {R"({"max_value": 0.5, "negative_slope": 0.1, "threshold": 0.05})", {{4}}}},
      {"Softmax", {R"({"axis": 1})", {{3, 4}}}},
      // attention
      {"AdditiveAttention", {R"({"use_scale": false, "dropout": 0.1})", {{3, 4}, {5, 4}}}},
      {"Attention", {R"({"use_scale": true, "score_mode": "dot"})", {{3, 4}, {5, 4}}}},
      {"GroupedQueryAttention",
       {R"({"head_dim": 3, "num_query_heads": 2, "num_key_value_heads": 1, "use_bias": false})",
        {{3, 4}, {5, 4}}}},
      {"MultiHeadAttention",
       {R"({"num_heads": 2, "key_dim": 3, "value_dim": 2, "output_shape": [5]})",
        {{3, 4}, {5, 4}}}},
      // convolutional
      {"Conv1D",
       {R"({"filters": 3, "kernel_size": [3], "strides": [2], "padding": "same", "activation": "relu"})",
        {{7, 2}}}},
      {"Conv1DTranspose",
       {R"({"filters": 3, "kernel_size": [3], "strides": [2], "padding": "valid"})", {{5, 2}}}},
      {"Conv2D",
       {R"({"filters": 4, "kernel_size": [3, 3], "strides": [2, 2], "padding": "same", "activation": "relu"})",
        {{6, 6, 3}}}},
      {"Conv2DTranspose",
       {R"({"filters": 2, "kernel_size": [3, 3], "strides": [2, 2], "padding": "same", "use_bias": false})",
        {{4, 4, 3}}}},
      {"Conv3D",
       {R"({"filters": 2, "kernel_size": [2, 2, 2], "padding": "same", "dilation_rate": [1, 1, 1]})",
        {{4, 4, 4, 2}}}},
      {"Conv3DTranspose",
       {R"({"filters": 2, "kernel_size": [2, 2, 2], "strides": [2, 2, 2]})", {{3, 3, 3, 2}}}},
      {"ConvLSTM1D",
       {R"({"filters": 2, "kernel_size": [3], "padding": "same", "data_format": "channels_first", "return_sequences": true})",
        {{4, 3, 6}}}},
      {"ConvLSTM2D",
       {R"({"filters": 3, "kernel_size": [2, 3], "strides": [2, 1], "unit_forget_bias": false, "recurrent_activation": "hard_sigmoid"})",
        {{3, 6, 7, 2}}}},
      {"ConvLSTM3D",
       {R"({"filters": 2, "kernel_size": [2, 2, 2], "dilation_rate": [2, 1, 2], "activation": "relu", "go_backwards": true})",
        {{3, 5, 4, 5, 1}}}},
      {"ConvLSTMCell",
       {R"({"cell": {"module": "keras.src.layers.rnn.conv_lstm", "class_name": "ConvLSTMCell", "config": {"filters": 2, "kernel_size": [3, 3], "padding": "same"}, "registered_name": "ConvLSTMCell"}, "return_sequences": true})",
        {{3, 5, 5, 2}}}},
      {"DepthwiseConv1D",
       {R"({"kernel_size": [3], "depth_multiplier": 2, "padding": "same"})", {{6, 3}}}},
      {"DepthwiseConv2D",
       {R"({"kernel_size": [3, 3], "depth_multiplier": 2, "strides": [2, 2]})", {{6, 6, 3}}}},
      {"SeparableConv1D",
       {R"({"filters": 4, "kernel_size": [3], "depth_multiplier": 2, "activation": "relu"})",
        {{6, 3}}}},
      {"SeparableConv2D",
       {R"({"filters": 4, "kernel_size": [3, 3], "padding": "same", "use_bias": false})",
        {{6, 6, 3}}}},
      // core
      {"Dense", {R"({"units": 3, "use_bias": false, "activation": "relu"})", {{4}}}},
      {"EinsumDense",
       {R"({"equation": "ab,bc->ac", "output_shape": [3], "bias_axes": "c", "activation": "sigmoid"})",
        {{4}}}},
      {"Embedding", {R"({"input_dim": 10, "output_dim": 3, "mask_zero": true})", {{5}}, 10}},
      {"ReversibleEmbedding",
       {R"({"input_dim": 10, "output_dim": 3, "tie_weights": false, "logit_soft_cap": 2.0})",
        {{5}},
        10}},
      {"Identity", {R"({})", {{4}}}},
      {"Lambda",
       {"",
        {{4}},
        0,
        nullptr,
        "holds a C++ function that has no config; load_model refuses Lambda records "
        "(safe mode), as Keras does for the bytecode of a Python lambda"}},
      {"Masking", {R"({"mask_value": 0.5})", {{3, 4}}}},
      // merging
      {"Add", {R"({})", {{4}, {4}}}},
      {"Average", {R"({})", {{4}, {4}}}},
      {"Concatenate", {R"({"axis": -1})", {{4}, {3}}}},
      {"Dot", {R"({"axes": 1, "normalize": true})", {{4}, {4}}}},
      {"Maximum", {R"({})", {{4}, {4}}}},
      {"Minimum", {R"({})", {{4}, {4}}}},
      {"Multiply", {R"({})", {{4}, {4}}}},
      {"Subtract", {R"({})", {{4}, {4}}}},
      // keras.applications' own layers
      {"CustomScaleLayer", {R"({"scale": 0.17})", {{4}, {4}}}},
      // normalization
      {"BatchNormalization",
       {R"({"momentum": 0.5, "epsilon": 0.01, "center": false})", {{4}}, 0, update_moving_stats}},
      {"GroupNormalization", {R"({"groups": 2, "epsilon": 0.01})", {{3, 4}}}},
      {"LayerNormalization", {R"({"epsilon": 0.01, "scale": false})", {{3, 4}}}},
      {"LayerScale", {R"({"init_values": 0.5, "projection_dim": 4})", {{3, 4}}}},
      {"RMSNormalization", {R"({"epsilon": 0.01})", {{3, 4}}}},
      {"UnitNormalization", {R"({"axis": [-1]})", {{3, 4}}}},
      // pooling
      {"AdaptiveAveragePooling1D", {R"({"output_size": [2]})", {{6, 2}}}},
      {"AdaptiveAveragePooling2D", {R"({"output_size": [2, 3]})", {{6, 6, 2}}}},
      {"AdaptiveAveragePooling3D", {R"({"output_size": [2, 2, 2]})", {{4, 4, 4, 2}}}},
      {"AdaptiveMaxPooling1D", {R"({"output_size": [3]})", {{6, 2}}}},
      {"AdaptiveMaxPooling2D", {R"({"output_size": [3, 2]})", {{6, 6, 2}}}},
      {"AdaptiveMaxPooling3D", {R"({"output_size": [2, 1, 2]})", {{4, 4, 4, 2}}}},
      {"AveragePooling1D", {R"({"pool_size": [2], "strides": [1], "padding": "same"})", {{6, 2}}}},
      {"AveragePooling2D",
       {R"({"pool_size": [2, 2], "strides": [2, 2], "padding": "valid"})", {{6, 6, 2}}}},
      {"AveragePooling3D", {R"({"pool_size": [2, 2, 2], "padding": "same"})", {{4, 4, 4, 2}}}},
      {"GlobalAveragePooling1D", {R"({"keepdims": true})", {{6, 2}}}},
      {"GlobalAveragePooling2D", {R"({"keepdims": true})", {{6, 6, 2}}}},
      {"GlobalAveragePooling3D", {R"({})", {{4, 4, 4, 2}}}},
      {"GlobalMaxPooling1D", {R"({})", {{6, 2}}}},
      {"GlobalMaxPooling2D", {R"({"keepdims": true})", {{6, 6, 2}}}},
      {"GlobalMaxPooling3D", {R"({"keepdims": true})", {{4, 4, 4, 2}}}},
      {"MaxPooling1D", {R"({"pool_size": [3], "strides": [2]})", {{7, 2}}}},
      {"MaxPooling2D", {R"({"pool_size": [2, 2], "padding": "same"})", {{5, 5, 2}}}},
      {"MaxPooling3D", {R"({"pool_size": [2, 2, 2], "strides": [1, 1, 1]})", {{4, 4, 4, 2}}}},
      // preprocessing
      {"CategoryEncoding", {R"({"num_tokens": 6, "output_mode": "multi_hot"})", {{3}}, 6}},
      {"CenterCrop", {R"({"height": 4, "width": 3})", {{6, 6, 3}}}},
      {"Discretization", {R"({"num_bins": 4, "epsilon": 0.01})", {{4}}, 0, adapt_discretization}},
      {"HashedCrossing", {R"({"num_bins": 7, "output_mode": "one_hot"})", {{1}, {1}}, 6}},
      {"Hashing",
       {R"({"num_bins": 5, "output_mode": "one_hot", "mask_value": 0, "salt": [3, 4]})", {{1}}, 6}},
      {"IntegerLookup",
       {R"({"max_tokens": 5, "output_mode": "count", "num_oov_indices": 2})", {{3}}, 6,
        adapt_integer_lookup}},
      {"Normalization", {R"({"axis": [-1]})", {{4}}, 0, adapt_normalization}},
      {"StringLookup",
       {R"({"vocabulary": ["a", "b"]})", {{1}}, 0, nullptr,
        "takes strings, and keras-cpp models take numeric inputs (string layers run before the "
        "model); its Keras archives are checked in tests/layers_preprocessing/lookup_layers_test"}},
      {"TextVectorization",
       {R"({"vocabulary": ["a", "b"]})", {{1}}, 0, nullptr,
        "takes strings, and keras-cpp models take numeric inputs (string layers run before the "
        "model); its Keras archives are checked in tests/layers_preprocessing/lookup_layers_test"}},
      {"RandomBrightness", {R"({"factor": [-0.2, 0.3], "seed": 3})", {{6, 6, 3}}}},
      {"RandomContrast", {R"({"factor": [0.1, 0.3], "seed": 4})", {{6, 6, 3}}}},
      {"RandomGrayscale", {R"({"factor": 0.3})", {{6, 6, 3}}}},
      {"RandomPosterization", {R"({"factor": [2.0, 6.0], "value_range": [0, 1], "seed": 11})", {{6, 6, 3}}}},
      {"AutoContrast", {R"({"value_range": [0, 1]})", {{6, 6, 3}}}},
      {"RandomInvert", {R"({"factor": [0.2, 0.6], "value_range": [0, 1], "seed": 9})", {{6, 6, 3}}}},
      {"Solarization",
       {R"({"addition_factor": [0.0, 0.2], "threshold_factor": [0.1, 0.5], "seed": 10})", {{6, 6, 3}}}},
      {"RandomHue", {R"({"factor": [0.1, 0.4], "value_range": [0, 1], "seed": 12})", {{6, 6, 3}}}},
      {"RandomSaturation", {R"({"factor": [0.2, 0.7], "seed": 13})", {{6, 6, 3}}}},
      {"RandomColorDegeneration",
       {R"({"factor": [-0.3, 0.3], "value_range": [0, 1], "seed": 14})", {{6, 6, 3}}}},
      {"RandomColorJitter",
       {R"({"brightness_factor": 0.2, "hue_factor": [0.1, 0.3], "value_range": [0, 1], "seed": 15})",
        {{6, 6, 3}}}},
      {"RandomSharpness", {R"({"factor": [0.1, 0.9], "seed": 16})", {{6, 6, 3}}}},
      {"RandomGaussianBlur",
       {R"({"factor": [0.2, 0.8], "kernel_size": [5, 3], "sigma": [0.1, 0.5], "seed": 17})",
        {{6, 6, 3}}}},
      {"Equalization", {R"({"bins": 64, "value_range": [0, 1]})", {{6, 6, 3}}}},
      {"ContrastLimitedAdaptiveHistogramEqualization",
       {R"({"clip_limit": 2.0, "tile_grid_size": [2, 3], "value_range": [0, 1]})", {{6, 6, 3}}}},
      {"Pipeline",
       {R"({"layers": [{"module": "keras.layers", "class_name": "RandomSharpness", "config": {"factor": [0.2, 0.6], "seed": 18}, "registered_name": null}, {"module": "keras.layers", "class_name": "Dense", "config": {"units": 2}, "registered_name": null}, {"module": "keras.layers", "class_name": "Dense", "config": {"units": 3}, "registered_name": null}]})",
        {{6, 6, 3}}}},
      {"RandomFlip", {R"({"mode": "horizontal", "seed": 5})", {{6, 6, 3}}}},
      {"RandomRotation",
       {R"({"factor": [-0.2, 0.3], "fill_mode": "constant", "seed": 6})", {{6, 6, 3}}}},
      {"RandomTranslation",
       {R"({"height_factor": 0.2, "width_factor": 0.1, "seed": 7})", {{6, 6, 3}}}},
      {"RandomZoom",
       {R"({"height_factor": 0.2, "interpolation": "nearest", "seed": 8})", {{6, 6, 3}}}},
      {"RandomCrop", {R"({"height": 4, "width": 5, "seed": 12})", {{6, 6, 3}}}},
      {"RandomErasing", {R"({"factor": [0.2, 0.7], "scale": [0.05, 0.2], "seed": 13})", {{6, 6, 3}}}},
      {"MixUp", {R"({"alpha": 0.3, "seed": 14})", {{6, 6, 3}}}},
      {"CutMix", {R"({"factor": [0.1, 0.9], "seed": 15})", {{6, 6, 3}}}},
      {"RandomShear",
       {R"({"x_factor": [-0.2, 0.2], "y_factor": [0.1, 0.3], "fill_mode": "constant", "seed": 16})",
        {{6, 6, 3}}}},
      {"RandomPerspective", {R"({"factor": [0, 0.8], "scale": 0.5, "seed": 17})", {{6, 6, 3}}}},
      {"RandomElasticTransform",
       {R"({"factor": [0, 0.5], "scale": [0, 0.4], "fill_mode": "nearest", "seed": 18})",
        {{6, 6, 3}}}},
      {"MaxNumBoundingBoxes", {R"({"max_number": 4})", {{6, 6, 3}}}},
      {"RandAugment", {R"({"num_ops": 3, "factor": [0, 0.4], "seed": 19})", {{6, 6, 3}}}},
      {"AugMix", {R"({"num_chains": 2, "chain_depth": 2, "all_ops": false, "seed": 20})", {{6, 6, 3}}}},
      {"Rescaling", {R"({"scale": 0.5, "offset": -1.0})", {{6, 6, 3}}}},
      {"STFTSpectrogram",
       {R"({"mode": "log", "frame_length": 16, "frame_step": 8, "padding": "same"})",
        {{64, 2}}}},
      {"MelSpectrogram",
       {R"({"fft_length": 64, "sequence_stride": 32, "num_mel_bins": 8, "sampling_rate": 8000})",
        {{256}}}},
      {"Resizing", {R"({"height": 3, "width": 4, "interpolation": "nearest"})", {{6, 6, 3}}}},
      // regularization
      {"ActivityRegularization", {R"({"l1": 0.01, "l2": 0.02})", {{4}}}},
      {"AlphaDropout", {R"({"rate": 0.3, "seed": 1})", {{4}}}},
      {"Dropout", {R"({"rate": 0.4, "seed": 2})", {{4}}}},
      {"GaussianDropout", {R"({"rate": 0.3, "seed": 3})", {{4}}}},
      {"GaussianNoise", {R"({"stddev": 0.2, "seed": 4})", {{4}}}},
      {"SpatialDropout1D", {R"({"rate": 0.3})", {{6, 2}}}},
      {"SpatialDropout2D", {R"({"rate": 0.3})", {{6, 6, 2}}}},
      {"SpatialDropout3D", {R"({"rate": 0.3})", {{4, 4, 4, 2}}}},
      // reshaping
      {"Cropping1D", {R"({"cropping": [1, 2]})", {{6, 2}}}},
      {"Cropping2D", {R"({"cropping": [[1, 0], [0, 2]]})", {{6, 6, 2}}}},
      {"Cropping3D", {R"({"cropping": [[1, 0], [0, 1], [1, 1]]})", {{4, 4, 4, 2}}}},
      {"Flatten", {R"({})", {{3, 2, 2}}}},
      {"Permute", {R"({"dims": [2, 1]})", {{3, 4}}}},
      {"RepeatVector", {R"({"n": 3})", {{4}}}},
      {"Reshape", {R"({"target_shape": [2, -1]})", {{3, 4}}}},
      {"UpSampling1D", {R"({"size": 3})", {{4, 2}}}},
      {"UpSampling2D", {R"({"size": [2, 1], "interpolation": "bilinear"})", {{3, 3, 2}}}},
      {"UpSampling3D", {R"({"size": [2, 1, 2]})", {{2, 2, 2, 2}}}},
      {"ZeroPadding1D", {R"({"padding": [1, 2]})", {{4, 2}}}},
      {"ZeroPadding2D", {R"({"padding": [[1, 0], [2, 1]]})", {{3, 3, 2}}}},
      {"ZeroPadding3D", {R"({"padding": [[1, 0], [0, 1], [1, 1]]})", {{2, 2, 2, 2}}}},
      // recurrent
      {"Bidirectional",
       {R"({"merge_mode": "sum", "layer": {"module": "keras.layers", "class_name": "GRU", "config": {"units": 3, "return_sequences": true}, "registered_name": null}})",
        {{5, 4}}}},
      {"GRU",
       {R"({"units": 3, "return_sequences": true, "reset_after": false, "go_backwards": true})",
        {{5, 4}}}},
      {"GRUCell",
       {R"({"cell": {"module": "keras.layers", "class_name": "GRUCell", "config": {"units": 3, "recurrent_activation": "hard_sigmoid"}, "registered_name": null}})",
        {{5, 4}}}},
      {"LSTM", {R"({"units": 3, "return_sequences": true, "unit_forget_bias": false})", {{5, 4}}}},
      {"LSTMCell",
       {R"({"cell": {"module": "keras.layers", "class_name": "LSTMCell", "config": {"units": 3, "use_bias": false}, "registered_name": null}, "return_sequences": true})",
        {{5, 4}}}},
      {"RNN",
       {R"({"cell": {"module": "keras.layers", "class_name": "SimpleRNNCell", "config": {"units": 2}, "registered_name": null}, "go_backwards": true})",
        {{5, 4}}}},
      {"SimpleRNN", {R"({"units": 3, "activation": "relu", "return_sequences": true})", {{5, 4}}}},
      {"SimpleRNNCell",
       {R"({"cell": {"module": "keras.layers", "class_name": "SimpleRNNCell", "config": {"units": 3, "activation": "relu"}, "registered_name": null}, "unroll": true})",
        {{5, 4}}}},
      {"StackedRNNCells",
       {R"({"cell": {"module": "keras.layers", "class_name": "StackedRNNCells", "config": {"cells": [{"module": "keras.layers", "class_name": "SimpleRNNCell", "config": {"units": 3}, "registered_name": null}, {"module": "keras.layers", "class_name": "GRUCell", "config": {"units": 2}, "registered_name": null}]}, "registered_name": null}})",
        {{5, 4}}}},
      {"TimeDistributed",
       {R"({"layer": {"module": "keras.layers", "class_name": "Dense", "config": {"units": 2, "activation": "tanh"}, "registered_name": null}})",
        {{5, 4}}}},
  };
  return rows;
}

// More configurations of some classes ("Class.variant"): nested initializer, regularizer and
// constraint records, channels_first, wrappers with two sublayers, a float64 policy.
const std::map<std::string, Row>& variants() {
  static const std::map<std::string, Row> rows = {
      {"Dense.regularized",
       {R"({"units": 3, "kernel_initializer": {"module": "keras.initializers", "class_name": "HeNormal", "config": {"seed": 3}, "registered_name": null}, "kernel_regularizer": {"module": "keras.regularizers", "class_name": "L1L2", "config": {"l1": 0.01, "l2": 0.02}, "registered_name": null}, "bias_constraint": {"module": "keras.constraints", "class_name": "NonNeg", "config": {}, "registered_name": null}, "activity_regularizer": {"module": "keras.regularizers", "class_name": "L2", "config": {"l2": 0.01}, "registered_name": null}})",
        {{4}}}},
      {"Dense.float64", {R"({"units": 2, "dtype": "float64", "activation": "softplus"})", {{4}}}},
      {"Conv2D.channels_first",
       {R"({"filters": 2, "kernel_size": [2, 2], "data_format": "channels_first", "dilation_rate": [2, 2]})",
        {{3, 6, 6}}}},
      {"Conv1D.causal_groups",
       {R"({"filters": 4, "kernel_size": [2], "padding": "causal", "groups": 2})", {{6, 2}}}},
      {"Bidirectional.lstm_concat",
       {R"({"merge_mode": "concat", "layer": {"module": "keras.layers", "class_name": "LSTM", "config": {"units": 2}, "registered_name": null}, "backward_layer": {"module": "keras.layers", "class_name": "LSTM", "config": {"units": 3, "go_backwards": true}, "registered_name": null}})",
        {{5, 4}}}},
      {"MultiHeadAttention.axes",
       {R"({"num_heads": 2, "key_dim": 2, "attention_axes": [2], "use_bias": false})",
        {{3, 2, 4}, {3, 2, 4}}}},
      // (axis as Keras 3.16 stores it once built: sorted and non-negative)
      {"LayerNormalization.rms_scaling", {R"({"rms_scaling": true, "axis": [2]})", {{3, 4}}}},
      {"MaxPooling2D.channels_first",
       {R"({"pool_size": [2, 2], "data_format": "channels_first"})", {{2, 4, 4}}}},
  };
  return rows;
}

const Row& row_of(const std::string& key) {
  auto it = table().find(key);
  return it != table().end() ? it->second : variants().at(key);
}

// The keys of each class's get_config in Keras 3.10 (keras/src/layers/**, get_config and the
// get_config of the bases it calls; the adaptive pooling classes from Keras's main branch, as
// they are newer than 3.10), without the base keys name/trainable/dtype (added below).
// Read from the Keras source with Python's ast (dict literals and item assignments in each
// get_config); reviewed by hand, and updated for the keys Keras 3.15 always writes (the exact
// configs are compared with Keras 3.15 itself in tests/oracle/configs_test.cpp).
const std::map<std::string, std::string>& keras_config_keys() {
  static const std::map<std::string, std::string> keys = {
      {"Activation", "activation"},
      {"ActivityRegularization", "l1 l2"},
      {"AdaptiveAveragePooling1D", "data_format output_size"},
      {"AdaptiveAveragePooling2D", "data_format output_size"},
      {"AdaptiveAveragePooling3D", "data_format output_size"},
      {"AdaptiveMaxPooling1D", "data_format output_size"},
      {"AdaptiveMaxPooling2D", "data_format output_size"},
      {"AdaptiveMaxPooling3D", "data_format output_size"},
      {"Add", ""},
      {"AdditiveAttention", "dropout seed use_scale"},
      {"AlphaDropout", "noise_shape rate seed"},
      {"Attention", "dropout score_mode seed use_scale"},
      {"Average", ""},
      {"AveragePooling1D", "data_format padding pool_size strides"},
      {"AveragePooling2D", "data_format padding pool_size strides"},
      {"AveragePooling3D", "data_format padding pool_size strides"},
      {"BatchNormalization",
       "axis beta_constraint beta_initializer beta_regularizer center epsilon gamma_constraint "
       "gamma_initializer gamma_regularizer momentum moving_mean_initializer "
       "moving_variance_initializer renorm renorm_clipping renorm_momentum scale synchronized"},
      {"Bidirectional", "backward_layer layer merge_mode"},
      {"CategoryEncoding", "num_tokens output_mode"},
      {"CenterCrop", "data_format height width"},
      {"Concatenate", "axis"},
      {"Conv1D",
       "activation bias_constraint bias_initializer bias_regularizer data_format dilation_rate "
       "filters groups kernel_constraint kernel_initializer kernel_regularizer kernel_size padding "
       "strides use_bias"},
      {"Conv1DTranspose",
       "activation bias_constraint bias_initializer bias_regularizer data_format dilation_rate "
       "filters kernel_constraint kernel_initializer kernel_regularizer kernel_size "
       "output_padding padding strides use_bias"},
      {"Conv2D",
       "activation bias_constraint bias_initializer bias_regularizer data_format dilation_rate "
       "filters groups kernel_constraint kernel_initializer kernel_regularizer kernel_size padding "
       "strides use_bias"},
      {"Conv2DTranspose",
       "activation bias_constraint bias_initializer bias_regularizer data_format dilation_rate "
       "filters kernel_constraint kernel_initializer kernel_regularizer kernel_size "
       "output_padding padding strides use_bias"},
      {"Conv3D",
       "activation bias_constraint bias_initializer bias_regularizer data_format dilation_rate "
       "filters groups kernel_constraint kernel_initializer kernel_regularizer kernel_size padding "
       "strides use_bias"},
      {"Conv3DTranspose",
       "activation bias_constraint bias_initializer bias_regularizer data_format dilation_rate "
       "filters kernel_constraint kernel_initializer kernel_regularizer kernel_size "
       "output_padding padding strides use_bias"},
      {"ConvLSTM1D",
       "activation bias_constraint bias_initializer bias_regularizer data_format dilation_rate "
       "dropout filters go_backwards kernel_constraint kernel_initializer kernel_regularizer "
       "kernel_size padding recurrent_activation recurrent_constraint recurrent_dropout "
       "recurrent_initializer recurrent_regularizer return_sequences return_state seed stateful "
       "strides unit_forget_bias unroll use_bias zero_output_for_mask"},
      {"ConvLSTM2D",
       "activation bias_constraint bias_initializer bias_regularizer data_format dilation_rate "
       "dropout filters go_backwards kernel_constraint kernel_initializer kernel_regularizer "
       "kernel_size padding recurrent_activation recurrent_constraint recurrent_dropout "
       "recurrent_initializer recurrent_regularizer return_sequences return_state seed stateful "
       "strides unit_forget_bias unroll use_bias zero_output_for_mask"},
      {"ConvLSTM3D",
       "activation bias_constraint bias_initializer bias_regularizer data_format dilation_rate "
       "dropout filters go_backwards kernel_constraint kernel_initializer kernel_regularizer "
       "kernel_size padding recurrent_activation recurrent_constraint recurrent_dropout "
       "recurrent_initializer recurrent_regularizer return_sequences return_state seed stateful "
       "strides unit_forget_bias unroll use_bias zero_output_for_mask"},
      {"ConvLSTMCell",
       "activation bias_constraint bias_initializer bias_regularizer data_format dilation_rate "
       "dropout filters kernel_constraint kernel_initializer kernel_regularizer kernel_size "
       "padding recurrent_activation recurrent_constraint recurrent_dropout recurrent_initializer "
       "recurrent_regularizer seed strides unit_forget_bias use_bias"},
      {"Cropping1D", "cropping"},
      {"Cropping2D", "cropping data_format"},
      {"Cropping3D", "cropping data_format"},
      {"CustomScaleLayer", "scale"},
      {"Dense",
       "activation bias_constraint bias_initializer bias_regularizer kernel_constraint "
       "kernel_initializer kernel_regularizer units use_bias"},
      {"DepthwiseConv1D",
       "activation bias_constraint bias_initializer bias_regularizer data_format depth_multiplier "
       "depthwise_constraint depthwise_initializer depthwise_regularizer dilation_rate kernel_size "
       "padding strides use_bias"},
      {"DepthwiseConv2D",
       "activation bias_constraint bias_initializer bias_regularizer data_format depth_multiplier "
       "depthwise_constraint depthwise_initializer depthwise_regularizer dilation_rate kernel_size "
       "padding strides use_bias"},
      {"Discretization", "bin_boundaries epsilon num_bins output_mode sparse"},
      {"HashedCrossing", "num_bins output_mode sparse"},
      {"Hashing", "mask_value num_bins output_mode salt sparse"},
      {"IntegerLookup",
       "idf_weights invert mask_token max_tokens num_oov_indices oov_method oov_token output_mode "
       "pad_to_max_tokens salt sparse vocabulary vocabulary_dtype vocabulary_size"},
      {"Dot", "axes normalize"},
      {"Dropout", "noise_shape rate seed"},
      {"ELU", ""},
      {"EinsumDense",
       "activation bias_axes bias_constraint bias_initializer bias_regularizer equation "
       "kernel_constraint kernel_initializer kernel_regularizer output_shape"},
      {"Embedding",
       "embeddings_constraint embeddings_initializer embeddings_regularizer input_dim mask_zero "
       "output_dim"},
      {"ReversibleEmbedding",
       "embeddings_constraint embeddings_initializer embeddings_regularizer input_dim "
       "logit_soft_cap mask_zero output_dim reverse_dtype tie_weights"},
      {"Flatten", "data_format"},
      {"GRU",
       "activation bias_constraint bias_initializer bias_regularizer dropout go_backwards "
       "kernel_constraint kernel_initializer kernel_regularizer recurrent_activation "
       "recurrent_constraint recurrent_dropout recurrent_initializer recurrent_regularizer "
       "reset_after return_sequences return_state seed stateful units unroll use_bias "
       "zero_output_for_mask"},
      {"GRUCell",
       "activation bias_constraint bias_initializer bias_regularizer dropout kernel_constraint "
       "kernel_initializer kernel_regularizer recurrent_activation recurrent_constraint "
       "recurrent_dropout recurrent_initializer recurrent_regularizer reset_after seed units "
       "use_bias"},
      {"GaussianDropout", "rate seed"},
      {"GaussianNoise", "seed stddev"},
      {"GlobalAveragePooling1D", "data_format keepdims"},
      {"GlobalAveragePooling2D", "data_format keepdims"},
      {"GlobalAveragePooling3D", "data_format keepdims"},
      {"GlobalMaxPooling1D", "data_format keepdims"},
      {"GlobalMaxPooling2D", "data_format keepdims"},
      {"GlobalMaxPooling3D", "data_format keepdims"},
      {"GroupNormalization",
       "axis beta_constraint beta_initializer beta_regularizer center epsilon gamma_constraint "
       "gamma_initializer gamma_regularizer groups scale"},
      {"GroupedQueryAttention",
       "bias_constraint bias_initializer bias_regularizer dropout head_dim kernel_constraint "
       "kernel_initializer kernel_regularizer num_key_value_heads num_query_heads seed "
       "sliding_window use_bias use_gate"},
      {"Identity", ""},
      {"LSTM",
       "activation bias_constraint bias_initializer bias_regularizer dropout go_backwards "
       "kernel_constraint kernel_initializer kernel_regularizer recurrent_activation "
       "recurrent_constraint recurrent_dropout recurrent_initializer recurrent_regularizer "
       "return_sequences return_state seed stateful unit_forget_bias units unroll use_bias "
       "zero_output_for_mask"},
      {"LSTMCell",
       "activation bias_constraint bias_initializer bias_regularizer dropout kernel_constraint "
       "kernel_initializer kernel_regularizer recurrent_activation recurrent_constraint "
       "recurrent_dropout recurrent_initializer recurrent_regularizer seed unit_forget_bias units "
       "use_bias"},
      {"LayerNormalization",
       "axis beta_constraint beta_initializer beta_regularizer center epsilon gamma_constraint "
       "gamma_initializer gamma_regularizer rms_scaling scale"},
      {"LayerScale", "init_values projection_dim"},
      {"LeakyReLU", "negative_slope"},
      {"Masking", "mask_value"},
      {"MaxPooling1D", "data_format padding pool_size strides"},
      {"MaxPooling2D", "data_format padding pool_size strides"},
      {"MaxPooling3D", "data_format padding pool_size strides"},
      {"Maximum", ""},
      {"Minimum", ""},
      {"MultiHeadAttention",
       "attention_axes bias_constraint bias_initializer bias_regularizer dropout "
       "kernel_constraint kernel_initializer kernel_regularizer key_dim num_heads output_shape "
       "seed sliding_window use_bias use_gate value_dim"},
      {"Multiply", ""},
      {"Normalization", "axis invert mean variance"},
      {"PReLU", "alpha_constraint alpha_initializer alpha_regularizer shared_axes"},
      {"Permute", "dims"},
      {"RMSNormalization", "axis epsilon"},
      {"RNN",
       "cell go_backwards return_sequences return_state stateful unroll zero_output_for_mask"},
      {"RandomBrightness", "factor seed value_range"},
      {"RandomContrast", "factor seed value_range"},
      {"RandomGrayscale", "data_format factor"},
      {"RandomPosterization", "data_format factor seed value_range"},
      {"AutoContrast", "data_format value_range"},
      {"RandomInvert", "data_format factor seed value_range"},
      {"RandomFlip", "data_format mode seed"},
      {"RandomRotation", "data_format factor fill_mode fill_value interpolation seed"},
      {"RandomTranslation",
       "data_format fill_mode fill_value height_factor interpolation seed width_factor"},
      {"RandomZoom",
       "data_format fill_mode fill_value height_factor interpolation seed width_factor"},
      {"RandomCrop", "data_format height seed width"},
      {"RandomErasing", "data_format factor fill_value scale seed value_range"},
      {"MixUp", "alpha data_format seed"},
      {"CutMix", "data_format factor seed"},
      {"RandomShear", "data_format fill_mode fill_value interpolation seed x_factor y_factor"},
      {"RandomPerspective", "data_format factor fill_value interpolation scale seed"},
      {"RandomElasticTransform",
       "data_format factor fill_mode fill_value interpolation scale seed value_range"},
      {"MaxNumBoundingBoxes", "data_format max_number"},
      {"RandAugment", "data_format factor interpolation num_ops seed value_range"},
      {"AugMix",
       "all_ops alpha chain_depth data_format factor interpolation num_chains seed value_range"},
      {"ReLU", "max_value negative_slope threshold"},
      {"RepeatVector", "n"},
      {"Rescaling", "offset scale"},
      {"STFTSpectrogram",
       "data_format expand_dims fft_length frame_length frame_step mode padding periodic scaling "
       "window"},
      {"MelSpectrogram",
       "fft_length mag_exp max_freq min_freq min_power num_mel_bins power_to_db ref_power "
       "sampling_rate sequence_length sequence_stride top_db window"},
      {"Reshape", "target_shape"},
      {"Resizing",
       "antialias crop_to_aspect_ratio data_format fill_mode fill_value height interpolation "
       "pad_to_aspect_ratio width"},
      {"Solarization", "addition_factor data_format seed threshold_factor value_range"},
      {"RandomHue", "data_format factor seed value_range"},
      {"RandomSaturation", "data_format factor seed value_range"},
      {"RandomColorDegeneration", "data_format factor seed value_range"},
      {"RandomColorJitter",
       "brightness_factor contrast_factor data_format hue_factor saturation_factor seed "
       "value_range"},
      {"RandomSharpness", "data_format factor seed value_range"},
      {"RandomGaussianBlur", "data_format factor kernel_size seed sigma value_range"},
      {"Equalization", "bins data_format value_range"},
      {"ContrastLimitedAdaptiveHistogramEqualization",
       "clip_limit data_format tile_grid_size value_range"},
      {"Pipeline", "layers"},
      {"SeparableConv1D",
       "activation bias_constraint bias_initializer bias_regularizer data_format depth_multiplier "
       "depthwise_constraint depthwise_initializer depthwise_regularizer dilation_rate filters "
       "kernel_size padding pointwise_constraint pointwise_initializer pointwise_regularizer "
       "strides use_bias"},
      {"SeparableConv2D",
       "activation bias_constraint bias_initializer bias_regularizer data_format depth_multiplier "
       "depthwise_constraint depthwise_initializer depthwise_regularizer dilation_rate filters "
       "kernel_size padding pointwise_constraint pointwise_initializer pointwise_regularizer "
       "strides use_bias"},
      {"SimpleRNN",
       "activation bias_constraint bias_initializer bias_regularizer dropout go_backwards "
       "kernel_constraint kernel_initializer kernel_regularizer recurrent_constraint "
       "recurrent_dropout recurrent_initializer recurrent_regularizer return_sequences "
       "return_state stateful units unroll use_bias zero_output_for_mask"},
      {"SimpleRNNCell",
       "activation bias_constraint bias_initializer bias_regularizer dropout kernel_constraint "
       "kernel_initializer kernel_regularizer recurrent_constraint recurrent_dropout "
       "recurrent_initializer recurrent_regularizer seed units use_bias"},
      {"Softmax", "axis"},
      {"SpatialDropout1D", "rate seed"},
      {"SpatialDropout2D", "data_format rate seed"},
      {"SpatialDropout3D", "data_format rate seed"},
      {"StackedRNNCells", "cells"},
      {"Subtract", ""},
      {"TimeDistributed", "layer"},
      {"UnitNormalization", "axis"},
      {"UpSampling1D", "size"},
      {"UpSampling2D", "data_format interpolation size"},
      {"UpSampling3D", "data_format size"},
      {"ZeroPadding1D", "data_format padding"},
      {"ZeroPadding2D", "data_format padding"},
      {"ZeroPadding3D", "data_format padding"},
  };
  return keys;
}

// Keys Keras writes only when they are set.
const std::set<std::string>& optional_keys() {
  static const std::set<std::string> keys = {"activity_regularizer", "bounding_box_format",
                                             "lora_rank", "lora_alpha", "quantization_config"};
  return keys;
}

// Keys keras-cpp writes and Keras 3.10 does not, on purpose: Keras's ELU has no get_config (its
// alpha is lost on reload), and RandomBrightness/RandomContrast leave out data_format although
// their base class takes it (RandomContrast's per-image mean depends on it). Keras's
// from_config accepts all three (they are __init__ arguments).
const std::map<std::string, std::set<std::string>>& extra_keys() {
  static const std::map<std::string, std::set<std::string>> keys = {
      {"ELU", {"alpha"}},
      {"RandomBrightness", {"data_format"}},
      {"RandomContrast", {"data_format"}}};
  return keys;
}

void expect_keras_keys(const std::string& class_name, const Config& config) {
  auto it = keras_config_keys().find(class_name);
  ASSERT_NE(it, keras_config_keys().end()) << "no Keras key list for " << class_name;
  // Keras's Discretization, HashedCrossing and spatial dropouts write their own base keys,
  // without trainable.
  static const std::set<std::string> no_trainable = {"Discretization", "HashedCrossing",
                                                     "SpatialDropout1D",
                                                     "SpatialDropout2D", "SpatialDropout3D"};
  // Keras's Pipeline writes only its layers and name.
  std::set<std::string> expected = {"name"};
  if (class_name != "Pipeline") expected.insert("dtype");
  if (!no_trainable.count(class_name) && class_name != "Pipeline") expected.insert("trainable");
  std::istringstream words(it->second);
  for (std::string w; words >> w;) expected.insert(w);
  auto extra = extra_keys().find(class_name);
  if (extra != extra_keys().end()) expected.insert(extra->second.begin(), extra->second.end());
  std::set<std::string> got;
  for (const auto& [key, value] : config.items())
    if (!optional_keys().count(key)) got.insert(key);
  EXPECT_EQ(got, expected) << class_name << "'s config keys differ from Keras 3.15's";
}

// The cell classes are not called on a sequence themselves: their rows wrap them in an RNN.
const std::set<std::string>& wrapped_in_rnn() {
  static const std::set<std::string> cells = {"ConvLSTMCell", "GRUCell", "LSTMCell",
                                              "SimpleRNNCell", "StackedRNNCells"};
  return cells;
}

// Registered names that are not layers of their own: the models, the InputLayer (every model
// has one), and the aliases Keras exports for the same class (covered through that class).
const std::map<std::string, std::string>& not_rows() {
  static const std::map<std::string, std::string> names = {
      {"Functional", "model class"},
      {"Model", "model class"},
      {"Sequential", "model class"},
      {"InputLayer", "in every model of the table"},
      {"AvgPool1D", "AveragePooling1D"},
      {"AvgPool2D", "AveragePooling2D"},
      {"AvgPool3D", "AveragePooling3D"},
      {"Convolution1D", "Conv1D"},
      {"Convolution1DTranspose", "Conv1DTranspose"},
      {"Convolution2D", "Conv2D"},
      {"Convolution2DTranspose", "Conv2DTranspose"},
      {"Convolution3D", "Conv3D"},
      {"Convolution3DTranspose", "Conv3DTranspose"},
      {"GlobalAvgPool1D", "GlobalAveragePooling1D"},
      {"GlobalAvgPool2D", "GlobalAveragePooling2D"},
      {"GlobalAvgPool3D", "GlobalAveragePooling3D"},
      {"GlobalMaxPool1D", "GlobalMaxPooling1D"},
      {"GlobalMaxPool2D", "GlobalMaxPooling2D"},
      {"GlobalMaxPool3D", "GlobalMaxPooling3D"},
      {"GroupQueryAttention", "GroupedQueryAttention"},
      {"MaxPool1D", "MaxPooling1D"},
      {"MaxPool2D", "MaxPooling2D"},
      {"MaxPool3D", "MaxPooling3D"},
      {"SeparableConvolution1D", "SeparableConv1D"},
      {"SeparableConvolution2D", "SeparableConv2D"},
  };
  return names;
}

std::vector<std::string> row_names() {
  std::vector<std::string> names;
  for (const auto& [name, row] : table()) names.push_back(name);
  for (const auto& [name, row] : variants()) names.push_back(name);
  return names;
}

class LayerRoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(LayerRoundTrip, SaveLoadKeepsPredictionsConfigAndWeights) {
  const std::string& param = GetParam();
  const Row& row = row_of(param);
  const std::string class_name = param.substr(0, param.find('.'));
  if (!row.exception.empty()) GTEST_SKIP() << class_name << ": " << row.exception;
  backend::clear_session();

  Config config = Config::parse(row.config);
  std::string layer_class = wrapped_in_rnn().count(class_name) ? "RNN" : class_name;
  std::shared_ptr<Layer> layer = layers::from_config(layer_class, config);
  if (row.prepare) row.prepare(*layer);

  std::vector<KerasTensor> inputs;
  TensorList data;
  uint64_t seed = 11;
  for (const Shape& shape : row.inputs) {
    InputOptions options;
    if (row.int_range > 0) options.dtype = DType::Int32;
    inputs.push_back(Input(shape, options));
    std::vector<int64_t> dims{2};
    for (int64_t d : shape) dims.push_back(d);
    Tensor x = uniform(Shape(dims), seed++);
    if (row.int_range > 0)
      x = ops::cast(ops::floor(ops::multiply(x, static_cast<double>(row.int_range) - 0.001)),
                    DType::Int32);
    data.push_back(x);
  }
  std::vector<KerasTensor> outputs;
  if (inputs.size() == 1)
    outputs.push_back((*layer)(inputs[0]));
  else
    outputs = (*layer)(inputs);
  auto model = Functional(inputs, outputs);
  ASSERT_EQ(model->layers().back()->class_name(), layer_class);

  // The requested settings reached the layer (a from_config that drops a key fails here).
  Config got = layer->get_config();
  for (const auto& [key, value] : config.items()) {
    ASSERT_TRUE(got.contains(key)) << class_name << " get_config() lacks '" << key << "'";
    if (key == "dtype" && value.is_string() && got[key].is_object()) {
      EXPECT_EQ(got[key]["config"]["name"], value) << class_name << " dtype policy";
    } else if (!value.is_object() && !(value.is_array() && !value.empty() && value[0].is_object())) {
      // (Records, and lists of them such as Pipeline's layers, come back completed.)
      EXPECT_EQ(got[key], value) << class_name << " key '" << key << "'";
    }
  }

  // The same keys as Keras's get_config (and for a cell row, the cell's too).
  expect_keras_keys(layer_class, got);
  if (layer_class != class_name) {
    expect_keras_keys(class_name, got["cell"]["config"]);
    if (class_name == "StackedRNNCells")
      for (const Config& cell : got["cell"]["config"]["cells"])
        expect_keras_keys(cell["class_name"].get<std::string>(), cell["config"]);
  }
  for (const char* wrapper_key : {"layer", "backward_layer"})
    if (got.contains(wrapper_key) && got[wrapper_key].is_object())
      expect_keras_keys(got[wrapper_key]["class_name"].get<std::string>(),
                        got[wrapper_key]["config"]);

  // KERAS_DUMP_CONFIG_KEYS=<folder>: write the config's keys, for a comparison with Keras's
  // get_config (tools run by hand; not part of the test).
  if (const char* dump = std::getenv("KERAS_DUMP_CONFIG_KEYS")) {
    std::ofstream out(fs::path(dump) / (param + ".json"));
    out << got.dump();
  }

  std::string path = temp_path(param + ".keras");
  model->save(path);
  auto loaded = saving::load_model(path);

  EXPECT_EQ(loaded->to_json(), model->to_json());
  TensorStruct input = data.size() == 1 ? TensorStruct(data[0]) : TensorStruct(data);
  TensorStruct expected = model->predict(input, {.verbose = 0});
  TensorStruct actual = loaded->predict(input, {.verbose = 0});
  EXPECT_TENSOR_EQ(actual.single(), expected.single());
  auto a = model->get_weights(), b = loaded->get_weights();
  ASSERT_EQ(b.size(), a.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TENSOR_EQ(b[i], a[i]);
  // Saving the reloaded model again gives the same config (nothing drifts on a second trip).
  std::string again = temp_path(param + "_again.keras");
  loaded->save(again);
  EXPECT_EQ(saving::load_model(again)->to_json(), model->to_json());
}

INSTANTIATE_TEST_SUITE_P(EveryLayer, LayerRoundTrip, ::testing::ValuesIn(row_names()),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '.', '_');
                           return name;
                         });

// A mask made by one layer and used by the next (Embedding(mask_zero) -> LSTM, and Masking ->
// GRU) survives the trip: the reloaded graph attaches it again.
TEST(LayerRoundTripGraphs, MasksStillReachTheRecurrentLayers) {
  backend::clear_session();
  auto ids = Input({5}, {.dtype = DType::Int32});
  auto embedded = layers::Embedding(10, 3, {.mask_zero = true})(ids);
  auto a = layers::LSTM(4)(embedded);
  auto values = Input({5, 2});
  auto b = layers::GRU(3)(layers::Masking({.mask_value = 0.0})(values));
  auto model = Functional(std::vector<KerasTensor>{ids, values}, std::vector<KerasTensor>{a, b});
  // Trailing padding (zeros) in both inputs.
  Tensor id_data =
      ops::convert_to_tensor(std::vector<int32_t>{3, 5, 1, 0, 0, 7, 2, 0, 0, 0}, {2, 5});
  Tensor mask = ops::convert_to_tensor(std::vector<float>{1, 1, 1, 0, 0, 1, 1, 0, 0, 0}, {2, 5, 1});
  Tensor value_data = ops::multiply(ops::add(uniform({2, 5, 2}, 21), 0.5), mask);
  TensorList x{id_data, value_data};
  std::string path = temp_path("masks.keras");
  model->save(path);
  auto loaded = saving::load_model(path);
  EXPECT_EQ(loaded->to_json(), model->to_json());
  TensorStruct p = model->predict(x, {.verbose = 0});
  TensorStruct q = loaded->predict(x, {.verbose = 0});
  ASSERT_EQ(q.list().size(), 2u);
  EXPECT_TENSOR_EQ(q.list()[0], p.list()[0]);
  EXPECT_TENSOR_EQ(q.list()[1], p.list()[1]);
}

// Keras calls MultiHeadAttention and GroupedQueryAttention as layer(query, value): their nodes
// hold two positional tensors (a list would make Keras call layer([query, value])). Attention
// and the merging layers take one list.
TEST(LayerRoundTripGraphs, AttentionNodesUseKerasCallSignature) {
  for (const std::string name :
       {"MultiHeadAttention", "GroupedQueryAttention", "Attention", "Concatenate"}) {
    backend::clear_session();
    const Row& row = table().at(name);
    auto layer = layers::from_config(name, Config::parse(row.config));
    std::vector<KerasTensor> inputs;
    for (const Shape& shape : row.inputs) inputs.push_back(Input(shape));
    auto model = Functional(inputs, (*layer)(inputs));
    Config config = Config::parse(model->to_json());
    const Config& args = config["config"]["layers"].back()["inbound_nodes"][0]["args"];
    bool positional = name == "MultiHeadAttention" || name == "GroupedQueryAttention";
    ASSERT_EQ(args.size(), positional ? 2u : 1u) << name << ": " << args.dump();
    const Config& first = positional ? args[0] : args[0][0];
    EXPECT_EQ(first["class_name"], "__keras_tensor__") << name;
    EXPECT_EQ(first["config"]["keras_history"][0], "input_layer") << name;
  }
}

// The flags of a MultiHeadAttention call (use_causal_mask, return_attention_scores) are the
// node's keyword arguments, as Keras records them; before, a reloaded model lost them silently.
TEST(LayerRoundTripGraphs, AttentionCallFlagsAreRecorded) {
  backend::clear_session();
  auto q = Input({3, 4});
  auto v = Input({5, 4});
  auto causal = std::dynamic_pointer_cast<layers::MultiHeadAttentionBase>(layers::from_config(
      "MultiHeadAttention", Config::parse(R"({"num_heads": 2, "key_dim": 2})")));
  auto scored = std::dynamic_pointer_cast<layers::MultiHeadAttentionBase>(layers::from_config(
      "GroupedQueryAttention",
      Config::parse(R"({"head_dim": 2, "num_query_heads": 2, "num_key_value_heads": 1})")));
  KerasTensor a = causal->call_with(q, q, {.use_causal_mask = true})[0];
  std::vector<KerasTensor> b = scored->call_with(a, v, {.return_attention_scores = true});
  auto model = Functional(std::vector<KerasTensor>{q, v}, b);
  std::map<std::string, Config> kwargs;
  Config config = Config::parse(model->to_json());
  for (const Config& layer : config["config"]["layers"])
    if (!layer["inbound_nodes"].empty())
      kwargs[layer["class_name"].get<std::string>()] = layer["inbound_nodes"][0]["kwargs"];
  EXPECT_EQ(kwargs["MultiHeadAttention"], Config({{"use_causal_mask", true}}));
  // Keras 3.15 records the class as GroupQueryAttention (its exported name).
  EXPECT_EQ(kwargs["GroupQueryAttention"], Config({{"return_attention_scores", true}}));

  std::string path = temp_path("attention_flags.keras");
  model->save(path);
  auto loaded = saving::load_model(path);
  EXPECT_EQ(loaded->to_json(), model->to_json());
  TensorList x{uniform({2, 3, 4}, 5), uniform({2, 5, 4}, 6)};
  TensorStruct p = model->predict(x, {.verbose = 0});
  TensorStruct r = loaded->predict(x, {.verbose = 0});
  ASSERT_EQ(r.list().size(), 2u);
  EXPECT_TENSOR_EQ(r.list()[0], p.list()[0]);
  EXPECT_TENSOR_EQ(r.list()[1], p.list()[1]);
}

TEST(LayerRoundTripTable, CoversEveryRegisteredLayerClass) {
  std::vector<std::string> missing;
  for (const std::string& name : layers::registered_layers())
    if (!table().count(name) && !not_rows().count(name)) missing.push_back(name);
  EXPECT_TRUE(missing.empty()) << "registered layer classes without a round-trip row: "
                               << ::testing::PrintToString(missing);
  // Every alias names a class that has a row, and is registered to the same factory's class.
  for (const auto& [alias, target] : not_rows()) {
    if (target.find(' ') != std::string::npos) continue;
    EXPECT_TRUE(table().count(target)) << alias << " -> " << target;
  }
  // An alias builds its target class (the row's config read under the alias's name).
  for (const auto& [alias, target] : not_rows()) {
    if (!table().count(target)) continue;
    backend::clear_session();
    const Row& row = table().at(target);
    EXPECT_EQ(layers::from_config(alias, Config::parse(row.config))->class_name(), target) << alias;
  }
  // And the table has no stale rows.
  std::set<std::string> registered;
  for (const std::string& name : layers::registered_layers()) registered.insert(name);
  for (const auto& [name, row] : table()) EXPECT_TRUE(registered.count(name)) << name;
}

}  // namespace
}  // namespace keras
