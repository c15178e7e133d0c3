// ConvLSTM1D/2D/3D and ConvLSTMCell against Keras 3.15 (tools/keras_oracle/conv_lstm.py):
// outputs, final states and the gradients w.r.t. the inputs and every weight from Keras's own
// records and weights; configs key for key; .keras files saved by Keras load and predict the
// same. Then finite-difference gradients in float64, and what the fixtures cannot show
// (dropout, stateful layers, the cell alone, symbolic shapes, bad arguments).

#include <gtest/gtest.h>

#include "assertions.h"
#include "golden.h"
#include "gradcheck_helpers.h"
#include "json_diff.h"
#include "keras/keras.h"
#include "keras/saving/save_model.h"
#include "layer_harness.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the test helpers

// keras-cpp's config of `layer` equals Keras's `config` key for key.
void expect_keras_config(const Layer& layer, const json& config, const std::string& where) {
  auto diffs = json_differences(layer.get_config(), comparable_keras_config(config));
  std::string text;
  for (const auto& d : diffs) text += "\n  " + d;
  EXPECT_TRUE(diffs.empty()) << where << ": keras-cpp's config differs from Keras's:" << text;
}

// A layers_conv_lstm case (tools/keras_oracle/layers.py's layout): the layer from Keras's
// record, Keras's weights, the mask (when "mask") as the call's mask, a list call for initial
// states; outputs then the gradients of sum(output * upstream).
TensorList replay(const TensorList& in, const json& kw) {
  auto layer = saving::deserialize_keras_object(kw.at("record"));
  expect_keras_config(*layer, kw.at("record").at("config"),
                      kw.at("record").at("config").at("name"));
  const size_t n_inputs = kw.at("n_inputs"), n_weights = kw.at("n_weights");
  TensorList inputs(in.begin(), in.begin() + n_inputs);
  TensorList weights(in.begin() + n_inputs, in.begin() + n_inputs + n_weights);
  TensorList upstream(in.begin() + n_inputs + n_weights, in.end());
  CallContext ctx;
  ctx.training = kw.value("training", false);
  if (kw.value("mask", false)) {
    ctx.mask = ops::cast(inputs.back(), DType::Bool);
    inputs.pop_back();
  }
  const bool list_call = kw.value("list_call", false);
  std::vector<Shape> shapes;
  for (const Tensor& x : inputs) shapes.push_back(x.shape());
  layer->ensure_built(shapes, list_call);
  layer->set_weights(weights);
  GradientTape tape;
  TensorList watched;
  for (const Tensor& x : inputs) {
    watched.push_back(ops::stop_gradient(x));
    tape.watch(watched.back());
  }
  const bool several = list_call || kw.value("n_outputs", 1) > 1;
  TensorList outputs = several ? (*layer)(watched, ctx) : TensorList{(*layer)(watched[0], ctx)};
  return outputs_and_gradients(*layer, tape, watched, outputs, upstream, false);
}

TEST(ConvLstmOracle, OutputsGradientsAndConfigsMatchKeras) {
  std::set<std::string> classes;
  GoldenOps ops = {{"layer", [&](const TensorList& in, const json& kw) {
                      classes.insert(kw.at("record").at("class_name").get<std::string>());
                      return replay(in, kw);
                    }}};
  run_oracle("layers_conv_lstm", ops);
  EXPECT_EQ(classes, (std::set<std::string>{"ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"}));
}

TEST(ConvLstmOracle, DecomposedStepsMatchKeras) {
  // The channels_last cases run the fused LSTM step; here every step is separate ops.
  backend::DecomposeScope decompose;
  run_oracle("layers_conv_lstm", {{"layer", replay}});
}

TEST(ConvLstmOracle, FilesSavedByKerasLoadAndPredictTheSame) {
  std::set<std::string> files;
  GoldenOps ops = {{"predict_keras", [&](const TensorList& in, const json& kw) {
                      const std::string cls = kw.at("file");
                      files.insert(cls);
                      auto model = saving::load_model(std::string(KERAS_ORACLE_DIR) +
                                                      "/conv_lstm_files/" + cls + ".keras");
                      bool found = false;
                      for (const auto& layer : model->layers())
                        if (layer->class_name() == cls) {
                          found = true;
                          expect_keras_config(*layer, kw.at("config"), cls);
                        }
                      EXPECT_TRUE(found) << cls << ".keras has no layer of class " << cls;
                      return model->predict(TensorStruct(in[0]), {.verbose = 0}).flat();
                    }}};
  run_oracle("conv_lstm_files", ops);
  EXPECT_EQ(files, (std::set<std::string>{"ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"}));
}

