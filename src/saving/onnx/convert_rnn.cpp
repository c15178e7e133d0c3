// Converters of LSTM, GRU and SimpleRNN to ONNX's LSTM, GRU and RNN operators (one direction,
// sequence-major layout with a Transpose on each side). Keras's gate order is i, f, c, o for
// LSTM and z, r, h for GRU; ONNX's is i, o, f, c and z, r, h. go_backwards reverses the input
// and runs forward, so the outputs come in Keras's (processing) order.

#include <optional>

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

// A masked sequence rearranged for ONNX's recurrent operators, which can skip only trailing
// steps (sequence_lens): the unmasked steps moved to the front in their order, the masked ones
// after them. Keras's masked step keeps the states and repeats the previous output, so the
// states after the last unmasked step and the outputs of the unmasked steps are the same.
struct MaskedSteps {
  std::string inputs;    // (batch, time, features), unmasked steps first
  std::string lengths;   // (batch,) int32: unmasked steps per sequence
  std::string done;      // (batch, time) int64: unmasked steps up to and including each step
  std::string any_step;  // (batch, 1) bool: at least one unmasked step
  std::string mask;      // (batch, time) bool
};

MaskedSteps compact_masked_steps(Graph& g, const std::string& x, const std::string& mask,
                                 const std::string& s) {
  MaskedSteps m;
  m.mask = mask;
  const std::string ones = g.node("Cast", {mask}, {{"to", int64_t{7}}}, s);  // INT64
  const std::string one = g.constant_i64(s + "/one", {1});
  m.done = g.node("CumSum", {ones, g.constant_i64(s + "/time_axis", {1})}, {}, s);
  const std::string count = reduce(g, "ReduceSum", ones, {1}, true, s);  // (batch, 1)
  m.lengths = g.node("Cast", {g.node("Squeeze", {count, one}, {}, s)}, {{"to", int64_t{6}}}, s);
  m.any_step = g.node("Greater", {count, g.constant_i64(s + "/none", {0})}, {}, s);
  // Where each step goes: unmasked step t to done[t] - 1, masked step t to count + t - done[t].
  // Range takes scalars: the time extent as one, from the input's shape.
  const auto scalar = [&](const std::string& name, int64_t v) {
    return g.initializer(s + "/" + name, Tensor::from_vector(std::vector<int64_t>{v}, Shape{}));
  };
  const std::string time =
      g.node("Gather", {g.node("Shape", {x}, {}, s), scalar("time_index", 1)}, {}, s);
  const std::string t =
      g.node("Range", {scalar("start", 0), time, scalar("step", 1)}, {}, s);
  const std::string to_kept = g.node("Sub", {m.done, one}, {}, s);
  const std::string to_masked = g.node("Sub", {g.node("Add", {count, t}, {}, s), m.done}, {}, s);
  const std::string to = g.node("Where", {mask, to_kept, to_masked}, {}, s);
  const std::string at =
      g.node("Expand", {g.node("Unsqueeze", {to, g.constant_i64(s + "/feature_axis", {2})}, {}, s),
                        g.node("Shape", {x}, {}, s)},
             {}, s);
  m.inputs = g.node("ScatterElements", {x, at, x}, {{"axis", int64_t{1}}}, s);
  return m;
}

