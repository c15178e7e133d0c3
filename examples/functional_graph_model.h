#pragma once
// The model of examples/functional_graph.cpp, also built by tools/interop/interop_models.cpp so
// that the live round trip (scripts/interop.sh) opens it in Python Keras. Its Python twin is
// example_graph() in tools/keras_oracle/graphs.py (same layers, names and graph).
//
// Four inputs: a feature vector for a pretrained-style base model, a sequence, and the
// encoder's initial states. Nested Functional model, an RNN with states feeding another RNN,
// and keras::ops on symbolic tensors (Mean, Multiply, Add, Concatenate, Relu nodes).

#include <keras/keras.h>

inline keras::ModelPtr<keras::FunctionalModel> functional_graph_model() {
  namespace layers = keras::layers;
  namespace ops = keras::ops;
  using Tensors = std::vector<keras::KerasTensor>;

  // A base model as keras.applications returns them: a Functional model of its own.
  auto base_in = keras::Input({16}, {.name = "base_input"});
  auto base_hidden = layers::Dense(12, {.activation = "relu", .name = "base_dense"})(base_in);
  auto base = keras::Functional(base_in, layers::Dense(8, {.name = "base_proj"})(base_hidden),
                                {.name = "base"});

  auto image = keras::Input({16}, {.name = "image"});
  auto sequence = keras::Input({5, 3}, {.name = "sequence"});
  auto h0 = keras::Input({6}, {.name = "state_h"});
  auto c0 = keras::Input({6}, {.name = "state_c"});
  // encoder(sequence, initial_state=[h0, c0]) -> [sequence output, h, c]
  Tensors encoded =
      layers::LSTM(6, {.return_sequences = true, .return_state = true, .name = "encoder"})(
          Tensors{sequence, h0, c0});
  // decoder(output, initial_state=h)
  auto decoded = layers::GRU(6, {.name = "decoder"})(Tensors{encoded[0], encoded[1]})[0];

  auto features = base(image);
  auto pooled = ops::mean(encoded[0], 1);
  auto joined = ops::concatenate({features, pooled * 0.5 + decoded}, -1);
  auto probabilities =
      layers::Dense(3, {.activation = "softmax", .name = "classifier"})(ops::relu(joined));
  return keras::Functional(Tensors{image, sequence, h0, c0}, Tensors{probabilities, encoded[2]},
                           {.name = "example_graph"});
}