// ---- finite differences ----------------------------------------------------------------------

// d/d(inputs, initial states) of sum(out * cos(out)) over every output, in float64.
void check_gradients(const std::string& name, const std::shared_ptr<layers::ConvLSTMLayer>& layer,
                     const Shape& input_shape, const Tensor& mask = Tensor()) {
  Tensor x = randn(input_shape, 41, 0.6);
  layer->call_all(x);
  const Shape state = layer->cell()->state_shapes(input_shape[0])[0];
  std::vector<Tensor> in{x, randn(state, 42, 0.5), randn(state, 43, 0.5)};
  expect_gradcheck(
      name,
      [&](const std::vector<Tensor>& args) {
        TensorList out = (*layer)(TensorList(args.begin(), args.end()), {.mask = mask});
        Tensor total = ops::zeros({}, DType::Float64);
        for (const Tensor& o : out)
          total = ops::add(total, ops::sum(ops::multiply(o, ops::cos(o))));
        return total;
      },
      in);
}

TEST(ConvLstmGradients, WholeLayersInFloat64) {
  check_gradients(
      "conv_lstm1d_same",
      layers::ConvLSTM1D(
          2, 3,
          {.padding = "same", .return_sequences = true, .return_state = true, .dtype = "float64"}),
      {2, 3, 5, 2});
  check_gradients("conv_lstm2d_cf_strided",
                  layers::ConvLSTM2D(2, 2,
                                     {.strides = 2,
                                      .data_format = "channels_first",
                                      .return_state = true,
                                      .go_backwards = true,
                                      .dtype = "float64"}),
                  {1, 3, 2, 5, 4});
  check_gradients(
      "conv_lstm2d_relu",
      layers::ConvLSTM2D(
          2, 2,
          {.dilation_rate = 2, .activation = "relu", .return_state = true, .dtype = "float64"}),
      {1, 2, 5, 5, 1});
  Tensor mask =
      Tensor::from_vector(std::vector<bool>{true, true, false, true, false, true}, {2, 3});
  check_gradients(
      "conv_lstm3d_masked",
      layers::ConvLSTM3D(
          1, 2,
          {.padding = "same", .return_sequences = true, .return_state = true, .dtype = "float64"}),
      {2, 3, 2, 3, 2, 1}, mask);
}

TEST(ConvLstmGradients, WeightGradientsInFloat64) {
  auto layer =
      layers::ConvLSTM2D(2, 2, {.padding = "same", .return_sequences = true, .dtype = "float64"});
  Tensor x = randn({2, 3, 3, 3, 2}, 44, 0.6);
  layer(x);
  std::vector<Variable> w = layer->trainable_weights();
  ASSERT_EQ(w.size(), 3u);
  std::vector<Tensor> in;
  for (size_t i = 0; i < w.size(); ++i) in.push_back(randn(w[i].shape(), 50 + i, 0.4));
  expect_gradcheck(
      "conv_lstm2d_weights",
      [&](const std::vector<Tensor>& args) {
        Tensor out =
            layer->stateless_call(TensorList(args.begin(), args.end()), {}, {x}).outputs[0];
        return ops::sum(ops::multiply(out, ops::cos(out)));
      },
      in);
}

// ---- weights, shapes, the cell ---------------------------------------------------------------

TEST(ConvLstmLayer, WeightsHaveKerasNamesAndShapes) {
  auto layer = layers::ConvLSTM2D(4, {3, 2});
  Tensor y = layer(ops::zeros({2, 5, 7, 6, 3}));
  EXPECT_EQ(y.shape(), Shape({2, 5, 5, 4}));
  std::vector<Variable> w = layer->weights();
  ASSERT_EQ(w.size(), 3u);
  // Paths below the layer, as LSTM's (the .weights.h5 groups add the layer's name).
  EXPECT_EQ(w[0].path(), "conv_lstm_cell/kernel");
  EXPECT_EQ(w[0].shape(), Shape({3, 2, 3, 16}));
  EXPECT_EQ(w[1].path(), "conv_lstm_cell/recurrent_kernel");
  EXPECT_EQ(w[1].shape(), Shape({3, 2, 4, 16}));
  EXPECT_EQ(w[2].path(), "conv_lstm_cell/bias");
  // unit_forget_bias: zeros, then ones for the forget gate.
  std::vector<float> bias = w[2].value().to_vector<float>();
  for (size_t i = 0; i < bias.size(); ++i) EXPECT_EQ(bias[i], i >= 4 && i < 8 ? 1.0f : 0.0f);
  auto no_bias = layers::ConvLSTM1D(2, 3, {.use_bias = false});
  no_bias(ops::zeros({1, 2, 5, 1}));
  EXPECT_EQ(no_bias->weights().size(), 2u);
}

