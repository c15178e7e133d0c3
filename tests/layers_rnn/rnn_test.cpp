// The recurrent layers beyond the PyTorch fixtures: weights and initializers, symbolic shapes,
// configs, bad inputs, masks, stateful layers, dropout against closed forms, and
// finite-difference gradients of the fused steps and of whole layers in float64.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "assertions.h"
#include "gradcheck_helpers.h"
#include "keras/autograd/node.h"
#include "keras/keras.h"
#include "layers/rnn/lstm_sequence.h"
#include "layers/rnn/recurrent_ops.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the test helpers

Tensor seq(int64_t b, int64_t t, int64_t f, uint64_t seed, DType dtype = DType::Float32) {
  return ops::cast(randn({b, t, f}, seed, 0.5), dtype);
}

Tensor attached_mask(const Tensor& t) {
  return t.impl()->keras_mask ? Tensor(t.impl()->keras_mask) : Tensor();
}

std::vector<double> values(const Tensor& t) { return ops::cast(t, DType::Float64).to_vector<double>(); }

// ---- weights and initializers ----------------------------------------------------------------

TEST(RnnWeights, LstmCellOwnsKerasLayout) {
  backend::clear_session();
  auto lstm = layers::LSTM(4);
  EXPECT_EQ(lstm->name(), "lstm");
  Tensor y = lstm(seq(2, 5, 3, 1));
  EXPECT_EQ(y.shape(), Shape({2, 4}));
  ASSERT_EQ(lstm->tracked_layers().size(), 1u);
  EXPECT_EQ(lstm->tracked_layers()[0].first, "cell");
  EXPECT_EQ(lstm->cell()->name(), "lstm_cell");
  EXPECT_TRUE(lstm->own_weights().empty());
  auto w = lstm->weights();
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0].name(), "kernel");
  EXPECT_EQ(w[0].shape(), Shape({3, 16}));
  EXPECT_EQ(w[1].name(), "recurrent_kernel");
  EXPECT_EQ(w[1].shape(), Shape({4, 16}));
  EXPECT_EQ(w[2].name(), "bias");
  EXPECT_EQ(w[2].shape(), Shape({16}));
  EXPECT_EQ(w[0].path(), "lstm_cell/kernel");
  EXPECT_EQ(lstm->count_params(), 4 * (3 * 4 + 4 * 4 + 4));
  // unit_forget_bias: zeros, then ones for the forget gate, then zeros.
  std::vector<double> bias = values(w[2]);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(bias[i], i >= 4 && i < 8 ? 1.0 : 0.0) << i;
  // The recurrent kernel (4, 16) is orthogonal: its rows are orthonormal.
  Tensor rrt = ops::matmul(w[1].value(), ops::transpose(w[1].value()));
  EXPECT_TENSOR_NEAR(rrt, ops::eye(4), 1e-5, 1e-5);
}

TEST(RnnWeights, NoForgetBiasAndNoBias) {
  auto lstm = layers::LSTM(2, {.unit_forget_bias = false});
  lstm(seq(1, 2, 3, 2));
  EXPECT_EQ(ops::sum(ops::absolute(lstm->weights()[2])).item<float>(), 0.0f);
  auto plain = layers::LSTM(2, {.use_bias = false});
  plain(seq(1, 2, 3, 2));
  EXPECT_EQ(plain->weights().size(), 2u);
}

TEST(RnnWeights, GruAndSimpleRnnShapes) {
  auto gru = layers::GRU(3);
  gru(seq(2, 4, 5, 3));
  auto w = gru->weights();
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0].shape(), Shape({5, 9}));
  EXPECT_EQ(w[1].shape(), Shape({3, 9}));
  EXPECT_EQ(w[2].shape(), Shape({2, 9}));
  EXPECT_EQ(gru->cell()->name(), "gru_cell");
  auto before = layers::GRU(3, {.reset_after = false});
  before(seq(2, 4, 5, 3));
  EXPECT_EQ(before->weights()[2].shape(), Shape({9}));
  auto simple = layers::SimpleRNN(6);
  simple(seq(2, 4, 5, 3));
  w = simple->weights();
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0].shape(), Shape({5, 6}));
  EXPECT_EQ(w[1].shape(), Shape({6, 6}));
  EXPECT_EQ(w[2].shape(), Shape({6}));
  EXPECT_EQ(simple->cell()->name(), "simple_rnn_cell");
}

TEST(RnnWeights, StackedAndWrappedWeightsAreTracked) {
  backend::clear_session();
  auto rnn = layers::RNN({layers::LSTMCell(3), layers::LSTMCell(2), layers::GRUCell(2)});
  rnn(seq(2, 4, 5, 4));
  auto& stacked = static_cast<layers::StackedRNNCellsLayer&>(*rnn->cell());
  ASSERT_EQ(stacked.tracked_layers().size(), 3u);
  EXPECT_EQ(stacked.tracked_layers()[0].first, "cells/lstm_cell");
  EXPECT_EQ(stacked.tracked_layers()[1].first, "cells/lstm_cell_1");
  EXPECT_EQ(stacked.tracked_layers()[2].first, "cells/gru_cell");
  auto w = rnn->weights();
  ASSERT_EQ(w.size(), 9u);
  EXPECT_EQ(w[3].shape(), Shape({3, 8}));  // the second cell takes the first one's output
  EXPECT_EQ(w[6].shape(), Shape({2, 6}));
  EXPECT_EQ(rnn->state_size(), (std::vector<int64_t>{3, 3, 2, 2, 2}));

  auto original = layers::LSTM(3, {.name = "enc"});
  auto bidi = layers::Bidirectional(original);
  bidi(seq(2, 4, 5, 5));
  EXPECT_FALSE(original->built());  // the wrapper runs copies of it
  EXPECT_EQ(bidi->forward_layer()->name(), "forward_enc");
  EXPECT_EQ(bidi->backward_layer()->name(), "backward_enc");
  ASSERT_EQ(bidi->tracked_layers().size(), 2u);
  EXPECT_EQ(bidi->tracked_layers()[0].first, "forward_layer");
  EXPECT_EQ(bidi->tracked_layers()[1].first, "backward_layer");
  EXPECT_EQ(bidi->weights().size(), 6u);
  EXPECT_TRUE(bidi->backward_layer()->go_backwards());

  auto td = layers::TimeDistributed(layers::Dense(2));
  td(seq(2, 4, 5, 6));
  EXPECT_EQ(td->tracked_layers()[0].first, "layer");
  EXPECT_EQ(td->weights().size(), 2u);
  EXPECT_EQ(td->weights()[0].shape(), Shape({5, 2}));
}