// Keras's outputs of a masked sequence from the operator's outputs on the rearranged one
// (batch, time, units): step t gives the output of the last unmasked step up to t (zeros before
// the first one), or zeros at masked steps with zero_output_for_mask.
std::string masked_outputs(Graph& g, const std::string& y, const MaskedSteps& m,
                           bool zero_output_for_mask, const std::string& s) {
  const std::string last_kept =
      g.node("Max", {g.node("Sub", {m.done, g.constant_i64(s + "/one", {1})}, {}, s),
                     g.constant_i64(s + "/zero_index", {0})},
             {}, s);
  const std::string at = g.node(
      "Expand",
      {g.node("Unsqueeze", {last_kept, g.constant_i64(s + "/feature_axis", {2})}, {}, s),
       g.node("Shape", {y}, {}, s)},
      {}, s);
  const std::string gathered = g.node("GatherElements", {y, at}, {{"axis", int64_t{1}}}, s);
  const std::string valid =
      zero_output_for_mask ? m.mask
                           : g.node("Greater", {m.done, g.constant_i64(s + "/none", {0})}, {}, s);
  return g.node("Where",
                {g.node("Unsqueeze", {valid, g.constant_i64(s + "/feature_axis", {2})}, {}, s),
                 gathered, g.scalar_f32(s + "/zero", 0.0f)},
                {}, s);
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
  // A mask, (batch, time) (or (batch, time, 1)), in the order the steps are processed.
  std::string mask;
  if (c.masked())
    mask = g.node("Reshape", {c.input_masks[0], g.constant_i64(s + "/mask_shape", {0, -1})}, {}, s);
  if (c.config.value("go_backwards", false)) {
    x = reverse_axis(g, x, 1, s);
    if (!mask.empty()) mask = reverse_axis(g, mask, 1, s);
  }
  std::optional<MaskedSteps> steps;
  if (!mask.empty()) {
    steps = compact_masked_steps(g, x, mask, s);
    x = steps->inputs;
  }
  x = transpose(g, x, {1, 0, 2}, s);  // (time, batch, features)
  std::vector<std::string> in{x, g.initializer(s + "/W", gates_transposed(kernel, units, r.order)),
                              g.initializer(s + "/R", gates_transposed(recurrent, units, r.order)),
                              g.constant_f32(s + "/B", both, Shape{1, 2 * gates * units})};
  // Initial states (the call's further inputs, (batch, units) each) as (1, batch, units).
  if (c.inputs.size() > 1 && c.inputs.size() != static_cast<size_t>(1 + r.states))
    c.fail("it was called with " + std::to_string(c.inputs.size() - 1) + " initial states; " +
           r.op + " takes " + std::to_string(r.states));
  // sequence_lens: every sequence is whole, or the count of unmasked steps.
  if (steps || c.inputs.size() > 1) in.push_back(steps ? steps->lengths : "");
  for (size_t i = 1; i < c.inputs.size(); ++i)
    in.push_back(g.node("Unsqueeze", {c.inputs[i], g.constant_i64(s + "/state_axes", {0})}, {}, s));
  const Values out = g.node_n(r.op, in, 1 + r.states, attrs, s);
  // Y: (time, 1, batch, units); Y_h, Y_c: (1, batch, units).
  const auto squeeze = [&](const std::string& v, int64_t axis) {
    return g.node("Squeeze", {v, g.constant_i64(s + "/squeeze_axes", {axis})}, {}, s);
  };
  const bool sequences = c.config.value("return_sequences", false);
  std::string output;
  Values states;
  for (int i = 0; i < r.states; ++i) states.push_back(squeeze(out[1 + i], 0));
  if (steps) {
    const std::string outputs = masked_outputs(g, transpose(g, squeeze(out[0], 1), {1, 0, 2}, s),
                                               *steps, c.config.value("zero_output_for_mask", false),
                                               s);
    output = sequences ? outputs
                       : g.node("Gather", {outputs, g.constant_i64(s + "/last", {-1})},
                                {{"axis", int64_t{1}}}, s);
    if (!sequences) output = squeeze(output, 1);
    // A sequence with every step masked keeps its initial states.
    for (size_t i = 0; i < states.size(); ++i)
      states[i] = g.node("Where", {steps->any_step, states[i],
                                   c.inputs.size() > 1 ? c.inputs[1 + i]
                                                       : g.scalar_f32(s + "/zero", 0.0f)},
                         {}, s);
    c.output_masks = MaskValues{sequences ? c.input_masks[0] : ""};
  } else {
    output = sequences ? transpose(g, squeeze(out[0], 1), {1, 0, 2}, s) : states[0];
  }
  Values result{output};
  if (c.config.value("return_state", false)) result.insert(result.end(), states.begin(), states.end());
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
