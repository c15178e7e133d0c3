// The model builders of the ONNX export check (onnx_models.h). Most are Functional models that
// fan one input out to several layers, one output per layer, so that a mismatch names the
// layer (the ONNX output is named after it).

#include "onnx_models.h"

#include "../../examples/functional_graph_model.h"

namespace keras::onnx_check {
namespace {

namespace layers = keras::layers;
using Tensors = std::vector<KerasTensor>;
using Layers = std::vector<LayerPtr<>>;

// A Functional model applying each of `branches` to `x`: one output each.
ModelPtr<Model> fan_out(const KerasTensor& x, const Layers& branches, const std::string& name) {
  Tensors outputs;
  for (const auto& layer : branches) outputs.push_back(layer(x));
  return Functional(Tensors{x}, outputs, {.name = name});
}

// The same for several inputs: inputs[i] goes through each layer of branches[i].
ModelPtr<Model> fan_out(const Tensors& inputs, const std::vector<Layers>& branches,
                        const std::string& name) {
  Tensors outputs;
  for (size_t i = 0; i < inputs.size(); ++i)
    for (const auto& layer : branches[i]) outputs.push_back(layer(inputs[i]));
  return Functional(inputs, outputs, {.name = name});
}

// ---- core and activations --------------------------------------------------------------------

// Every activation name apply_activation maps, and a Dense without bias.
ModelPtr<Model> dense_activations() {
  auto x = Input({6}, {.name = "x"});
  Tensors outputs{layers::Dense(5, {.use_bias = false, .name = "dense_no_bias"})(x)};
  for (const char* a : {"relu", "sigmoid", "tanh", "softmax", "log_softmax", "elu", "selu",
                        "softplus", "softsign", "exponential", "relu6", "leaky_relu",
                        "hard_sigmoid", "hard_silu", "silu", "mish", "gelu", "linear"})
    outputs.push_back(layers::Dense(4, {.activation = a, .name = std::string("dense_") + a})(x));
  return Functional(Tensors{x}, outputs, {.name = "dense_activations"});
}

ModelPtr<Model> activation_layers() {
  return fan_out(
      Input({5, 4}, {.name = "x"}),
      {layers::Activation("tanh"), layers::Activation("gelu"), layers::ReLU(),
       layers::ReLU({.max_value = 1.5}), layers::ReLU({.negative_slope = 0.1, .threshold = 0.5}),
       layers::ReLU({.max_value = 1.0, .threshold = 0.2}), layers::ReLU({.negative_slope = 0.2}),
       layers::LeakyReLU(), layers::LeakyReLU({.negative_slope = 0.15}), layers::ELU(),
       layers::ELU({.alpha = 0.7}), layers::Softmax(), layers::Softmax({.axis = 1})},
      "activation_layers");
}

// PReLU with alpha shared over the spatial axes of a conv output, and unshared.
ModelPtr<Model> prelu() {
  auto x = Input({6, 6, 3}, {.name = "x"});
  auto conv = layers::Conv2D(4, 3, {.padding = "same"})(x);
  return Functional(Tensors{x},
                    Tensors{layers::PReLU({.shared_axes = {1, 2}})(conv),
                            layers::PReLU({.name = "prelu_full"})(x)},
                    {.name = "prelu"});
}

// ---- convolutions ----------------------------------------------------------------------------

ModelPtr<Model> conv1d() {
  return fan_out(
      Input({12, 3}, {.name = "x"}),
      {layers::Conv1D(4, 3, {.padding = "causal", .dilation_rate = 2, .activation = "relu"}),
       layers::Conv1D(5, 3, {.strides = 2, .padding = "same"}),
       layers::Conv1D(4, 2, {.strides = 2, .padding = "same", .use_bias = false}),
       layers::Conv1D(3, 4)},
      "conv1d");
}

ModelPtr<Model> conv2d() {
  return fan_out(
      Input({10, 10, 4}, {.name = "x"}),
      {layers::Conv2D(3, 3), layers::Conv2D(5, 3, {.strides = 2, .padding = "same"}),
       layers::Conv2D(4, 2, {.padding = "same"}),
       layers::Conv2D(6, 3, {.padding = "same", .groups = 2, .activation = "tanh"}),
       layers::Conv2D(3, 3, {.dilation_rate = 2}),
       layers::Conv2D(3, {3, 2}, {.strides = {2, 1}, .padding = "same", .use_bias = false})},
      "conv2d");
}

// channels_first: the converters' branch that needs no Transpose, and its spatial axes.
ModelPtr<Model> channels_first() {
  const std::string cf = "channels_first";
  return fan_out(
      Input({3, 8, 6}, {.name = "x"}),
      {layers::Conv2D(4, 3, {.strides = 2, .padding = "same", .data_format = cf}),
       layers::Conv2D(2, 3, {.data_format = cf}), layers::MaxPooling2D(2, {.data_format = cf}),
       layers::AveragePooling2D(3, {.strides = 2, .padding = "same", .data_format = cf}),
       layers::GlobalAveragePooling2D({.data_format = cf}),
       layers::GlobalMaxPooling2D({.data_format = cf, .keepdims = true}),
       layers::ZeroPadding2D({{1, 0}, {0, 2}}, {.data_format = cf}),
       layers::Cropping2D({{1, 0}, {0, 2}}, {.data_format = cf}),
       layers::UpSampling2D(2, {.data_format = cf}),
       layers::UpSampling2D(2, {.data_format = cf, .interpolation = "bilinear"}),
       layers::BatchNormalization({.axis = 1})},
      "channels_first");
}

ModelPtr<Model> conv3d() {
  return fan_out(
      Input({6, 6, 5, 2}, {.name = "x"}),
      {layers::Conv3D(3, 3, {.strides = 2, .padding = "same"}), layers::Conv3D(2, {2, 3, 2})},
      "conv3d");
}

ModelPtr<Model> depthwise() {
  return fan_out(
      {Input({8, 8, 3}, {.name = "image"}), Input({10, 3}, {.name = "sequence"})},
      {{layers::DepthwiseConv2D(3, {.padding = "same", .depth_multiplier = 2}),
        layers::DepthwiseConv2D(3, {.strides = 2, .activation = "relu", .use_bias = false})},
       {layers::DepthwiseConv1D(3, {.padding = "same", .depth_multiplier = 2}),
        layers::DepthwiseConv1D(2, {.strides = 2})}},
      "depthwise");
}

ModelPtr<Model> separable() {
  return fan_out({Input({8, 8, 3}, {.name = "image"}), Input({10, 3}, {.name = "sequence"})},
                 {{layers::SeparableConv2D(5, 3, {.padding = "same", .depth_multiplier = 2}),
                   layers::SeparableConv2D(4, 3, {.strides = 2, .use_bias = false})},
                  {layers::SeparableConv1D(4, 3, {.padding = "same"}),
                   layers::SeparableConv1D(4, 3, {.dilation_rate = 2, .activation = "tanh"})}},
                 "separable");
}

ModelPtr<Model> conv_transpose() {
  return fan_out(
      {Input({5, 5, 3}, {.name = "image"}), Input({7, 3}, {.name = "sequence"}),
       Input({3, 3, 2, 2}, {.name = "volume"})},
      {{layers::Conv2DTranspose(4, 3),
        layers::Conv2DTranspose(4, 3, {.strides = 2, .padding = "same"}),
        layers::Conv2DTranspose(4, 3, {.strides = 2, .output_padding = 1}),
        layers::Conv2DTranspose(2, 3, {.strides = 2, .padding = "same", .output_padding = 1}),
        layers::Conv2DTranspose(3, 2, {.strides = 2}),
        layers::Conv2DTranspose(2, {3, 2}, {.strides = {2, 1}, .use_bias = false}),
        layers::Conv2DTranspose(2, 3, {.dilation_rate = 2}),
        layers::Conv2DTranspose(2, 4, {.strides = 2, .padding = "same"}),
        layers::Conv2DTranspose(2, 2, {.strides = 2, .padding = "same"})},
       {layers::Conv1DTranspose(4, 3, {.strides = 2, .padding = "same"}),
        layers::Conv1DTranspose(3, 4, {.strides = 3, .activation = "relu"}),
        layers::Conv1DTranspose(3, 3, {.strides = 2, .padding = "same", .output_padding = 1})},
       {layers::Conv3DTranspose(2, 3, {.strides = 2, .padding = "same"}),
        layers::Conv3DTranspose(2, 2)}},
      "conv_transpose");
}

// ---- pooling and spatial reshaping -----------------------------------------------------------

ModelPtr<Model> pooling1d() {
  return fan_out(
      Input({11, 4}, {.name = "x"}),
      {layers::MaxPooling1D(2), layers::MaxPooling1D(3, {.strides = 2, .padding = "same"}),
       layers::AveragePooling1D(3, {.strides = 2, .padding = "same"}), layers::AveragePooling1D(2),
       layers::GlobalAveragePooling1D(), layers::GlobalAveragePooling1D({.keepdims = true}),
       layers::GlobalMaxPooling1D(), layers::GlobalMaxPooling1D({.keepdims = true})},
      "pooling1d");
}

ModelPtr<Model> pooling2d() {
  return fan_out(
      Input({9, 7, 3}, {.name = "x"}),
      {layers::MaxPooling2D(2), layers::MaxPooling2D({3, 2}, {.strides = 2, .padding = "same"}),
       layers::AveragePooling2D({3, 2}, {.strides = ops::IntOrTuple{2, 1}, .padding = "same"}),
       layers::AveragePooling2D(2), layers::AveragePooling2D(2, {.strides = 1, .padding = "same"}),
       layers::MaxPooling2D(2, {.strides = 1, .padding = "same"}), layers::GlobalAveragePooling2D(),
       layers::GlobalAveragePooling2D({.keepdims = true}), layers::GlobalMaxPooling2D(),
       layers::GlobalMaxPooling2D({.keepdims = true})},
      "pooling2d");
}

ModelPtr<Model> pooling3d() {
  return fan_out(
      Input({5, 6, 4, 2}, {.name = "x"}),
      {layers::MaxPooling3D(2), layers::MaxPooling3D(3, {.strides = 2, .padding = "same"}),
       layers::AveragePooling3D(2, {.padding = "same"}), layers::AveragePooling3D(2),
       layers::GlobalAveragePooling3D(), layers::GlobalMaxPooling3D({.keepdims = true})},
      "pooling3d");
}

ModelPtr<Model> padding_cropping() {
  return fan_out({Input({6, 3}, {.name = "sequence"}), Input({5, 4, 2}, {.name = "image"}),
                  Input({3, 4, 3, 2}, {.name = "volume"})},
                 {{layers::ZeroPadding1D({1, 2}), layers::Cropping1D({1, 2})},
                  {layers::ZeroPadding2D({{1, 0}, {2, 1}}), layers::ZeroPadding2D(2),
                   layers::Cropping2D({{1, 0}, {0, 2}})},
                  {layers::ZeroPadding3D({{1, 0}, {0, 2}, {1, 1}}),
                   layers::Cropping3D({{1, 0}, {0, 1}, {1, 1}})}},
                 "padding_cropping");
}

ModelPtr<Model> upsampling() {
  return fan_out(
      {Input({5, 2}, {.name = "sequence"}), Input({4, 3, 2}, {.name = "image"}),
       Input({2, 3, 2, 2}, {.name = "volume"})},
      {{layers::UpSampling1D(3)},
       {layers::UpSampling2D({2, 3}), layers::UpSampling2D(2, {.interpolation = "bilinear"}),
        layers::UpSampling2D({3, 2}, {.interpolation = "bilinear"})},
       {layers::UpSampling3D({2, 1, 2})}},
      "upsampling");
}

// ---- normalization ---------------------------------------------------------------------------

ModelPtr<Model> batch_norm() {
  return fan_out({Input({4, 4, 3}, {.name = "image"}), Input({3, 5}, {.name = "sequence"})},
                 {{layers::BatchNormalization(),
                   layers::BatchNormalization({.epsilon = 0.01, .center = false, .scale = false})},
                  {layers::BatchNormalization({.axis = 1})}},
                 "batch_norm");
}

ModelPtr<Model> layer_norm() {
  return fan_out(
      Input({5, 6}, {.name = "x"}),
      {layers::LayerNormalization(), layers::LayerNormalization({.axis = std::vector<int>{1, 2}}),
       layers::LayerNormalization({.axis = 1}),
       layers::LayerNormalization({.center = false, .scale = false}),
       layers::LayerNormalization({.axis = 1, .center = false}),
       layers::LayerNormalization({.rms_scaling = true}), layers::RMSNormalization(),
       layers::RMSNormalization({.axis = std::vector<int>{1, 2}, .epsilon = 1e-3})},
      "layer_norm");
}

// ---- reshaping, merging, embedding, inference-only and preprocessing layers -------------------

ModelPtr<Model> reshaping() {
  return fan_out({Input({4, 6}, {.name = "x"}), Input({5}, {.name = "v"})},
                 {{layers::Flatten(), layers::Reshape({3, -1}), layers::Reshape({-1, 2, 3}),
                   layers::Permute({2, 1})},
                  {layers::RepeatVector(3)}},
                 "reshaping");
}

ModelPtr<Model> merging() {
  auto a = Input({4, 5}, {.name = "a"});
  auto b = Input({4, 5}, {.name = "b"});
  auto c = Input({4, 5}, {.name = "c"});
  return Functional(
      Tensors{a, b, c},
      Tensors{layers::add({a, b, c}), layers::subtract({a, b}), layers::multiply({a, b, c}),
              layers::average({a, b}), layers::average({a, b, c}), layers::maximum({a, b, c}),
              layers::minimum({a, b}), layers::concatenate({a, b, c}, 1),
              layers::concatenate({a, b})},
      {.name = "merging"});
}

ModelPtr<Model> embedding() {
  return Sequential({Input({7}, {.dtype = DType::Int32, .name = "ids"}), layers::Embedding(20, 8),
                     layers::GlobalAveragePooling1D(), layers::Dense(3, {.activation = "softmax"})},
                    {.name = "embedding"});
}

// LoRA on every layer class that has it (Dense, EinsumDense, Conv1D, Embedding): the graph holds
// each merged weight, base + (lora_alpha / rank) * A @ B (the adapters are randomized too, so
// the update counts).
ModelPtr<Model> lora_layers() {
  auto x = Input({7, 3}, {.name = "x"});
  auto ids = Input({5}, {.dtype = DType::Int32, .name = "ids"});
  auto conv = layers::Conv1D(4, 3, {.lora_rank = 2, .lora_alpha = 4.0})(x);
  auto einsum = layers::EinsumDense("abc,cd->abd", {layers::kNone, 3},
                                    {.bias_axes = "d", .lora_rank = 1})(conv);
  auto dense = layers::Dense(2, {.lora_rank = 2, .lora_alpha = 3.0})(layers::Flatten()(einsum));
  auto embedded = layers::Embedding(20, 4, {.lora_rank = 2})(ids);
  return Functional(Tensors{x, ids}, Tensors{dense, embedded}, {.name = "lora_layers"});
}

// Embedding(mask_zero=True): Keras's mask changes what GlobalAveragePooling1D (the mean over
// unmasked steps) and LSTM (masked steps carry the state over) compute.
ModelPtr<Model> embedding_mask_zero() {
  auto ids = Input({7}, {.dtype = DType::Int32, .name = "ids"});
  auto e = layers::Embedding(20, 8, {.mask_zero = true})(ids);
  return Functional(Tensors{ids}, Tensors{layers::GlobalAveragePooling1D()(e), layers::LSTM(4)(e)},
                    {.name = "embedding_mask_zero"});
}

// Masks through every layer that makes, passes on or reads one in an export: Embedding's
// mask_zero on ids padded at the end of row 0 and at the start of row 1, Masking on steps of
// zeros (row 2 masked whole); Dense, LayerNormalization and Dropout pass the mask on; LSTM, GRU
// (reset_after both ways) and SimpleRNN with return_sequences, go_backwards, return_state,
// initial states and zero_output_for_mask; Bidirectional; GlobalAveragePooling1D after a
// recurrent layer that returns sequences.
ModelPtr<Model> masked_recurrent() {
  auto ids = Input({7}, {.dtype = DType::Int32, .name = "ids"});
  auto padded = Input({7, 3}, {.name = "padded_steps"});
  auto h0 = Input({4}, {.name = "h0"});
  auto c0 = Input({4}, {.name = "c0"});
  auto e = layers::Embedding(20, 5, {.mask_zero = true})(ids);
  auto d = layers::Dropout(0.5)(
      layers::LayerNormalization()(layers::Dense(6, {.activation = "tanh"})(e)));
  auto m = layers::Masking({.mask_value = 0.0})(padded);
  auto zero_outputs = layers::SimpleRNN(3, {.return_sequences = true});
  zero_outputs->set_zero_output_for_mask(true);  // as Bidirectional sets it
  Tensors outputs{
      layers::GlobalAveragePooling1D()(layers::LSTM(4, {.return_sequences = true})(d)),
      layers::GRU(4, {.return_sequences = true, .go_backwards = true})(d),
      layers::GRU(3, {.reset_after = false})(d),
      zero_outputs(d),
      layers::LSTM(3, {.go_backwards = true})(m),
      layers::Bidirectional(layers::LSTM(3, {.return_sequences = true}))(d),
      layers::Bidirectional(layers::GRU(2), {.merge_mode = "sum"})(m),
      layers::GlobalAveragePooling1D()(m)};
  for (const Tensors& more :
       {layers::LSTM(4, {.return_state = true, .name = "lstm_init"})(Tensors{m, h0, c0}),
        layers::GRU(4, {.return_sequences = true, .return_state = true,
                        .name = "gru_init"})(Tensors{d, h0})})
    outputs.insert(outputs.end(), more.begin(), more.end());
  return Functional(Tensors{ids, padded, h0, c0}, outputs, {.name = "masked_recurrent"});
}

// ConvLSTM1D/2D/3D (a Scan over the time axis, dynamic in `frames`): padding valid and same,
// strides, dilation, channels_first, go_backwards, return_sequences, return_state, initial
// states, other activations.
ModelPtr<Model> conv_lstm() {
  auto frames = Input({kUnknownDim, 6, 6, 2}, {.name = "frames"});
  auto h0 = Input({6, 6, 3}, {.name = "h0"});
  auto c0 = Input({6, 6, 3}, {.name = "c0"});
  auto seq = Input({4, 9, 3}, {.name = "seq"});
  auto volume = Input({3, 4, 4, 4, 2}, {.name = "volume"});
  auto frames_cf = Input({4, 2, 6, 5}, {.name = "frames_cf"});
  Tensors outputs{
      layers::ConvLSTM2D(3, 3, {.padding = "same", .return_sequences = true})(frames),
      layers::ConvLSTM2D(2, 3, {.strides = 2, .go_backwards = true})(frames),
      layers::ConvLSTM1D(4, 3, {.dilation_rate = 2, .return_sequences = true,
                                .go_backwards = true})(seq),
      layers::ConvLSTM3D(2, 2, {.padding = "same"})(volume)};
  for (const Tensors& more :
       {layers::ConvLSTM2D(2, {3, 2}, {.data_format = "channels_first", .activation = "relu",
                                       .recurrent_activation = "hard_sigmoid",
                                       .return_state = true, .name = "conv_lstm_cf"})(
            Tensors{frames_cf}),
        layers::ConvLSTM2D(3, 3, {.padding = "same", .return_sequences = true,
                                  .name = "conv_lstm_init"})(Tensors{frames, h0, c0})})
    outputs.insert(outputs.end(), more.begin(), more.end());
  return Functional(Tensors{frames, h0, c0, seq, volume, frames_cf}, outputs,
                    {.name = "conv_lstm"});
}

// Masks into attention (a text encoder with padding): MultiHeadAttention merges the query and
// value masks (with the causal mask in one call), GroupedQueryAttention too; the query mask
// passes on through a residual Add and LayerNormalization into a masked
// GlobalAveragePooling1D; Attention and AdditiveAttention (causal) mask values and query rows;
// Concatenate joins masks.
ModelPtr<Model> masked_attention() {
  auto ids = Input({7}, {.dtype = DType::Int32, .name = "ids"});
  auto e = layers::Embedding(20, 8, {.mask_zero = true})(ids);
  auto a = layers::MultiHeadAttention(2, 4, {.name = "mha"})(e, e);
  auto x = layers::LayerNormalization()(layers::Add()(Tensors{e, a}).at(0));
  Tensors outputs{
      layers::GlobalAveragePooling1D()(x),
      layers::MultiHeadAttention(2, 4, {.name = "mha_causal"})(e, e, {.use_causal_mask = true}),
      layers::GroupedQueryAttention(4, 2, 2, {.name = "gqa"})(e, e),
      layers::Attention({.use_scale = true, .name = "attention"})(Tensors{e, e}).at(0),
      layers::AdditiveAttention({.name = "additive_causal"})
          ->call_with(Tensors{e, e}, {.use_causal_mask = true})
          .at(0),
      // Concatenate joins masks: both inputs masked, and one masked beside one that is not
      // (Conv1D drops the mask: its part counts as unmasked).
      layers::GlobalAveragePooling1D()(layers::Concatenate()(
          Tensors{layers::LSTM(3, {.return_sequences = true})(e), e}).at(0)),
      layers::GlobalAveragePooling1D()(
          layers::Concatenate()(Tensors{e, layers::Conv1D(3, 1)(e)}).at(0))};
  return Functional(Tensors{ids}, outputs, {.name = "masked_attention"});
}

// Masks into the merging layers that read them: Multiply (a masked entry counts as 1, and 0
// where every input is masked), Maximum and Minimum (a masked entry takes the other operand),
// each with both inputs masked and with one input whose mask a Conv1D dropped; their output
// masks (the union where every input has one) read by GlobalAveragePooling1D and an LSTM; Dot
// drops the masks. Two id inputs padded differently ("ids_shifted": export_models.cpp), so
// that the masks differ.
ModelPtr<Model> masked_merges() {
  auto ids = Input({7}, {.dtype = DType::Int32, .name = "ids"});
  auto ids_b = Input({7}, {.dtype = DType::Int32, .name = "ids_shifted"});
  auto a = layers::Embedding(20, 4, {.mask_zero = true})(ids);
  auto b = layers::Embedding(20, 4, {.mask_zero = true})(ids_b);
  auto unmasked = layers::Conv1D(4, 1)(a);
  Tensors outputs;
  for (Tensors pair : {Tensors{a, b}, Tensors{a, unmasked}}) {
    for (const KerasTensor& merged :
         {layers::Multiply()(pair).at(0), layers::Maximum()(pair).at(0),
          layers::Minimum()(pair).at(0)}) {
      outputs.push_back(merged);
      outputs.push_back(layers::GlobalAveragePooling1D()(merged));
    }
  }
  outputs.push_back(layers::LSTM(3)(layers::Multiply()(Tensors{a, b, a}).at(0)));
  outputs.push_back(layers::Dot(2)(Tensors{a, b}).at(0));
  return Functional(Tensors{ids, ids_b}, outputs, {.name = "masked_merges"});
}

// A mask that reaches a layer whose masked call has no ONNX form (TimeDistributed hands it to
// its layer step by step): export refuses it by name.
ModelPtr<Model> masked_refused() {
  auto ids = Input({7}, {.dtype = DType::Int32, .name = "ids"});
  auto e = layers::Embedding(20, 5, {.mask_zero = true})(ids);
  return Functional(Tensors{ids}, Tensors{layers::TimeDistributed(layers::Dense(3))(e)},
                    {.name = "masked_refused"});
}

// A Sequential model with a mask: Masking, then a recurrent layer.
ModelPtr<Model> masked_sequential() {
  return Sequential({Input({7, 3}, {.name = "padded_steps"}), layers::Masking({.mask_value = 0.0}),
                     layers::GRU(4, {.return_sequences = true}), layers::LSTM(2)},
                    {.name = "masked_sequential"});
}

// The adaptive poolings: extents the output sizes divide and do not (windows that overlap or
// differ in size), more outputs than inputs along an axis, both data formats.
ModelPtr<Model> adaptive_pooling() {
  auto sequence = Input({7, 3}, {.name = "sequence"});
  auto image = Input({7, 5, 2}, {.name = "image"});
  auto volume = Input({5, 4, 6, 2}, {.name = "volume"});
  return Functional(
      Tensors{sequence, image, volume},
      Tensors{layers::AdaptiveAveragePooling1D(3)(sequence),
              layers::AdaptiveMaxPooling1D(4)(sequence),
              layers::AdaptiveAveragePooling2D({3, 2})(image),
              layers::AdaptiveMaxPooling2D({4, 5})(image),
              layers::AdaptiveAveragePooling2D({2, 3}, {.data_format = "channels_first"})(image),
              layers::AdaptiveAveragePooling3D({2, 3, 4})(volume),
              layers::AdaptiveMaxPooling3D({3, 2, 5})(volume)},
      {.name = "adaptive_pooling"});
}

// Discretization (int, one_hot, multi_hot, count) and CategoryEncoding (multi_hot, count,
// one_hot of a (batch, 1) id). The harness's ids lie in [0, 20), past num_tokens 12: those
// make all-zero vectors, as in keras-cpp.
ModelPtr<Model> categories() {
  auto x = Input({5}, {.name = "x"});
  auto ids = Input({4}, {.dtype = DType::Int32, .name = "ids"});
  auto id = Input({1}, {.dtype = DType::Int32, .name = "id"});
  const std::vector<double> bounds{-1.0, -0.2, 0.3, 1.1};
  Tensors outputs{layers::Discretization({.bin_boundaries = bounds})(x)};
  for (const char* mode : {"one_hot", "multi_hot", "count"})
    outputs.push_back(layers::Discretization({.bin_boundaries = bounds, .output_mode = mode})(x));
  outputs.push_back(layers::CategoryEncoding(12, {.output_mode = "multi_hot"})(ids));
  outputs.push_back(layers::CategoryEncoding(12, {.output_mode = "count"})(ids));
  outputs.push_back(layers::CategoryEncoding(12, {.output_mode = "one_hot"})(id));
  return Functional(Tensors{x, ids, id}, outputs, {.name = "categories"});
}

// The layers that vanish in inference, chained, then a layer so that the output is computed.
ModelPtr<Model> inference_identity() {
  auto image = Input({6, 6, 3}, {.name = "image"});
  auto h = image;
  for (const LayerPtr<>& layer :
       Layers{layers::Dropout(0.5), layers::SpatialDropout2D(0.3), layers::GaussianNoise(0.2),
              layers::GaussianDropout(0.3), layers::AlphaDropout(0.2),
              layers::ActivityRegularization({.l1 = 0.01}), layers::Identity()})
    h = layer(h);
  auto sequence = Input({5, 3}, {.name = "sequence"});
  auto volume = Input({2, 3, 3, 2}, {.name = "volume"});
  return Functional(
      Tensors{image, sequence, volume},
      Tensors{layers::Conv2D(2, 1)(h), layers::Dense(2)(layers::SpatialDropout1D(0.2)(sequence)),
              layers::Dense(2)(layers::SpatialDropout3D(0.2)(volume))},
      {.name = "inference_identity"});
}

ModelPtr<Model> preprocessing() {
  const auto vec = [](std::vector<float> v) {
    const auto n = static_cast<int64_t>(v.size());
    return Tensor::from_vector(std::move(v), Shape{n});
  };
  return fan_out(
      {Input({4, 3}, {.name = "x"}), Input({4, 3}, {.dtype = DType::Int32, .name = "pixels"})},
      {{layers::Rescaling(0.5, {.offset = -0.25}), layers::Rescaling({0.5, 2.0, -1.0}),
        layers::Rescaling({0.5, 2.0, -1.0}, {.offset = {0.1, 0.2, 0.3}}),
        layers::Normalization({.mean = vec({1, 2, 3}), .variance = vec({4, 0.25, 1})}),
        layers::Normalization(
            {.mean = vec({1, 2, 3}), .variance = vec({4, 0.25, 1}), .invert = true}),
        layers::Normalization(
            {.axis = {1}, .mean = vec({0, 1, 2, 3}), .variance = vec({1, 2, 0.5, 4})})},
       {layers::Rescaling(1.0 / 255)}},
      "preprocessing");
}

// ---- recurrent -------------------------------------------------------------------------------

ModelPtr<Model> lstm() {
  return fan_out(
      Input({6, 4}, {.name = "x"}),
      {layers::LSTM(5, {.return_sequences = true}), layers::LSTM(5, {.go_backwards = true}),
       layers::LSTM(4, {.return_sequences = true, .go_backwards = true}),
       layers::LSTM(3, {.use_bias = false}), layers::LSTM(3, {.activation = "relu"})},
      "lstm");
}

ModelPtr<Model> gru() {
  return fan_out(
      Input({6, 4}, {.name = "x"}),
      {layers::GRU(5, {.return_sequences = true}), layers::GRU(4, {.reset_after = false}),
       layers::GRU(4, {.return_sequences = true, .go_backwards = true}),
       layers::GRU(3, {.go_backwards = true, .reset_after = false}),
       layers::GRU(3, {.use_bias = false})},
      "gru");
}

ModelPtr<Model> simple_rnn() {
  return fan_out(
      Input({6, 4}, {.name = "x"}),
      {layers::SimpleRNN(5, {.return_sequences = true}),
       layers::SimpleRNN(4, {.go_backwards = true}), layers::SimpleRNN(3, {.activation = "relu"}),
       layers::SimpleRNN(3, {.use_bias = false, .return_sequences = true})},
      "simple_rnn");
}

// return_state, and initial states given as model inputs (x, h0, c0).
ModelPtr<Model> rnn_states() {
  auto x = Input({6, 4}, {.name = "x"});
  auto h0 = Input({5}, {.name = "h0"});
  auto c0 = Input({5}, {.name = "c0"});
  Tensors outputs = layers::LSTM(4, {.return_state = true, .name = "lstm_state"})(Tensors{x});
  for (const Tensors& more :
       {layers::LSTM(5, {.return_sequences = true, .return_state = true, .name = "lstm_init"})(
            Tensors{x, h0, c0}),
        layers::GRU(5, {.return_state = true, .name = "gru_init"})(Tensors{x, h0}),
        layers::SimpleRNN(5, {.go_backwards = true, .name = "rnn_init"})(Tensors{x, h0})})
    outputs.insert(outputs.end(), more.begin(), more.end());
  return Functional(Tensors{x, h0, c0}, outputs, {.name = "rnn_states"});
}

// ---- model structure -------------------------------------------------------------------------

// A nested Sequential and a nested Functional model inside a Functional one.
ModelPtr<Model> nested() {
  auto inner_seq =
      Sequential({Input({8}), layers::Dense(6, {.activation = "relu"}), layers::Dense(4)},
                 {.name = "inner_sequential"});
  auto inner_in = Input({4});
  auto inner_fn = Functional(
      inner_in, layers::Dense(3, {.activation = "tanh"})(layers::BatchNormalization()(inner_in)),
      {.name = "inner_functional"});
  auto x = Input({8}, {.name = "x"});
  return Functional(x, layers::Dense(2)(inner_fn(inner_seq(x))), {.name = "nested"});
}

// A layer and a nested model each called twice (one set of weights, several graph nodes), a
// Dense on a rank-3 input, and a Sequential nested in a Sequential.
ModelPtr<Model> shared_layers() {
  auto a = Input({4, 5}, {.name = "left"});
  auto b = Input({4, 5}, {.name = "right"});
  auto tower = layers::Dense(3, {.activation = "tanh", .name = "tower"});
  auto inner_in = Input({4, 3});
  auto encoder = Functional(inner_in, layers::GlobalAveragePooling1D()(layers::Dense(2)(inner_in)),
                            {.name = "encoder"});
  auto left = encoder(tower(a));
  auto right = encoder(tower(b));
  return Functional(Tensors{a, b}, Tensors{layers::subtract({left, right}), tower(a)},
                    {.name = "shared_layers"});
}

ModelPtr<Model> nested_sequential() {
  auto inner =
      Sequential({Input({6}), layers::Dense(4, {.activation = "relu"})}, {.name = "inner"});
  return Sequential({Input({6}), inner, layers::Dense(2)}, {.name = "nested_sequential"});
}

ModelPtr<Model> multi_io() {
  auto a = Input({6}, {.name = "features"});
  auto b = Input({5, 3}, {.name = "sequence"});
  auto h = layers::concatenate({layers::Dense(5, {.activation = "relu"})(a), layers::LSTM(5)(b)});
  return Functional(Tensors{a, b},
                    Tensors{layers::Dense(3, {.activation = "softmax", .name = "label"})(h),
                            layers::Dense(1, {.name = "score"})(h)},
                    {.name = "multi_io"});
}

// examples/functional_graph_model.h: keras::ops on symbolic tensors become operation nodes.
ModelPtr<Model> example_graph() {
  return functional_graph_model();
}

// ---- wrappers, more normalization, image preprocessing ---------------------------------------

ModelPtr<Model> more_normalization() {
  return fan_out(Input({6, 5, 8}, {.name = "x"}),
                 {layers::GroupNormalization(4), layers::GroupNormalization(2, {.axis = 1}),
                  layers::GroupNormalization(8, {.center = false}),
                  layers::GroupNormalization(1, {.scale = false}), layers::UnitNormalization(),
                  layers::UnitNormalization({.axis = {1, 2}})},
                 "more_normalization");
}

// Images at inference: the random augmentations pass them through; crops and resizes.
ModelPtr<Model> image_preprocessing() {
  return fan_out(Input({9, 10, 3}, {.name = "x"}),
                 {layers::RandomFlip(), layers::RandomContrast(0.5), layers::CenterCrop(5, 4),
                  layers::CenterCrop(9, 10), layers::Resizing(6, 7), layers::Resizing(14, 16)},
                 "image_preprocessing");
}

ModelPtr<Model> wrappers() {
  auto seq = Input({6, 4}, {.name = "seq"});
  auto frames = Input({3, 6, 6, 2}, {.name = "frames"});
  Tensors outputs{
      layers::TimeDistributed(layers::Dense(5, {.activation = "relu"}))(seq),
      layers::TimeDistributed(layers::Conv2D(3, 3, {.padding = "same"}))(frames),
      layers::Bidirectional(layers::LSTM(4, {.return_sequences = true}))(seq),
      layers::Bidirectional(layers::GRU(3), {.merge_mode = "sum"})(seq),
      layers::Bidirectional(layers::SimpleRNN(3, {.return_sequences = true}),
                            {.merge_mode = "ave"})(seq),
      layers::Bidirectional(layers::LSTM(2), {.merge_mode = "mul"})(seq)};
  return Functional(Tensors{seq, frames}, outputs, {.name = "wrappers"});
}

// ---- attention (convert_attention.cpp) ------------------------------------------------------

// EinsumDense equations: plain, with a permuted kernel, elided axes, two contracted axes, a
// permuted output, a rank-4 input; with and without bias and activation.
ModelPtr<Model> einsum_dense() {
  auto x = Input({5, 6}, {.name = "x"});
  auto x4 = Input({5, 2, 3}, {.name = "x4"});
  Tensors outputs;
  auto add = [&](const KerasTensor& in, const std::string& eq, std::vector<int64_t> shape,
                 layers::EinsumDenseOptions o) { outputs.push_back(layers::EinsumDense(eq, shape, o)(in)); };
  add(x, "abc,cd->abd", {5, 4}, {.activation = "relu", .bias_axes = "d"});
  add(x, "abc,cde->abde", {5, 2, 3}, {.bias_axes = "de"});
  add(x, "abc,dc->abd", {layers::kNone, 4}, {});
  add(x, "...b,bc->...c", {4}, {.activation = "tanh", .bias_axes = "c"});
  add(x, "ab...,bc->ac...", {3}, {.bias_axes = "c"});
  add(x, "abc,bcd->ad", {4}, {.bias_axes = "d"});
  add(x, "abc,ce->aeb", {4, 5}, {.bias_axes = "b"});
  add(x4, "abcd,cde->abe", {5, 7}, {.bias_axes = "e"});
  add(x4, "abde,dec->abc", {5, 3}, {});
  return Functional(Tensors{x, x4}, outputs, {.name = "einsum_dense"});
}

// Self-attention: plain (the fused path), causal, returned scores (the explicit path: two
// outputs), causal with scores, and a gated sliding-window one.
ModelPtr<Model> mha_self() {
  auto x = Input({6, 16}, {.name = "x"});
  Tensors outputs{
      layers::MultiHeadAttention(2, 8, {.name = "mha_plain"})(x, x),
      layers::MultiHeadAttention(2, 8, {.name = "mha_causal"})(x, x, {.use_causal_mask = true})};
  for (const Tensors& more :
       {layers::MultiHeadAttention(2, 8, {.name = "mha_scores"})
            ->call_with(x, x, {.return_attention_scores = true}),
        layers::MultiHeadAttention(2, 8, {.name = "mha_causal_scores"})
            ->call_with(x, x, {.return_attention_scores = true, .use_causal_mask = true})})
    outputs.insert(outputs.end(), more.begin(), more.end());
  outputs.push_back(layers::MultiHeadAttention(
      2, 8, {.sliding_window = 2, .use_gate = true, .name = "mha_gate_window"})(x, x));
  return Functional(Tensors{x}, outputs, {.name = "mha_self"});
}

// Cross-attention: key and value longer than the query, value_dim != key_dim, a separate key,
// an output_shape, no bias, a causal mask with T != S, dropout (inference: the explicit path).
ModelPtr<Model> mha_cross() {
  auto q = Input({5, 12}, {.name = "query"});
  auto v = Input({7, 10}, {.name = "value"});
  auto k = Input({7, 6}, {.name = "key"});
  Tensors outputs{
      layers::MultiHeadAttention(2, 8, {.value_dim = 4, .name = "mha_value_dim"})(q, v, {.key = k}),
      layers::MultiHeadAttention(3, 4, {.use_bias = false, .output_shape = {9}, .name = "mha_out9"})(
          q, v),
      layers::MultiHeadAttention(2, 8, {.name = "mha_cross_causal"})(q, v, {.use_causal_mask = true}),
      layers::MultiHeadAttention(2, 8, {.dropout = 0.1, .name = "mha_dropout"})(q, v, {.key = k})};
  Tensors scores = layers::MultiHeadAttention(2, 8, {.value_dim = 4, .name = "mha_cross_scores"})
                       ->call_with(q, v, {.key = k, .return_attention_scores = true});
  outputs.insert(outputs.end(), scores.begin(), scores.end());
  return Functional(Tensors{q, v, k}, outputs, {.name = "mha_cross"});
}

// An attention_mask input (int32 ids: 0 masks), alone, with the causal mask, with scores.
ModelPtr<Model> mha_attention_mask() {
  auto q = Input({5, 12}, {.name = "query"});
  auto v = Input({7, 12}, {.name = "value"});
  auto m = Input({5, 7}, {.dtype = DType::Int32, .name = "mask"});
  Tensors outputs{
      layers::MultiHeadAttention(2, 8, {.name = "mha_mask"})(q, v, {.attention_mask = m}),
      layers::MultiHeadAttention(2, 8, {.name = "mha_mask_causal"})(
          q, v, {.attention_mask = m, .use_causal_mask = true})};
  Tensors scores = layers::MultiHeadAttention(2, 8, {.name = "mha_mask_scores"})
                       ->call_with(q, v, {.attention_mask = m, .return_attention_scores = true});
  outputs.insert(outputs.end(), scores.begin(), scores.end());
  return Functional(Tensors{q, v, m}, outputs, {.name = "mha_attention_mask"});
}

ModelPtr<Model> gqa() {
  auto x = Input({6, 16}, {.name = "x"});
  auto v = Input({7, 12}, {.name = "value"});
  Tensors outputs{
      layers::GroupedQueryAttention(4, 4, 2, {.name = "gqa_plain"})(x, x),
      layers::GroupedQueryAttention(4, 4, 2, {.name = "gqa_causal"})(x, x, {.use_causal_mask = true}),
      layers::GroupedQueryAttention(3, 2, 1, {.name = "gqa_cross"})(x, v)};
  Tensors scores = layers::GroupedQueryAttention(4, 4, 1, {.name = "gqa_scores"})
                       ->call_with(x, v, {.return_attention_scores = true});
  outputs.insert(outputs.end(), scores.begin(), scores.end());
  return Functional(Tensors{x, v}, outputs, {.name = "gqa"});
}

// Attention (dot, scaled, concat, causal, scores) and AdditiveAttention.
ModelPtr<Model> attention_layers() {
  auto q = Input({5, 8}, {.name = "query"});
  auto v = Input({7, 8}, {.name = "value"});
  auto k = Input({7, 8}, {.name = "key"});
  Tensors outputs{
      layers::Attention({.name = "attention_dot"})(Tensors{q, v}).at(0),
      layers::Attention({.use_scale = true, .name = "attention_scaled"})(Tensors{q, v, k}).at(0),
      layers::Attention({.use_scale = true, .score_mode = "concat", .name = "attention_concat"})(
          Tensors{q, v, k}).at(0),
      layers::Attention({.name = "attention_causal"})->call_with(Tensors{q, v}, {.use_causal_mask = true}).at(0),
      layers::AdditiveAttention({.name = "additive"})(Tensors{q, v}).at(0),
      layers::AdditiveAttention({.use_scale = false, .name = "additive_no_scale"})(Tensors{q, v, k}).at(0),
      layers::AdditiveAttention({.name = "additive_causal"})
          ->call_with(Tensors{q, v}, {.use_causal_mask = true}).at(0)};
  Tensors scores = layers::Attention({.name = "attention_scores"})
                       ->call_with(Tensors{q, v}, {.return_attention_scores = true});
  outputs.insert(outputs.end(), scores.begin(), scores.end());
  return Functional(Tensors{q, v, k}, outputs, {.name = "attention_layers"});
}

ModelPtr<Model> dot() {
  auto a = Input({6}, {.name = "a"});
  auto b = Input({6}, {.name = "b"});
  auto c = Input({4, 6}, {.name = "c"});
  auto d = Input({5, 6}, {.name = "d"});
  auto e = Input({6, 3}, {.name = "e"});
  return Functional(
      Tensors{a, b, c, d, e},
      Tensors{layers::Dot(1)(Tensors{a, b}).at(0),
              layers::Dot(-1, {.normalize = true})(Tensors{a, b}).at(0),
              layers::Dot(std::vector<int64_t>{2, 2})(Tensors{c, d}).at(0),
              layers::Dot(std::vector<int64_t>{2, 1}, {.normalize = true})(Tensors{c, e}).at(0),
              layers::Dot(std::vector<int64_t>{1, 2})(Tensors{e, d}).at(0)},
      {.name = "dot"});
}

// A Transformer encoder block: self-attention, residual Add, LayerNormalization, a Dense FFN.
ModelPtr<Model> transformer_encoder() {
  auto x = Input({8, 16}, {.name = "x"});
  auto attn = layers::MultiHeadAttention(2, 8, {.dropout = 0.1})(x, x);
  auto h = layers::LayerNormalization({.epsilon = 1e-6})(layers::add({x, attn}));
  auto ffn = layers::Dense(16)(layers::Dense(32, {.activation = "gelu"})(h));
  auto out = layers::LayerNormalization({.epsilon = 1e-6})(layers::add({h, ffn}));
  return Functional(x, layers::Dense(3)(out), {.name = "transformer_encoder"});
}

// keras.ops on symbolic tensors: each op class the exporter maps, with numbers as arguments.
ModelPtr<Model> ops_nodes() {
  namespace ops = keras::ops;
  auto x = Input({4, 6}, {.name = "x"});
  auto y = Input({4, 6}, {.name = "y"});
  auto pos = ops::add(ops::square(x), 0.5);  // positive, for log, sqrt and power
  Tensors outputs{ops::relu(x), ops::sigmoid(x), ops::tanh(x), ops::exp(x), ops::log(pos),
                  ops::sqrt(pos), ops::abs(x), ops::square(x), ops::softmax(x),
                  ops::softmax(x, 1), ops::add(x, y), ops::subtract(2.0, x),
                  ops::multiply(x, 0.5), ops::divide(x, pos), ops::maximum(x, y),
                  ops::minimum(x, 0.1), ops::power(pos, 1.5), ops::matmul(x, ops::transpose(y, {0, 2, 1})),
                  ops::mean(x, 1), ops::sum(x, {1, 2}, true), ops::max(x, -1),
                  ops::concatenate({x, y}, 1), ops::reshape(x, {-1, 24}),
                  ops::transpose(x, {0, 2, 1}), ops::expand_dims(x, 1), ops::squeeze(ops::expand_dims(x, -1), -1)};
  return Functional(Tensors{x, y}, outputs, {.name = "ops_nodes"});
}

}  // namespace

std::vector<ModelCase> model_cases() {
  std::vector<ModelCase> cases{
      {"dense_activations", dense_activations},
      {"dense_activations_opset21", dense_activations, 21},  // Gelu as one node
      {"activation_layers", activation_layers},
      {"prelu", prelu},
      {"conv1d", conv1d},
      {"conv2d", conv2d, 20},
      {"channels_first", channels_first},
      {"conv3d", conv3d},
      {"depthwise", depthwise},
      {"separable", separable},
      {"conv_transpose", conv_transpose},
      {"pooling1d", pooling1d, 17},  // reductions with the axes as an attribute
      {"pooling2d", pooling2d},
      {"pooling3d", pooling3d},
      {"padding_cropping", padding_cropping},
      {"upsampling", upsampling},
      {"batch_norm", batch_norm},
      {"layer_norm", layer_norm},
      {"layer_norm_opset17", layer_norm, 17},
      {"reshaping", reshaping},
      {"merging", merging, 19},
      {"embedding", embedding},
      {"lora_layers", lora_layers},
      {"embedding_mask_zero", embedding_mask_zero},
      {"masked_recurrent", masked_recurrent},
      {"masked_recurrent_opset21", masked_recurrent, 21},
      {"masked_sequential", masked_sequential, 17},
      {"masked_attention", masked_attention},
      {"masked_merges", masked_merges},
      {"masked_refused", masked_refused, 18, true},
      {"conv_lstm", conv_lstm},
      {"conv_lstm_opset17", conv_lstm, 17},
      {"inference_identity", inference_identity},
      {"preprocessing", preprocessing},
      {"categories", categories},
      {"adaptive_pooling", adaptive_pooling},
      {"lstm", lstm},
      {"gru", gru},
      {"simple_rnn", simple_rnn},
      {"rnn_states", rnn_states},
      {"nested", nested},
      {"shared_layers", shared_layers},
      {"nested_sequential", nested_sequential},
      {"multi_io", multi_io},
      {"example_graph", example_graph},
      {"ops_nodes", ops_nodes},
      // attention (convert_attention.cpp)
      {"einsum_dense", einsum_dense},
      {"mha_self", mha_self},
      {"mha_cross", mha_cross},
      {"mha_attention_mask", mha_attention_mask},
      {"gqa", gqa},
      {"attention_layers", attention_layers},
      {"dot", dot},
      {"transformer_encoder", transformer_encoder},
      {"more_normalization", more_normalization},
      {"image_preprocessing", image_preprocessing},
      {"wrappers", wrappers},
  };
  for (ModelCase& c : subclassed_model_cases()) cases.push_back(c);
  return cases;
}

}  // namespace keras::onnx_check