// ---- symbolic shapes -------------------------------------------------------------------------

void expect_symbolic_matches(const std::shared_ptr<Layer>& layer, const Shape& input_shape,
                             const std::vector<Shape>& expected, bool list_call) {
  KerasTensor x = keras::Input(input_shape);
  std::vector<KerasTensor> outs = list_call ? (*layer)(std::vector<KerasTensor>{x})
                                            : std::vector<KerasTensor>{(*layer)(x)};
  ASSERT_EQ(outs.size(), expected.size()) << layer->class_name();
  for (size_t i = 0; i < outs.size(); ++i)
    EXPECT_EQ(outs[i].shape(), expected[i]) << layer->class_name() << " output " << i;
  // Eager calls give the same shapes with the unknown axes filled in.
  Shape concrete{2};
  for (int64_t d : input_shape) concrete.push_back(d < 0 ? 3 : d);
  Tensor data = ops::ones(concrete);
  TensorList eager = list_call ? (*layer)(TensorList{data}) : TensorList{(*layer)(data)};
  ASSERT_EQ(eager.size(), expected.size());
  for (size_t i = 0; i < eager.size(); ++i) {
    ASSERT_EQ(eager[i].ndim(), expected[i].rank());
    for (int d = 0; d < expected[i].rank(); ++d) {
      if (expected[i][d] >= 0) {
        EXPECT_EQ(eager[i].shape()[d], expected[i][d]);
      }
    }
  }
}

TEST(RnnSymbolic, OutputShapesWithUnknownBatch) {
  expect_symbolic_matches(layers::LSTM(4), {5, 3}, {{-1, 4}}, false);
  expect_symbolic_matches(layers::LSTM(4, {.return_sequences = true}), {5, 3}, {{-1, 5, 4}},
                          false);
  expect_symbolic_matches(layers::LSTM(4, {.return_sequences = true}), {-1, 3}, {{-1, -1, 4}},
                          false);
  expect_symbolic_matches(layers::LSTM(4, {.return_state = true}), {5, 3},
                          {{-1, 4}, {-1, 4}, {-1, 4}}, true);
  expect_symbolic_matches(layers::GRU(2, {.return_sequences = true, .return_state = true}),
                          {5, 3}, {{-1, 5, 2}, {-1, 2}}, true);
  expect_symbolic_matches(layers::SimpleRNN(3, {.go_backwards = true}), {-1, 2}, {{-1, 3}},
                          false);
  expect_symbolic_matches(layers::RNN(layers::GRUCell(3)), {4, 2}, {{-1, 3}}, false);
  expect_symbolic_matches(
      layers::RNN({layers::LSTMCell(3), layers::SimpleRNNCell(2)}, {.return_state = true}),
      {4, 2}, {{-1, 2}, {-1, 3}, {-1, 3}, {-1, 2}}, true);
  expect_symbolic_matches(layers::Bidirectional(layers::LSTM(3, {.return_sequences = true})),
                          {4, 2}, {{-1, 4, 6}}, false);
  expect_symbolic_matches(
      layers::Bidirectional(layers::LSTM(3), {.merge_mode = "sum"}), {4, 2}, {{-1, 3}}, false);
  expect_symbolic_matches(
      layers::Bidirectional(layers::GRU(3, {.return_state = true}), {.merge_mode = "none"}),
      {4, 2}, {{-1, 3}, {-1, 3}, {-1, 3}, {-1, 3}}, true);
  expect_symbolic_matches(layers::TimeDistributed(layers::Dense(5)), {4, 2}, {{-1, 4, 5}},
                          false);
  expect_symbolic_matches(layers::TimeDistributed(layers::Dense(5)), {-1, 3, 2},
                          {{-1, -1, 3, 5}}, false);
  expect_symbolic_matches(layers::TimeDistributed(layers::LSTM(2)), {3, 4, 2}, {{-1, 3, 2}},
                          false);
}

TEST(RnnSymbolic, CellsAndFunctionalModels) {
  auto cell = layers::LSTMCell(4);
  KerasTensor x = keras::Input({3}), h = keras::Input({4}), c = keras::Input({4});
  auto outs = cell(std::vector<KerasTensor>{x, h, c});
  ASSERT_EQ(outs.size(), 3u);
  for (const auto& o : outs) EXPECT_EQ(o.shape(), Shape({-1, 4}));

  // Input -> LSTM(sequences) -> LSTM -> Dense, with initial states as extra inputs.
  KerasTensor seq_in = keras::Input({6, 3});
  KerasTensor h0 = keras::Input({5}), c0 = keras::Input({5});
  auto first = layers::LSTM(5, {.return_sequences = true});
  KerasTensor hidden = first(std::vector<KerasTensor>{seq_in, h0, c0})[0];
  KerasTensor last = layers::GRU(4)(hidden);
  KerasTensor out = layers::Dense(2)(last);
  auto model = Functional({seq_in, h0, c0}, {out});
  TensorList y = model(TensorList{ops::ones({2, 6, 3}), ops::zeros({2, 5}), ops::zeros({2, 5})});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(y[0].shape(), Shape({2, 2}));
  EXPECT_EQ(model->count_params(), 4 * (3 * 5 + 5 * 5 + 5) + 3 * (5 * 4 + 4 * 4 + 2 * 4) + 10);
}

// LSTM(return_state=True) called on one tensor, as Keras writes the graph (x = Input;
// o, h, c = LSTM(...)(x)): call_all gives the three outputs as indexed outputs of one node, whose
// saved args are the tensor itself (Keras's form, not a list), and the model saves, loads and
// predicts the same. tests/oracle/summary_test.cpp loads the same graph saved by Keras 3.15.
TEST(RnnSymbolic, ReturnStateOnOneInputInAFunctionalModel) {
  backend::clear_session();
  KerasTensor x = keras::Input({3, 4});
  auto lstm = layers::LSTM(5, {.return_state = true});
  std::vector<KerasTensor> outs = lstm->call_all(x);
  ASSERT_EQ(outs.size(), 3u);
  for (const auto& o : outs) EXPECT_EQ(o.shape(), Shape({-1, 5}));
  EXPECT_THROW(lstm(x), ValueError);  // one KerasTensor cannot hold three outputs
  KerasTensor merged = layers::Concatenate()(outs)[0];
  auto model = Functional(x, merged);
  Config config = Config::parse(model->to_json());
  for (const Config& layer : config["config"]["layers"])
    if (layer["class_name"] == "LSTM") {
      const Config& args = layer["inbound_nodes"][0]["args"];
      ASSERT_EQ(args.size(), 1u);
      EXPECT_EQ(args[0]["class_name"], "__keras_tensor__");
    }
  Tensor data = ops::reshape(ops::cast(ops::arange(24), float32) / 24.0, {2, 3, 4});
  Tensor expected = model(data);
  EXPECT_EQ(expected.shape(), Shape({2, 15}));
  std::string path = (std::filesystem::temp_directory_path() / "rnn_return_state.keras").string();
  model->save(path);
  auto loaded = saving::load_model(path);
  EXPECT_TENSOR_NEAR(loaded(data), expected, 0, 0);
  TensorList eager = lstm->call_all(data);
  EXPECT_EQ(eager.size(), 3u);
  std::filesystem::remove(path);
}

