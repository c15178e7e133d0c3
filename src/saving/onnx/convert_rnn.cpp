// Converters of LSTM, GRU and SimpleRNN to ONNX's LSTM, GRU and RNN operators (one direction,
// sequence-major layout with a Transpose on each side). Keras's gate order is i, f, c, o for
// LSTM and z, r, h for GRU; ONNX's is i, o, f, c and z, r, h. go_backwards reverses the input
// and runs forward, so the outputs come in Keras's (processing) order.

#include "layer_call.h"

namespace keras::onnx {
namespace {

using Values = std::vector<std::string>;

// The ONNX activation name of a Keras one, for the recurrent operators' `activations`.
std::string onnx_activation(const LayerCall& c, const std::string& key, const std::string& dflt) {
  const Config& a = c.config.contains(key) ? c.config[key] : Config(dflt);
  const std::string name = a.is_string() ? a.get<std::string>() : "";
  if (name == "tanh") return "Tanh";
  if (name == "sigmoid") return "Sigmoid";
  if (name == "relu") return "Relu";
  if (name == "softsign") return "Softsign";
  if (name == "softplus") return "Softplus";
  c.fail(key + " \"" + name + "\" has no form among ONNX's recurrent activations (tanh, " +
         "sigmoid, relu, softsign, softplus)");
}

// Keras's (rows, gates * units) matrix as ONNX's (1, gates * units, rows), gate blocks in ONNX
// order: order[i] is the Keras gate of ONNX gate i.
Tensor gates_transposed(const Tensor& m, int64_t units, const std::vector<int>& order) {
  const int64_t rows = m.shape()[0], cols = m.shape()[1];
  const std::vector<float> v = m.astype(DType::Float32).to_vector<float>();
  std::vector<float> out(v.size());
  for (size_t g = 0; g < order.size(); ++g)
    for (int64_t j = 0; j < units; ++j)
      for (int64_t r = 0; r < rows; ++r)
        out[(static_cast<int64_t>(g) * units + j) * rows + r] =
            v[r * cols + order[g] * units + j];
  return Tensor::from_host(out.data(), DType::Float32, Shape{1, cols, rows}, out.size());
}

// A Keras bias vector (gates * units) with its gate blocks in ONNX order.
std::vector<float> gates_reordered(const std::vector<float>& b, int64_t units,
                                   const std::vector<int>& order) {
  std::vector<float> out;
  for (int g : order) out.insert(out.end(), b.begin() + g * units, b.begin() + (g + 1) * units);
  return out;
}

struct Recurrent {
  std::string op;
  std::vector<int> order;  // Keras gate of each ONNX gate
  int states;              // 2 for LSTM (h, c), 1 otherwise
};

Values recurrent(LayerCall& c, const Recurrent& r) {
  if (c.config.value("stateful", false)) c.fail("stateful recurrent layers are not exported");
  Graph& g = c.g;
  const std::string s = c.scope();
  const int64_t units = c.at("units").get<int64_t>();
  const int64_t gates = static_cast<int64_t>(r.order.size());
  const Tensor kernel = c.weight("kernel"), recurrent = c.weight("recurrent_kernel");

  // ONNX's B: the input biases then the recurrent ones, each (gates * units).
  std::vector<float> wb(static_cast<size_t>(gates * units), 0.0f), rb = wb;
  bool linear_before_reset = false;
  if (c.config.value("use_bias", true)) {
    const Tensor bias = c.weight("bias");
    const std::vector<float> b = bias.astype(DType::Float32).to_vector<float>();
    if (bias.ndim() == 2) {  // GRU with reset_after: (2, 3 * units), input then recurrent
      const auto half = b.begin() + gates * units;
      wb = gates_reordered(std::vector<float>(b.begin(), half), units, r.order);
      rb = gates_reordered(std::vector<float>(half, b.end()), units, r.order);
    } else {
      wb = gates_reordered(b, units, r.order);
    }
  }
  if (r.op == "GRU") linear_before_reset = c.config.value("reset_after", true);
  std::vector<float> both = wb;
  both.insert(both.end(), rb.begin(), rb.end());

  std::vector<std::string> act;
  if (r.op == "LSTM") {
    const std::string f = onnx_activation(c, "recurrent_activation", "sigmoid");
    const std::string a = onnx_activation(c, "activation", "tanh");
    act = {f, a, a};
  } else if (r.op == "GRU") {
    act = {onnx_activation(c, "recurrent_activation", "sigmoid"),
           onnx_activation(c, "activation", "tanh")};
  } else {
    act = {onnx_activation(c, "activation", "tanh")};
  }
  std::vector<Attribute> attrs{{"hidden_size", units}, {"direction", std::string("forward")}};
  attrs.push_back({"activations", act});
  if (r.op == "GRU") attrs.push_back({"linear_before_reset", int64_t{linear_before_reset}});

  std::string x = c.inputs[0];
  if (c.config.value("go_backwards", false)) {
    x = reverse_axis(g, x, 1, s);
  }
  x = transpose(g, x, {1, 0, 2}, s);  // (time, batch, features)
  std::vector<std::string> in{x, g.initializer(s + "/W", gates_transposed(kernel, units, r.order)),
                              g.initializer(s + "/R", gates_transposed(recurrent, units, r.order)),
                              g.constant_f32(s + "/B", both, Shape{1, 2 * gates * units})};
  // Initial states (the call's further inputs, (batch, units) each) as (1, batch, units).
  if (c.inputs.size() > 1) {
    if (c.inputs.size() != static_cast<size_t>(1 + r.states))
      c.fail("it was called with " + std::to_string(c.inputs.size() - 1) + " initial states; " +
             r.op + " takes " + std::to_string(r.states));
    in.push_back("");  // sequence_lens: every sequence is whole
    for (size_t i = 1; i < c.inputs.size(); ++i)
      in.push_back(g.node("Unsqueeze", {c.inputs[i], g.constant_i64(s + "/state_axes", {0})}, {}, s));
  }
  const Values out = g.node_n(r.op, in, 1 + r.states, attrs, s);
  // Y: (time, 1, batch, units); Y_h, Y_c: (1, batch, units).
  const auto squeeze = [&](const std::string& v, int64_t axis) {
    return g.node("Squeeze", {v, g.constant_i64(s + "/squeeze_axes", {axis})}, {}, s);
  };
  std::string output = c.config.value("return_sequences", false)
                           ? transpose(g, squeeze(out[0], 1), {1, 0, 2}, s)
                           : squeeze(out[1], 0);
  Values result{output};
  if (c.config.value("return_state", false))
    for (int i = 0; i < r.states; ++i) result.push_back(squeeze(out[1 + i], 0));
  return result;
}

Values lstm(LayerCall& c) { return recurrent(c, {"LSTM", {0, 3, 1, 2}, 2}); }
Values gru(LayerCall& c) { return recurrent(c, {"GRU", {0, 1, 2}, 1}); }
Values simple_rnn(LayerCall& c) { return recurrent(c, {"RNN", {0}, 1}); }

}  // namespace

void register_rnn(std::map<std::string, Converter>& t) {
  t["LSTM"] = lstm;
  t["GRU"] = gru;
  t["SimpleRNN"] = simple_rnn;
}

}  // namespace keras::onnx
