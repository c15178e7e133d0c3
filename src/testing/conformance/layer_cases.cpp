// Conformance cases for layers: each layer is built on the backend under test after
// keras::utils::set_random_seed, so its initial weights come from the same counter-based
// stream on every backend; the outputs are its forward pass followed by its weights (which
// checks that initialization agrees bit for bit).

#include "keras/layers/layers.h"
#include "keras/ops/ops.h"
#include "keras/random/random.h"
#include "testing/conformance/cases.h"

namespace keras::testing::conformance {
namespace {

using Outputs = std::vector<Tensor>;

// Layers over convolutions, recurrences and attention: long float32 sums in backend-specific
// orders (see nn_cases.cpp).
constexpr double kLongSums = 1e-4;

template <typename L>
Outputs with_weights(Tensor y, const L& layer) {
  Outputs out{std::move(y)};
  for (const Tensor& w : layer->get_weights()) out.push_back(w);
  return out;
}

template <typename MakeLayer>
Case layer_case(const std::string& name, Shape input, MakeLayer make, bool training = false,
                double bound = 1e-5) {
  return {"layers", name, {{input}}, [make, training](const Outputs& in) {
            utils::set_random_seed(7);
            auto layer = make();
            Tensor y = layer(in[0], {.training = training});
            return with_weights(y, layer);
          }, bound, true};
}

}  // namespace

std::vector<Case> layer_cases() {
  std::vector<Case> cases;
  cases.push_back(layer_case("Dense relu", {32, 20}, [] {
    return layers::Dense(16, {.activation = "relu"}); }));
  cases.push_back(layer_case("Dense gelu", {32, 20}, [] {
    return layers::Dense(16, {.activation = "gelu"}); }));
  cases.push_back(layer_case("Conv2D same relu", {4, 12, 12, 3}, [] {
    return layers::Conv2D(8, 3, {.padding = "same", .activation = "relu"}); }, false, kLongSums));
  cases.push_back(layer_case("Dense tanh", {32, 20}, [] {
    return layers::Dense(16, {.activation = "tanh"}); }));
  cases.push_back(layer_case("Conv2D sigmoid", {4, 10, 10, 4}, [] {
    return layers::Conv2D(8, 3, {.activation = "sigmoid"}); }, false, kLongSums));
  cases.push_back(layer_case("Conv1D", {4, 20, 6}, [] { return layers::Conv1D(5, 4); }, false, kLongSums));
  cases.push_back(layer_case("DepthwiseConv2D", {2, 9, 9, 4}, [] {
    return layers::DepthwiseConv2D(3); }, false, kLongSums));
  cases.push_back(layer_case("Conv2DTranspose", {2, 6, 6, 3}, [] {
    return layers::Conv2DTranspose(4, 3, {.strides = 2}); }, false, kLongSums));
  cases.push_back(layer_case("MaxPooling2D", {4, 10, 10, 3}, [] { return layers::MaxPooling2D(2); }));
  cases.push_back(layer_case("AveragePooling2D same", {4, 9, 9, 3}, [] {
    return layers::AveragePooling2D(2, {.padding = "same"}); }));
  cases.push_back(layer_case("GlobalAveragePooling2D", {4, 9, 9, 3}, [] {
    return layers::GlobalAveragePooling2D(); }));
  cases.push_back(layer_case("BatchNormalization (training)", {16, 10}, [] {
    return layers::BatchNormalization(); }, true));
  cases.push_back(layer_case("LayerNormalization", {16, 10}, [] {
    return layers::LayerNormalization(); }));
  cases.push_back(layer_case("Dropout 0.5 (training)", {16, 30}, [] {
    return layers::Dropout(0.5, {.seed = 3}); }, true, 0));
  cases.push_back(layer_case("LSTM 16", {4, 12, 8}, [] { return layers::LSTM(16); }, false, kLongSums));
  cases.push_back(layer_case("GRU 16 sequences", {4, 12, 8}, [] {
    return layers::GRU(16, {.return_sequences = true}); }, false, kLongSums));
  cases.push_back(layer_case("SimpleRNN 8", {4, 12, 8}, [] { return layers::SimpleRNN(8); }, false, kLongSums));
  cases.push_back({"layers", "Embedding", {{Shape{6, 9}, 0, 50, DType::Int32}}, [](const Outputs& in) {
                     utils::set_random_seed(7);
                     auto layer = layers::Embedding(50, 8);
                     return with_weights(layer(in[0]), layer);
                   }, 0});
  cases.push_back({"layers", "MultiHeadAttention", {{Shape{2, 7, 12}}, {Shape{2, 9, 12}}},
                   [](const Outputs& in) {
                     utils::set_random_seed(7);
                     auto layer = layers::MultiHeadAttention(3, 4);
                     Tensor y = layer->call_with(in[0], in[1])[0];
                     return with_weights(y, layer);
                   }, kLongSums, true});
  return cases;
}

}  // namespace keras::testing::conformance