// ---- configs ---------------------------------------------------------------------------------

void expect_round_trip(const std::shared_ptr<Layer>& layer) {
  Config c = layer->get_config();
  auto again = layers::from_config(layer->class_name(), c);
  EXPECT_EQ(again->class_name(), layer->class_name());
  EXPECT_EQ(again->get_config(), c) << layer->class_name();
  auto through = layers::deserialize(layers::serialize(*layer));
  EXPECT_EQ(through->get_config(), c) << layer->class_name();
}

TEST(RnnConfig, LayersRoundTrip) {
  auto lstm = layers::LSTM(7, {.activation = "relu",
                               .recurrent_initializer = std::make_shared<initializers::Orthogonal>(2.0, 5),
                               .unit_forget_bias = false,
                               .kernel_regularizer = "l2",
                               .dropout = 0.25,
                               .recurrent_dropout = 1.5,
                               .seed = 42,
                               .return_sequences = true,
                               .go_backwards = true,
                               .name = "enc"});
  Config c = lstm->get_config();
  EXPECT_EQ(c["name"], "enc");
  EXPECT_EQ(c["units"], 7);
  EXPECT_EQ(c["activation"], "relu");
  EXPECT_EQ(c["recurrent_activation"], "sigmoid");
  EXPECT_EQ(c["recurrent_initializer"]["class_name"], "Orthogonal");
  EXPECT_EQ(c["recurrent_initializer"]["config"]["gain"], 2.0);
  EXPECT_EQ(c["unit_forget_bias"], false);
  EXPECT_EQ(c["kernel_regularizer"]["config"]["l2"], 0.01);
  EXPECT_EQ(c["dropout"], 0.25);
  EXPECT_EQ(c["recurrent_dropout"], 1.0);  // clipped to [0, 1], as Keras
  EXPECT_EQ(c["seed"], 42);
  EXPECT_EQ(c["return_sequences"], true);
  EXPECT_EQ(c["go_backwards"], true);
  EXPECT_EQ(c["zero_output_for_mask"], false);
  EXPECT_EQ(c["unroll"], false);
  EXPECT_TRUE(c["activity_regularizer"].is_null());
  EXPECT_FALSE(c.contains("cell"));
  expect_round_trip(lstm);

  auto gru = layers::GRU(3, {.return_state = true, .stateful = true, .reset_after = false});
  Config g = gru->get_config();
  EXPECT_EQ(g["reset_after"], false);
  EXPECT_EQ(g["stateful"], true);
  EXPECT_EQ(g["kernel_initializer"]["class_name"], "GlorotUniform");
  EXPECT_EQ(g["recurrent_initializer"]["class_name"], "Orthogonal");
  EXPECT_EQ(g["bias_initializer"]["class_name"], "Zeros");
  EXPECT_TRUE(g["seed"].is_null());
  expect_round_trip(gru);

  auto simple = layers::SimpleRNN(2, {.activation = "linear", .unroll = true});
  Config s = simple->get_config();
  EXPECT_EQ(s["activation"], "linear");
  EXPECT_EQ(s["unroll"], true);
  EXPECT_FALSE(s.contains("seed"));  // SimpleRNN's config has none (its cell's does)
  EXPECT_FALSE(s.contains("recurrent_activation"));
  expect_round_trip(simple);
}

TEST(RnnConfig, CellsAndNestedCellsRoundTrip) {
  auto cell = layers::LSTMCell(3, {.recurrent_activation = "hard_sigmoid", .seed = 3});
  Config c = cell->get_config();
  EXPECT_EQ(c["recurrent_activation"], "hard_sigmoid");
  EXPECT_EQ(c["seed"], 3);
  expect_round_trip(cell);
  expect_round_trip(layers::GRUCell(4, {.reset_after = false}));
  expect_round_trip(layers::SimpleRNNCell(4, {.use_bias = false}));

  auto rnn = layers::RNN(layers::GRUCell(2, {.name = "g"}), {.zero_output_for_mask = true});
  Config r = rnn->get_config();
  EXPECT_EQ(r["cell"]["class_name"], "GRUCell");
  EXPECT_EQ(r["cell"]["config"]["name"], "g");
  EXPECT_EQ(r["zero_output_for_mask"], true);
  expect_round_trip(rnn);

  auto stacked = layers::RNN({layers::LSTMCell(3), layers::SimpleRNNCell(2)});
  Config st = stacked->get_config();
  EXPECT_EQ(st["cell"]["class_name"], "StackedRNNCells");
  ASSERT_EQ(st["cell"]["config"]["cells"].size(), 2u);
  EXPECT_EQ(st["cell"]["config"]["cells"][1]["class_name"], "SimpleRNNCell");
  expect_round_trip(stacked);
  expect_round_trip(layers::StackedRNNCells({layers::GRUCell(2), layers::GRUCell(2)}));
}

TEST(RnnConfig, WrappersRoundTrip) {
  auto bidi = layers::Bidirectional(layers::LSTM(3, {.return_sequences = true, .name = "l"}),
                                    {.merge_mode = "none"});
  Config c = bidi->get_config();
  EXPECT_TRUE(c["merge_mode"].is_null());
  EXPECT_EQ(c["layer"]["class_name"], "LSTM");
  EXPECT_EQ(c["layer"]["config"]["name"], "forward_l");
  EXPECT_EQ(c["layer"]["config"]["zero_output_for_mask"], true);
  EXPECT_EQ(c["backward_layer"]["config"]["name"], "backward_l");
  EXPECT_EQ(c["backward_layer"]["config"]["go_backwards"], true);
  expect_round_trip(bidi);
  expect_round_trip(layers::Bidirectional(
      layers::LSTM(2), {.merge_mode = "ave",
                        .backward_layer = layers::GRU(2, {.go_backwards = true})}));

  auto td = layers::TimeDistributed(layers::Dense(4, {.activation = "relu"}));
  Config t = td->get_config();
  EXPECT_EQ(t["layer"]["class_name"], "Dense");
  EXPECT_EQ(t["layer"]["config"]["units"], 4);
  expect_round_trip(td);

  // Keys a newer or older Keras may write are accepted.
  Config lstm_config = layers::LSTM(2)->get_config();
  lstm_config["implementation"] = 1;
  lstm_config["time_major"] = false;
  EXPECT_NO_THROW(layers::from_config("LSTM", lstm_config));
}