TEST(ConvLstmLayer, SymbolicShapesInAFunctionalModel) {
  KerasTensor inputs = keras::Input({4, 8, 8, 3});
  std::vector<KerasTensor> out =
      layers::ConvLSTM2D(
          5, 3, {.strides = 2, .padding = "same", .return_sequences = true, .return_state = true})
          ->call_all(inputs);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].shape(), Shape({-1, 4, 4, 4, 5}));
  EXPECT_EQ(out[1].shape(), Shape({-1, 4, 4, 5}));
  KerasTensor cf = keras::Input({4, 3, 9});
  KerasTensor y = layers::ConvLSTM1D(2, 3, {.data_format = "channels_first"})(cf);
  EXPECT_EQ(y.shape(), Shape({-1, 2, 7}));
  auto model = Functional(inputs, out[0]);
  Tensor x = randn({2, 4, 8, 8, 3}, 7, 0.5);
  EXPECT_EQ(model(x).shape(), Shape({2, 4, 4, 4, 5}));
}

TEST(ConvLstmCell, RnnOverTheCellIsTheLayer) {
  auto layer =
      layers::ConvLSTM2D(3, 2, {.padding = "same", .return_sequences = true, .return_state = true});
  auto rnn = layers::RNN(layers::ConvLSTMCell(2, 3, 2, {.padding = "same"}),
                         {.return_sequences = true, .return_state = true});
  Tensor x = randn({2, 3, 4, 4, 2}, 9, 0.5);
  TensorList a = layer(TensorList{x});
  rnn(TensorList{x});
  rnn->set_weights(layer->get_weights());
  TensorList b = rnn(TensorList{x});
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TENSOR_NEAR(a[i], b[i], 1e-6, 1e-6);
  // One step of the cell called alone is the first output of the sequence.
  auto cell = std::static_pointer_cast<layers::ConvLSTMCellLayer>(rnn->cell());
  TensorList step = (*cell)(TensorList{x.slice({{}, {0, 1}}).squeeze(1)});
  ASSERT_EQ(step.size(), 3u);
  EXPECT_TENSOR_NEAR(step[0], a[0].slice({{}, {0, 1}}).squeeze(1), 1e-6, 1e-6);
  // The cell's config has Keras's keys; keras-cpp rebuilds it (the rank from kernel_size).
  Config c = cell->get_config();
  EXPECT_FALSE(c.contains("rank"));
  // The record Keras writes for its (unexported) cell: source module and registered name.
  Config record = layers::serialize(*cell);
  EXPECT_EQ(record["module"], "keras.src.layers.rnn.conv_lstm");
  EXPECT_EQ(record["registered_name"], "ConvLSTMCell");
  auto again = layers::deserialize(layers::serialize(*rnn));
  (*again)(TensorList{x});
  again->set_weights(layer->get_weights());
  TensorList d = (*again)(TensorList{x});
  EXPECT_TENSOR_NEAR(d[0], a[0], 1e-6, 1e-6);
}

TEST(ConvLstmLayer, BidirectionalRunsACopyBackwards) {
  // Keras's Bidirectional over any RNN: the backward copy reads the sequence reversed and its
  // output sequence is flipped back before the concatenation on the last axis.
  auto bidi = layers::Bidirectional(
      layers::ConvLSTM2D(2, 3, {.padding = "same", .return_sequences = true}));
  Tensor x = randn({2, 3, 4, 4, 1}, 14, 0.5);
  Tensor y = bidi(x);
  EXPECT_EQ(y.shape(), Shape({2, 3, 4, 4, 4}));
  auto forward = layers::ConvLSTM2D(2, 3, {.padding = "same", .return_sequences = true});
  auto backward =
      layers::ConvLSTM2D(2, 3, {.padding = "same", .return_sequences = true, .go_backwards = true});
  forward(x);
  backward(x);
  std::vector<Tensor> w = bidi->get_weights();
  forward->set_weights({w[0], w[1], w[2]});
  backward->set_weights({w[3], w[4], w[5]});
  Tensor expected = ops::concatenate({forward(x), ops::flip(backward(x), 1)}, -1);
  EXPECT_TENSOR_NEAR(y, expected, 1e-6, 1e-6);
}