// ---- bad inputs ------------------------------------------------------------------------------

template <typename Fn>
void expect_value_error(Fn fn, const std::string& needle) {
  try {
    fn();
    ADD_FAILURE() << "expected a ValueError mentioning " << needle;
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(RnnErrors, ArgumentsAreChecked) {
  EXPECT_THROW(layers::LSTM(0), ValueError);
  EXPECT_THROW(layers::GRUCell(-2), ValueError);
  EXPECT_THROW(layers::SimpleRNN(0), ValueError);
  EXPECT_THROW(layers::LSTM(2, {.use_cudnn = "sometimes"}), ValueError);
  EXPECT_THROW(layers::RNN(std::shared_ptr<layers::RecurrentCell>()), ValueError);
  EXPECT_THROW(layers::StackedRNNCells({}), ValueError);
  expect_value_error([] { layers::Bidirectional(layers::LSTM(2), {.merge_mode = "max"}); },
                     "max");
  expect_value_error(
      [] {
        layers::Bidirectional(layers::LSTM(2),
                              {.backward_layer = layers::LSTM(2)});  // not go_backwards
      },
      "go_backwards");
  expect_value_error(
      [] {
        layers::Bidirectional(layers::LSTM(2),
                              {.backward_layer = layers::LSTM(
                                   2, {.return_sequences = true, .go_backwards = true})});
      },
      "return_sequences");
  EXPECT_THROW(layers::Bidirectional(std::shared_ptr<layers::RNNLayer>()), ValueError);
  EXPECT_THROW(layers::TimeDistributed(nullptr), ValueError);
  EXPECT_THROW(layers::from_config("RNN", Config::object()), ValueError);
  EXPECT_THROW(layers::from_config("RNN", Config{{"cell", layers::serialize(*layers::Dense(2))}}),
               ValueError);
}

TEST(RnnErrors, InputsAreChecked) {
  auto lstm = layers::LSTM(3, {.name = "named"});
  expect_value_error([&] { lstm(ops::ones({2, 4})); }, "(2, 4)");
  lstm(ops::ones({2, 4, 5}));
  expect_value_error([&] { lstm(ops::ones({2, 4, 6})); }, "6");
  expect_value_error([&] { lstm(TensorList{ops::ones({2, 4, 5}), ops::zeros({2, 3})}); },
                     "initial states");
  expect_value_error(
      [&] { lstm(TensorList{ops::ones({2, 4, 5}), ops::zeros({2, 2}), ops::zeros({2, 3})}); },
      "(2, 3)");
  expect_value_error(
      [&] { lstm(ops::ones({2, 4, 5}), {.mask = ops::ones({2, 3}, DType::Bool)}); }, "mask");
  expect_value_error([&] { lstm(ops::ones({2, 0, 5})); }, "timestep");
  // Several outputs need a list call.
  auto with_state = layers::GRU(2, {.return_state = true});
  EXPECT_THROW(with_state(ops::ones({2, 3, 4})), Error);
  EXPECT_EQ(with_state(TensorList{ops::ones({2, 3, 4})}).size(), 2u);
  // Cells: states of the wrong count or shape.
  auto cell = layers::LSTMCell(2);
  expect_value_error([&] { cell(TensorList{ops::ones({3, 4}), ops::zeros({3, 2})}); }, "2 states");
  expect_value_error(
      [&] { cell(TensorList{ops::ones({3, 4}), ops::zeros({3, 2}), ops::zeros({3, 5})}); },
      "(3, 2)");
  expect_value_error([&] { layers::TimeDistributed(layers::Dense(2))(ops::ones({2, 3})); },
                     "3 dimensions");
  expect_value_error(
      [&] {
        layers::TimeDistributed(layers::Dense(2))(ops::ones({2, 3, 4}),
                                                  {.mask = ops::ones({2, 5}, DType::Bool)});
      },
      "mask");
  expect_value_error(
      [&] { layers::Bidirectional(layers::LSTM(2))(TensorList{ops::ones({2, 3, 4}), ops::zeros({2, 2})}); },
      "two halves");
}

TEST(RnnErrors, StatefulAndUnrollNeedKnownShapes) {
  auto stateful = layers::LSTM(2, {.stateful = true});
  expect_value_error([&] { stateful(keras::Input({3, 4})); }, "batch size");
  auto unrolled = layers::GRU(2, {.unroll = true});
  expect_value_error([&] { unrolled(keras::Input({-1, 4})); }, "unroll");
  auto fixed = layers::LSTM(2, {.stateful = true});
  fixed(ops::ones({3, 2, 4}));
  expect_value_error([&] { fixed(ops::ones({5, 2, 4})); }, "batch size 3");
  KerasTensor known = keras::Input({2, 4}, {.batch_size = 3});
  EXPECT_EQ(layers::LSTM(2, {.stateful = true})(known).shape(), Shape({3, 2}));
}

// ---- masks -----------------------------------------------------------------------------------

TEST(RnnMasks, OutputMaskFollowsReturnSequences) {
  Tensor x = seq(2, 4, 3, 5);
  Tensor m = Tensor::from_vector(std::vector<bool>{true, true, false, false, true, true, true, true},
                                 {2, 4});
  Tensor y = layers::LSTM(2, {.return_sequences = true})(x, {.mask = m});
  ASSERT_TRUE(attached_mask(y).defined());
  EXPECT_EQ(attached_mask(y).to_vector<bool>(), m.to_vector<bool>());
  EXPECT_FALSE(attached_mask(layers::LSTM(2)(x, {.mask = m})).defined());
  TensorList with_states = layers::GRU(2, {.return_sequences = true, .return_state = true})(
      TensorList{x}, {.mask = m});
  ASSERT_EQ(with_states.size(), 2u);
  EXPECT_FALSE(attached_mask(with_states[1]).defined());
  EXPECT_TRUE(attached_mask(layers::Bidirectional(layers::SimpleRNN(
                  2, {.return_sequences = true}))(x, {.mask = m}))
                  .defined());
  // TimeDistributed passes the mask through.
  EXPECT_TRUE(attached_mask(layers::TimeDistributed(layers::Dense(2))(x, {.mask = m})).defined());
}

TEST(RnnMasks, MaskedTimestepsKeepStateAndOutput) {
  // Sample 0 is fully masked: its output stays zero and its states stay the initial ones.
  // Sample 1 is right-padded after 2 steps: it ends as the same layer on its first 2 steps.
  auto lstm = layers::LSTM(3, {.return_sequences = true, .return_state = true});
  Tensor x = seq(2, 4, 2, 7);
  Tensor h0 = ops::cast(randn({2, 3}, 8), DType::Float32);
  Tensor c0 = ops::cast(randn({2, 3}, 9), DType::Float32);
  Tensor m = Tensor::from_vector(
      std::vector<bool>{false, false, false, false, true, true, false, false}, {2, 4});
  TensorList out = lstm(TensorList{x, h0, c0}, {.mask = m});
  EXPECT_TENSOR_EQ(out[0][0], ops::zeros({4, 3}));
  EXPECT_TENSOR_EQ(out[1][0], h0[0]);
  EXPECT_TENSOR_EQ(out[2][0], c0[0]);
  TensorList head = lstm(TensorList{x.slice({{1, 2}, {0, 2}}), h0.slice({{1, 2}}),
                                    c0.slice({{1, 2}})});
  EXPECT_TENSOR_NEAR(out[1][1], head[1][0], 1e-6, 1e-6);
  EXPECT_TENSOR_NEAR(out[2][1], head[2][0], 1e-6, 1e-6);
  // Masked steps repeat the previous output.
  EXPECT_TENSOR_EQ(out[0][1][3], out[0][1][1]);
  // An all-true mask changes nothing.
  TensorList plain = lstm(TensorList{x, h0, c0});
  TensorList all = lstm(TensorList{x, h0, c0}, {.mask = ops::ones({2, 4}, DType::Bool)});
  EXPECT_TENSOR_EQ(all[0], plain[0]);
}

TEST(RnnMasks, MasksFlowThroughModels) {
  // A layer that masks zero timesteps (as Masking / Embedding(mask_zero) do), then a GRU.
  class MaskZeros : public Layer {
   public:
    MaskZeros() { set_supports_masking(true); }
    Tensor call(const Tensor& x, const CallContext&) override { return x; }
    Tensor compute_mask(const Tensor& x, const Tensor&) const override {
      return ops::any(ops::not_equal(x, 0.0), -1);
    }
  };
  auto masker = make_layer<MaskZeros>();
  auto gru = layers::GRU(2);
  Tensor x = seq(1, 3, 2, 11);
  Tensor padded = ops::concatenate({x, ops::zeros({1, 2, 2})}, 1);
  EXPECT_TENSOR_NEAR(gru(masker(padded)), gru(x), 1e-6, 1e-6);
}

// ---- stateful --------------------------------------------------------------------------------

TEST(RnnStateful, StatesCarryOverBetweenCalls) {
  auto full = layers::LSTM(3, {.return_sequences = true});
  auto stateful = layers::LSTM(3, {.return_sequences = true, .stateful = true});
  Tensor x = seq(2, 6, 4, 13);
  Tensor all = full(x);
  stateful(x.slice({{}, {0, 3}}));
  stateful->set_weights(full->get_weights());
  stateful->reset_states();
  Tensor a = stateful(x.slice({{}, {0, 3}}));
  Tensor b = stateful(x.slice({{}, {3, 6}}));
  EXPECT_TENSOR_NEAR(ops::concatenate({a, b}, 1), all, 1e-6, 1e-6);
  ASSERT_EQ(stateful->states().size(), 2u);
  EXPECT_TENSOR_NEAR(stateful->states()[0], all.slice({{}, {5, 6}}).squeeze(1), 1e-6, 1e-6);
  // A symbolic call leaves the states alone.
  Tensor before = stateful->states()[0];
  stateful(keras::Input({3, 4}, {.batch_size = 2}));
  EXPECT_TENSOR_EQ(stateful->states()[0], before);
  stateful->reset_states();
  EXPECT_TENSOR_NEAR(stateful(x.slice({{}, {0, 3}})), a, 1e-6, 1e-6);
  stateful->reset_state({ops::zeros({2, 3}), ops::zeros({2, 3})});
  EXPECT_THROW(stateful->reset_state({ops::zeros({2, 3})}), ValueError);

  auto bidi = layers::Bidirectional(layers::GRU(2, {.stateful = true}));
  bidi(x);
  EXPECT_TRUE(bidi->stateful());
  EXPECT_NO_THROW(bidi->reset_states());
  EXPECT_THROW(layers::Bidirectional(layers::GRU(2))->reset_states(), ValueError);
}

// ---- dropout ---------------------------------------------------------------------------------

TEST(RnnDropout, InputMaskIsSharedOverTime) {
  // kernel = identity, no recurrence, linear: the outputs are the inputs times one mask per
  // (sample, feature), the same at every timestep, with values 0 or 1 / (1 - rate).
  const int64_t batch = 256, steps = 4, units = 8;
  auto rnn = layers::SimpleRNN(units, {.activation = "linear",
                                       .use_bias = false,
                                       .recurrent_initializer = "zeros",
                                       .dropout = 0.25,
                                       .return_sequences = true,
                                       .seed = 7});
  Tensor x = ops::ones({batch, steps, units});
  rnn(x);
  rnn->set_weights({ops::eye(units), ops::zeros({units, units})});
  EXPECT_TENSOR_EQ(rnn(x), x);  // inference: no dropout
  std::vector<float> y = rnn(x, {.training = true}).to_vector<float>();
  int64_t zeros = 0;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t j = 0; j < units; ++j) {
      float first = y[static_cast<size_t>((b * steps) * units + j)];
      EXPECT_TRUE(first == 0.0f || std::abs(first - 1.0f / 0.75f) < 1e-6f) << first;
      zeros += first == 0.0f;
      for (int64_t t = 1; t < steps; ++t)
        EXPECT_EQ(y[static_cast<size_t>((b * steps + t) * units + j)], first);
    }
  // Binomial(2048, 0.25): mean 512, standard deviation 19.6.
  EXPECT_NEAR(static_cast<double>(zeros), 512.0, 5 * 19.6);
}

TEST(RnnDropout, RecurrentMaskIsSharedOverTime) {
  // kernel 0, bias 1, recurrent kernel identity, linear: h_t = 1 + m * h_{t-1}, m in {0, 2}
  // per (sample, unit): either 1, 1, 1 or 1, 3, 7.
  const int64_t batch = 128, units = 4;
  auto rnn = layers::SimpleRNN(units, {.activation = "linear",
                                       .recurrent_dropout = 0.5,
                                       .return_sequences = true,
                                       .seed = 3});
  Tensor x = ops::ones({batch, 3, 2});
  rnn(x);
  rnn->set_weights({ops::zeros({2, units}), ops::eye(units), ops::ones({units})});
  std::vector<float> y = rnn(x, {.training = true}).to_vector<float>();
  int64_t dropped = 0;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t j = 0; j < units; ++j) {
      float h1 = y[static_cast<size_t>((b * 3 + 0) * units + j)];
      float h2 = y[static_cast<size_t>((b * 3 + 1) * units + j)];
      float h3 = y[static_cast<size_t>((b * 3 + 2) * units + j)];
      EXPECT_EQ(h1, 1.0f);
      EXPECT_TRUE((h2 == 1.0f && h3 == 1.0f) || (h2 == 3.0f && h3 == 7.0f)) << h2 << " " << h3;
      dropped += h2 == 1.0f;
    }
  EXPECT_NEAR(static_cast<double>(dropped), 256.0, 5 * 16.0);  // Binomial(512, 0.5)
}

TEST(RnnDropout, LstmAndGruDropoutOnlyInTraining) {
  Tensor x = seq(4, 5, 3, 17);
  for (bool recurrent : {false, true}) {
    auto lstm = layers::LSTM(3, {.dropout = 0.5, .recurrent_dropout = recurrent ? 0.3 : 0.0,
                                 .seed = 1, .return_sequences = true});
    auto plain = layers::LSTM(3, {.return_sequences = true});
    lstm(x);
    plain(x);
    plain->set_weights(lstm->get_weights());
    // Inference is the plain recurrence (Keras's implementations 1 and 2 agree there).
    EXPECT_TENSOR_NEAR(lstm(x), plain(x), 1e-6, 1e-6);
    Tensor a = lstm(x, {.training = true});
    Tensor b = lstm(x, {.training = true});
    EXPECT_GT(ops::max(ops::absolute(ops::subtract(a, plain(x)))).item<float>(), 1e-3f);
    EXPECT_GT(ops::max(ops::absolute(ops::subtract(a, b))).item<float>(), 1e-4f);  // new masks

    auto gru = layers::GRU(3, {.dropout = 0.5, .recurrent_dropout = recurrent ? 0.3 : 0.0,
                               .seed = 2, .reset_after = !recurrent});
    auto gplain = layers::GRU(3, {.reset_after = !recurrent});
    gru(x);
    gplain(x);
    gplain->set_weights(gru->get_weights());
    EXPECT_TENSOR_NEAR(gru(x), gplain(x), 1e-6, 1e-6);
    EXPECT_GT(ops::max(ops::absolute(ops::subtract(gru(x, {.training = true}), gplain(x))))
                  .item<float>(),
              1e-4f);
  }
  // Gradients flow through the masked recurrence.
  auto lstm = layers::LSTM(2, {.dropout = 0.2, .recurrent_dropout = 0.2});
  lstm(x);
  GradientTape tape;
  Tensor loss = ops::sum(lstm(x, {.training = true}));
  auto grads = tape.gradient(loss, lstm->trainable_weights());
  for (const Tensor& g : grads) EXPECT_GT(ops::sum(ops::absolute(g)).item<float>(), 0.0f);
}