TEST(ConvLstmLayer, StatefulCarriesStatesBetweenCalls) {
  auto full = layers::ConvLSTM1D(2, 3, {.padding = "same", .return_sequences = true});
  auto stateful =
      layers::ConvLSTM1D(2, 3, {.padding = "same", .return_sequences = true, .stateful = true});
  Tensor x = randn({2, 6, 5, 2}, 11, 0.5);
  Tensor all = full(x);
  stateful(x.slice({{}, {0, 3}}));
  stateful->set_weights(full->get_weights());
  stateful->reset_states();
  Tensor a = stateful(x.slice({{}, {0, 3}}));
  Tensor b = stateful(x.slice({{}, {3, 6}}));
  EXPECT_TENSOR_NEAR(ops::concatenate({a, b}, 1), all, 1e-6, 1e-6);
  ASSERT_EQ(stateful->states().size(), 2u);
  EXPECT_EQ(stateful->states()[0].shape(), Shape({2, 5, 2}));
}

TEST(ConvLstmLayer, DropoutOnlyInTraining) {
  auto layer = layers::ConvLSTM2D(2, 2,
                                  {.padding = "same",
                                   .dropout = 0.5,
                                   .recurrent_dropout = 0.5,
                                   .seed = 3,
                                   .return_sequences = true});
  Tensor x = randn({2, 4, 3, 3, 2}, 12, 0.5);
  Tensor inference = layer(x);
  auto plain = layers::ConvLSTM2D(2, 2, {.padding = "same", .return_sequences = true});
  plain(x);
  plain->set_weights(layer->get_weights());
  EXPECT_TENSOR_NEAR(inference, plain(x), 1e-6, 1e-6);
  Tensor trained = layer(x, {.training = true});
  EXPECT_GT(ops::max(ops::abs(ops::subtract(trained, inference))).item<float>(), 1e-3);
  // Training without dropout is inference.
  EXPECT_TENSOR_NEAR(plain(x, {.training = true}), inference, 1e-6, 1e-6);
}

TEST(ConvLstmErrors, ArgumentsAndInputsAreChecked) {
  EXPECT_THROW(layers::ConvLSTM2D(0, 3), ValueError);
  EXPECT_THROW(layers::ConvLSTM2D(2, {3, 3, 3}), ValueError);
  EXPECT_THROW(layers::ConvLSTM2D(2, 3, {.strides = 2, .dilation_rate = 2}), ValueError);
  EXPECT_THROW(layers::ConvLSTM2D(2, 3, {.padding = "causal"}), ValueError);
  EXPECT_THROW(layers::ConvLSTM1D(2, 3, {.data_format = "channels_middle"}), ValueError);
  EXPECT_THROW(layers::ConvLSTMCell(4, 2, 3), ValueError);
  // Rank: ConvLSTM2D takes (batch, time, rows, cols, channels).
  EXPECT_THROW(layers::ConvLSTM2D(2, 3)(ops::zeros({2, 3, 5, 4})), ValueError);
  // Unknown spatial dimensions.
  EXPECT_THROW(layers::ConvLSTM1D(2, 3)(keras::Input({4, -1, 2})), ValueError);
  // The window does not fit.
  EXPECT_THROW(layers::ConvLSTM1D(2, 5)(ops::zeros({1, 2, 3, 1})), ValueError);
  // Initial states of the wrong shape.
  auto layer = layers::ConvLSTM1D(2, 3);
  EXPECT_THROW(layer(TensorList{ops::zeros({1, 2, 6, 1}), ops::zeros({1, 2}), ops::zeros({1, 2})}),
               ValueError);
  EXPECT_NO_THROW(
      layer(TensorList{ops::zeros({1, 2, 6, 1}), ops::zeros({1, 4, 2}), ops::zeros({1, 4, 2})}));
}

}  // namespace
}  // namespace keras