// ---- gradients (float64, finite differences) -------------------------------------------------

TEST(RnnGradients, FusedLstmStep) {
  Tensor xz = randn({3, 8}, 1), hz = randn({3, 8}, 2), c = randn({3, 2}, 3);
  ASSERT_TRUE(layers::detail::fused_rnn_enabled(xz));
  Tensor uh = randn({3, 2}, 4), uc = randn({3, 2}, 5);
  expect_gradcheck("lstm_step", [&](const std::vector<Tensor>& in) {
    auto [h, c2] = layers::detail::lstm_step(in[0], in[1], in[2]);
    return ops::add(ops::sum(ops::multiply(h, uh)), ops::sum(ops::multiply(c2, uc)));
  }, {xz, hz, c});
  // Against the decomposition.
  auto [h, c2] = layers::detail::lstm_step(xz, hz, c);
  backend::DecomposeScope decompose;
  auto [h_ref, c_ref] = layers::detail::lstm_step(xz, hz, c);
  EXPECT_TENSOR_NEAR(h, h_ref, 1e-14, 1e-14);
  EXPECT_TENSOR_NEAR(c2, c_ref, 1e-14, 1e-14);
}

TEST(RnnGradients, FusedGruStep) {
  Tensor xz = randn({3, 6}, 6), hz = randn({3, 6}, 7), b = randn({6}, 8), h = randn({3, 2}, 9);
  expect_gradcheck("gru_step", [](const std::vector<Tensor>& in) {
    return layers::detail::gru_step(in[0], in[1], in[2], in[3]);
  }, {xz, hz, b, h});
  expect_gradcheck("gru_step_no_bias", [](const std::vector<Tensor>& in) {
    return layers::detail::gru_step(in[0], in[1], Tensor(), in[2]);
  }, {xz, hz, h});
  Tensor fused = layers::detail::gru_step(xz, hz, b, h);
  backend::DecomposeScope decompose;
  EXPECT_TENSOR_NEAR(fused, layers::detail::gru_step(xz, hz, b, h), 1e-14, 1e-14);
}

TEST(RnnGradients, SecondOrderThroughFusedSteps) {
  // The gradient of the fused steps is itself differentiable (the rule's ops form).
  Tensor xz = randn({2, 8}, 11), hz = randn({2, 8}, 12), c = randn({2, 2}, 13);
  Tensor u = randn({2, 2}, 14);
  expect_gradcheck("lstm_step_grad", [&](const std::vector<Tensor>& in) {
    GradientTape inner;
    Tensor a = in[0], b = in[1], cc = in[2];
    inner.watch(a);
    inner.watch(b);
    inner.watch(cc);
    auto [h, c2] = layers::detail::lstm_step(a, b, cc);
    Tensor y = ops::add(ops::sum(ops::multiply(h, u)), ops::sum(ops::square(c2)));
    auto g = inner.gradient(y, std::vector<Tensor>{a, cc});
    return ops::add(ops::sum(ops::square(g[0])), ops::sum(ops::multiply(g[1], cc)));
  }, {xz, hz, c});
  Tensor gx = randn({2, 6}, 15), gh = randn({2, 6}, 16), gb = randn({6}, 17),
         gp = randn({2, 2}, 18);
  expect_gradcheck("gru_step_grad", [&](const std::vector<Tensor>& in) {
    GradientTape inner;
    Tensor a = in[0], b = in[1], bias = in[2], hp = in[3];
    inner.watch(a);
    inner.watch(bias);
    inner.watch(hp);
    Tensor h = layers::detail::gru_step(a, b, bias, hp);
    auto g = inner.gradient(ops::sum(ops::multiply(h, h)), std::vector<Tensor>{a, bias, hp});
    return ops::add(ops::add(ops::sum(ops::square(g[0])), ops::sum(ops::multiply(g[1], bias))),
                    ops::sum(ops::sin(g[2])));
  }, {gx, gh, gb, gp});
}

// The recurrence stepped with lstm_step (h_{t-1} R as its own matmul): what lstm_sequence
// computes in one op.
layers::detail::LstmSequence stepped_lstm(const Tensor& xz, const Tensor& r, const Tensor& h0,
                                          const Tensor& c0, bool go_backwards) {
  const int64_t steps = xz.shape()[0];
  TensorList x = ops::unstack(xz, steps, 0), outputs;
  Tensor h = h0, c = c0;
  for (int64_t k = 0; k < steps; ++k) {
    const int64_t t = go_backwards ? steps - 1 - k : k;
    std::tie(h, c) = layers::detail::lstm_step(x[static_cast<size_t>(t)], ops::matmul(h, r), c);
    outputs.push_back(h);
  }
  return {ops::stack(outputs, 0), h, c};
}

TEST(RnnGradients, FusedLstmSequence) {
  if (!layers::detail::fused_rnn_enabled(randn({1, 4}, 1)))
    GTEST_SKIP() << "the fused recurrent loops run on host backends only";
  // One op for the whole recurrence: against the steps' values (in float32 and float64, where
  // the steps' ops are the decomposed ones), and finite differences of every input, both ways.
  for (bool backwards : {false, true}) {
    SCOPED_TRACE(backwards ? "go_backwards" : "forwards");
    Tensor xz = randn({5, 3, 8}, 41), r = randn({2, 8}, 42, 0.5), h0 = randn({3, 2}, 43),
           c0 = randn({3, 2}, 44);
    for (DType dt : {DType::Float64, DType::Float32}) {
      auto fused = layers::detail::lstm_sequence(ops::cast(xz, dt), ops::cast(r, dt),
                                                 ops::cast(h0, dt), ops::cast(c0, dt), backwards);
      ASSERT_TRUE(fused.has_value());
      backend::DecomposeScope decompose;
      ASSERT_FALSE(layers::detail::lstm_sequence(xz, r, h0, c0, backwards).has_value());
      auto ref = stepped_lstm(ops::cast(xz, dt), ops::cast(r, dt), ops::cast(h0, dt),
                              ops::cast(c0, dt), backwards);
      const double tol = dt == DType::Float64 ? 1e-14 : 1e-6;
      EXPECT_TENSOR_NEAR(fused->outputs, ref.outputs, tol, tol);
      EXPECT_TENSOR_NEAR(fused->h, ref.h, tol, tol);
      EXPECT_TENSOR_NEAR(fused->c, ref.c, tol, tol);
    }
    Tensor uo = randn({5, 3, 2}, 45), uh = randn({3, 2}, 46), uc = randn({3, 2}, 47);
    expect_gradcheck(
        backwards ? "lstm_sequence_backwards" : "lstm_sequence",
        [&](const std::vector<Tensor>& in) {
          auto s = layers::detail::lstm_sequence(in[0], in[1], in[2], in[3], backwards).value();
          return ops::add(
              ops::add(ops::sum(ops::multiply(s.outputs, uo)), ops::sum(ops::multiply(s.h, uh))),
              ops::sum(ops::multiply(s.c, uc)));
        },
        {xz, r, h0, c0});
  }
}

TEST(RnnGradients, SecondOrderThroughFusedSequence) {
  if (!layers::detail::fused_rnn_enabled(randn({1, 4}, 1)))
    GTEST_SKIP() << "the fused recurrent loops run on host backends only";
  // The sequence's gradient rule as differentiable ops, when a higher-order graph is built.
  Tensor xz = randn({3, 2, 8}, 51), r = randn({2, 8}, 52, 0.5), h0 = randn({2, 2}, 53),
         c0 = randn({2, 2}, 54), u = randn({3, 2, 2}, 55);
  expect_gradcheck(
      "lstm_sequence_grad",
      [&](const std::vector<Tensor>& in) {
        GradientTape inner;
        Tensor a = in[0], b = in[1], h = in[2], c = in[3];
        for (Tensor* t : {&a, &b, &h, &c}) inner.watch(*t);
        auto s = layers::detail::lstm_sequence(a, b, h, c, true).value();
        Tensor y = ops::add(ops::sum(ops::multiply(s.outputs, u)), ops::sum(ops::square(s.c)));
        auto g = inner.gradient(y, std::vector<Tensor>{a, b, h, c});
        return ops::add(ops::add(ops::sum(ops::square(g[0])), ops::sum(ops::multiply(g[1], b))),
                        ops::add(ops::sum(ops::sin(g[2])), ops::sum(ops::square(g[3]))));
      },
      {xz, r, h0, c0});
}

TEST(RnnGradients, LayersRunTheSequenceAsOneOp) {
  if (!layers::detail::fused_rnn_enabled(randn({1, 4}, 1)))
    GTEST_SKIP() << "the fused recurrent loops run on host backends only";
  // Where the fused sequence applies (no mask, default activations, no recurrent dropout),
  // the layer's output is the sequence op's; elsewhere the steps'.
  // The name of the recurrent op the output came from (through views and slices), or "".
  auto node = [](const Tensor& t) {
    for (const autograd::Node* n = t.impl()->grad_fn.get(); n;
         n = n->inputs.empty() ? nullptr : n->inputs[0].node.get()) {
      const std::string_view name = n->name();
      if (name.find("sequence") != std::string_view::npos ||
          name.find("step") != std::string_view::npos)
        return std::string(name);
    }
    return std::string();
  };
  Tensor x = randn({2, 4, 3}, 61);
  GradientTape tape;
  auto lstm = layers::LSTM(3, {.return_sequences = true});
  EXPECT_EQ(node((*lstm)(x)), "lstm_sequence");
  auto rnn = layers::RNN(layers::LSTMCell(3), {.return_sequences = true});
  EXPECT_EQ(node((*rnn)(x)), "lstm_sequence");
  auto dropped = layers::LSTM(3, {.recurrent_dropout = 0.5, .return_sequences = true});
  EXPECT_NE(node((*dropped)(x, {.training = true})), "lstm_sequence");
  EXPECT_EQ(node((*dropped)(x, {.training = false})), "lstm_sequence");
  auto relu = layers::LSTM(3, {.activation = "relu", .return_sequences = true});
  EXPECT_NE(node((*relu)(x)), "lstm_sequence");
  Tensor mask = Tensor::from_vector(
      std::vector<bool>{true, true, false, true, true, true, true, false}, {2, 4});
  EXPECT_NE(node((*lstm)({x}, {.mask = mask})[0]), "lstm_sequence");
  // Input dropout (per batch row) projects batch-major, then transposes.
  auto input_dropped = layers::LSTM(3, {.dropout = 0.5, .return_sequences = true});
  EXPECT_EQ(node((*input_dropped)(x, {.training = true})), "lstm_sequence");
}

// The layer's output (and states) as a function of the sequence and the initial states.
void check_layer_gradients(const std::string& name, const std::shared_ptr<layers::RNNLayer>& layer,
                           int64_t states, int64_t units, const Tensor& mask = Tensor()) {
  Tensor x = randn({2, 4, 3}, 21);
  TensorList init;
  for (int64_t s = 0; s < states; ++s) init.push_back(randn({2, units}, 22 + s));
  TensorList probe{x};
  probe.insert(probe.end(), init.begin(), init.end());
  (*layer)(probe);
  std::vector<Tensor> in{x};
  in.insert(in.end(), init.begin(), init.end());
  expect_gradcheck(name, [&](const std::vector<Tensor>& args) {
    TensorList out = (*layer)(TensorList(args.begin(), args.end()), {.mask = mask});
    Tensor total = ops::zeros({}, DType::Float64);
    for (size_t i = 0; i < out.size(); ++i)
      total = ops::add(total, ops::sum(ops::multiply(out[i], ops::cos(out[i]))));
    return total;
  }, in);
}

TEST(RnnGradients, WholeLayersInFloat64) {
  check_layer_gradients("lstm", layers::LSTM(3, {.return_sequences = true, .return_state = true,
                                                 .dtype = "float64"}),
                        2, 3);
  check_layer_gradients("lstm_backwards",
                        layers::LSTM(2, {.return_state = true, .go_backwards = true,
                                         .dtype = "float64"}),
                        2, 2);
  check_layer_gradients("gru", layers::GRU(3, {.return_sequences = true, .return_state = true,
                                               .dtype = "float64"}),
                        1, 3);
  check_layer_gradients("gru_reset_before",
                        layers::GRU(2, {.return_state = true, .reset_after = false,
                                        .dtype = "float64"}),
                        1, 2);
  check_layer_gradients("simple_rnn",
                        layers::SimpleRNN(3, {.return_sequences = true, .return_state = true,
                                              .dtype = "float64"}),
                        1, 3);
  Tensor mask = Tensor::from_vector(
      std::vector<bool>{true, false, true, true, false, true, true, false}, {2, 4});
  check_layer_gradients("lstm_masked",
                        layers::LSTM(3, {.return_sequences = true, .return_state = true,
                                         .dtype = "float64"}),
                        2, 3, mask);
  check_layer_gradients("gru_masked",
                        layers::GRU(2, {.return_state = true, .go_backwards = true,
                                        .dtype = "float64"}),
                        1, 2, mask);
}

TEST(RnnGradients, WeightGradientsMatchTheDecomposition) {
  // The fused steps give the weights the same gradients as the separate ops.
  Tensor x = randn({2, 5, 3}, 31);
  for (std::string kind : {"lstm", "gru"}) {
    std::shared_ptr<layers::RNNLayer> layer;
    if (kind == "lstm") layer = layers::LSTM(4, {.return_sequences = true, .dtype = "float64"});
    else layer = layers::GRU(4, {.return_sequences = true, .dtype = "float64"});
    (*layer)(x);
    auto grads = [&] {
      GradientTape tape;
      Tensor y = (*layer)(x);
      return tape.gradient(ops::sum(ops::multiply(y, ops::sin(y))), layer->trainable_weights());
    };
    auto fused = grads();
    std::vector<Tensor> reference;
    {
      backend::DecomposeScope decompose;
      reference = grads();
    }
    ASSERT_EQ(fused.size(), reference.size());
    for (size_t i = 0; i < fused.size(); ++i)
      EXPECT_TENSOR_NEAR(fused[i], reference[i], 1e-12, 1e-12) << kind << " weight " << i;
  }
}

// ---- custom cells and TimeDistributed over any layer -----------------------------------------

class MinimalCell : public layers::RecurrentCell {
 public:
  explicit MinimalCell(int64_t units) : units_(units) {}
  std::vector<int64_t> state_size() const override { return {units_}; }
  int64_t output_size() const override { return units_; }
  void build(const Shape& s) override {
    kernel_ = add_weight({.shape = {s.back(), units_}, .initializer = "ones", .name = "kernel"});
  }
  std::pair<Tensor, TensorList> step(const Tensor& x, const TensorList& states,
                                     const CallContext&) override {
    Tensor h = ops::add(ops::matmul(x, kernel_), states[0]);
    return {h, {h}};
  }

 private:
  int64_t units_;
  Variable kernel_;
};

TEST(RnnCustom, CustomCellIsACumulativeSum) {
  // h_t = h_{t-1} + sum(x_t): the running sum over time, in every unit.
  auto rnn = layers::RNN(make_layer<MinimalCell>(2), {.return_sequences = true});
  Tensor x = seq(2, 4, 3, 41);
  Tensor y = rnn(x);
  Tensor expected = ops::cumsum(ops::sum(x, -1), 1);
  EXPECT_TENSOR_NEAR(y, ops::stack({expected, expected}, -1), 1e-6, 1e-6);
  auto back = layers::RNN(make_layer<MinimalCell>(1), {.go_backwards = true});
  EXPECT_TENSOR_NEAR(back(x), ops::sum(x, {1, 2}, true).reshape({2, 1}), 1e-5, 1e-5);
}

TEST(RnnCustom, TimeDistributedCallsTheLayerPerTimestep) {
  // A layer whose output depends on the batch as a whole (its mean over the batch axis): per
  // timestep, as Keras 3 calls it, differs from one call on the merged batch and time axes.
  class BatchCentre : public Layer {
   public:
    Tensor call(const Tensor& x, const CallContext&) override {
      return ops::subtract(x, ops::mean(x, 0, true));
    }
  };
  auto td = layers::TimeDistributed(make_layer<BatchCentre>());
  Tensor x = seq(3, 4, 2, 43);
  Tensor expected = ops::subtract(x, ops::mean(x, 0, true));
  EXPECT_TENSOR_NEAR(td(x), expected, 1e-6, 1e-6);
}

}  // namespace
}  // namespace keras
