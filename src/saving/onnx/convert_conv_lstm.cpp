// ConvLSTM1D/2D/3D as ONNX has no operator for them: the input convolution of every step at
// once (one Conv over batch * time frames), then a Scan over the time axis whose body is one
// cell step as ConvLSTMCell computes it: the recurrent convolution ("same", stride 1), the
// gates i, f, c, o (Keras's order), c = f * c_prev + i * act(c~), h = o * act(c). The time
// axis stays dynamic. Inside, data is channels_first (ONNX's Conv layout).

#include "keras/ops/core.h"
#include "keras/ops/numpy.h"
#include "layer_call.h"

namespace keras::onnx {
namespace {

using Values = std::vector<std::string>;

// Keras's kernel (spatial..., in, out) as ONNX's Conv weight (out, in, spatial...).
Tensor conv_weight(const Tensor& kernel) {
  const int r = kernel.ndim();
  std::vector<int> perm{r - 1, r - 2};
  for (int i = 0; i < r - 2; ++i) perm.push_back(i);
  return ops::transpose(kernel, perm).contiguous();
}

// (batch, time, spatial..., channels) <-> (batch, time, channels, spatial...), `rank` spatial.
std::vector<int64_t> sequence_to_channels_first(int rank) {
  std::vector<int64_t> p{0, 1, rank + 2};
  for (int i = 0; i < rank; ++i) p.push_back(2 + i);
  return p;
}
std::vector<int64_t> sequence_to_channels_last(int rank) {
  std::vector<int64_t> p{0, 1};
  for (int i = 0; i < rank; ++i) p.push_back(3 + i);
  p.push_back(2);
  return p;
}

Values conv_lstm(LayerCall& c) {
  if (c.config.value("stateful", false)) c.fail("stateful recurrent layers are not exported");
  if (c.masked()) c.fail("a mask reaches it, and a masked ConvLSTM is not exported");
  Graph& g = c.g;
  const std::string s = c.scope();
  const Tensor kernel = c.weight("kernel");
  const int rank = kernel.ndim() - 2;
  const int64_t filters = c.at("filters").get<int64_t>();
  const bool cl = c.config.value("data_format", "channels_last") != "channels_first";
  const bool sequences = c.config.value("return_sequences", false);
  const Shape& in = c.input_shapes.at(0);
  const Shape& out = c.output_shapes.at(0);
  // The step's input (channels, spatial...) and state (filters, spatial'...) extents.
  std::vector<int64_t> step_in, state;
  const int in_first = cl ? 2 : 3, out_first = (sequences ? 2 : 1) + (cl ? 0 : 1);
  step_in.push_back(in[cl ? rank + 2 : 2]);
  for (int i = 0; i < rank; ++i) step_in.push_back(in[in_first + i]);
  state.push_back(filters);
  for (int i = 0; i < rank; ++i) state.push_back(out[out_first + i]);
  for (int64_t d : step_in)
    if (d < 0) c.fail("its input's channel and spatial extents must be known");
  for (int64_t d : state)
    if (d < 0) c.fail("its output's spatial extents must be known");

  // Every frame's input convolution (plus bias) at once: (batch * time, 4 filters, spatial'...).
  std::string x = c.inputs[0];
  if (cl) x = transpose(g, x, sequence_to_channels_first(rank), s);
  std::vector<int64_t> folded{-1};
  folded.insert(folded.end(), step_in.begin(), step_in.end());
  x = g.node("Reshape", {x, g.constant_i64(s + "/frames", folded)}, {}, s);
  const std::vector<int64_t> k(kernel.shape().begin(), kernel.shape().begin() + rank);
  std::vector<Attribute> attrs{{"kernel_shape", k},
                               {"strides", int_tuple(c, "strides", rank)},
                               {"dilations", int_tuple(c, "dilation_rate", rank)}};
  const std::string padding = c.config.value("padding", "valid");
  if (padding == "same") attrs.push_back({"auto_pad", std::string("SAME_UPPER")});
  else if (padding != "valid") c.fail("padding \"" + padding + "\" is not valid or same");
  std::vector<std::string> conv_in{x, c.initializer("kernel", conv_weight(kernel))};
  if (c.config.value("use_bias", true)) conv_in.push_back(c.weight_value("bias"));
  const std::string z = g.node("Conv", conv_in, attrs, s);
  // Back to (batch, time, 4 filters, spatial'...), batch and time from the input.
  std::vector<int64_t> step_z{4 * filters};
  step_z.insert(step_z.end(), state.begin() + 1, state.end());
  const std::string batch_time = g.node(
      "Slice", {g.node("Shape", {c.inputs[0]}, {}, s), g.constant_i64(s + "/start", {0}),
                g.constant_i64(s + "/end", {2})},
      {}, s);
  const std::string zs = g.node(
      "Reshape", {z, g.node("Concat", {batch_time, g.constant_i64(s + "/step_z", step_z)},
                            {{"axis", int64_t{0}}}, s)},
      {}, s);

  // The initial states: given (in the layer's format), or zeros of the batch's size.
  std::vector<int64_t> to_first{0, rank + 1}, to_last{0};
  for (int i = 0; i < rank; ++i) to_first.push_back(1 + i);
  for (int i = 0; i < rank; ++i) to_last.push_back(2 + i);
  to_last.push_back(1);
  Values initial;
  if (c.inputs.size() == 3) {
    for (size_t i = 1; i < 3; ++i)
      initial.push_back(cl ? transpose(g, c.inputs[i], to_first, s) : c.inputs[i]);
  } else if (c.inputs.size() == 1) {
    const std::string shape = g.node(
        "Concat", {g.node("Slice", {batch_time, g.constant_i64(s + "/zero", {0}),
                                    g.constant_i64(s + "/one", {1})},
                          {}, s),
                   g.constant_i64(s + "/state", state)},
        {{"axis", int64_t{0}}}, s);
    const std::string zeros = g.node("Expand", {g.scalar_f32(s + "/zero_state", 0.0f), shape}, {}, s);
    initial = {zeros, zeros};
  } else {
    c.fail("it was called with " + std::to_string(c.inputs.size() - 1) +
           " initial states; ConvLSTM takes 2 (h, c)");
  }

  // The Scan body: one step of the cell (its weight an initializer of the outer graph, which
  // the body may read).
  const Tensor recurrent = c.weight("recurrent_kernel");
  const std::string recurrent_weight = c.initializer("recurrent_kernel", conv_weight(recurrent));
  std::shared_ptr<Graph> body = g.body(s + "/step");
  Graph& b = *body;
  Shape state_shape{-1}, z_shape{-1};
  for (int64_t d : state) state_shape.push_back(d);
  for (int64_t d : step_z) z_shape.push_back(d);
  const std::string h_prev = b.unique(s + "/h_prev"), c_prev = b.unique(s + "/c_prev"),
                    z_t = b.unique(s + "/z_t");
  b.add_input(h_prev, DType::Float32, state_shape, {"batch"});
  b.add_input(c_prev, DType::Float32, state_shape, {"batch"});
  b.add_input(z_t, DType::Float32, z_shape, {"batch"});
  const std::string hz = b.node(
      "Conv", {h_prev, recurrent_weight},
      {{"kernel_shape", std::vector<int64_t>(recurrent.shape().begin(),
                                             recurrent.shape().begin() + rank)},
       {"auto_pad", std::string("SAME_UPPER")}},
      s);
  const Values gates =
      b.node_n("Split", {b.node("Add", {z_t, hz}, {}, s),
                         b.constant_i64(s + "/gate_sizes", {filters, filters, filters, filters})},
               4, {{"axis", int64_t{1}}}, s);
  LayerCall step{c.layer, c.config, {}, {}, {}, b};
  const auto activation = [&](const char* key, const char* keras_default) {
    Config named = Config::object();
    named["activation"] = c.config.contains(key) ? c.config[key] : Config(keras_default);
    return activation_name(c, named);
  };
  const std::string act = activation("activation", "tanh");
  const std::string rec = activation("recurrent_activation", "sigmoid");
  const std::string i = apply_activation(step, gates[0], rec);
  const std::string f = apply_activation(step, gates[1], rec);
  const std::string o = apply_activation(step, gates[3], rec);
  const std::string c_new =
      b.node("Add", {b.node("Mul", {f, c_prev}, {}, s),
                     b.node("Mul", {i, apply_activation(step, gates[2], act)}, {}, s)},
             {}, s);
  const std::string h_new = b.node("Mul", {o, apply_activation(step, c_new, act)}, {}, s);
  // Outputs: the states h and c, and the step's output (h again, so its own value).
  for (const std::string& v : {h_new, c_new, b.node("Identity", {h_new}, {}, s)})
    b.add_output(v, v, DType::Float32, state_shape, {"batch"});
  g.adopt_names(b);

  const int64_t backwards = c.config.value("go_backwards", false) ? 1 : 0;
  const Values scan = g.node_n("Scan", {initial[0], initial[1], zs}, 3,
                               {{"body", std::shared_ptr<const Graph>(body)},
                                {"num_scan_inputs", int64_t{1}},
                                {"scan_input_axes", std::vector<int64_t>{1}},
                                {"scan_input_directions", std::vector<int64_t>{backwards}},
                                {"scan_output_axes", std::vector<int64_t>{1}}},
                               s);
  // Outputs in the layer's format: the steps' h (in processing order) or the last h; states.
  const auto state_out = [&](const std::string& v) {
    return cl ? transpose(g, v, to_last, s) : v;
  };
  Values result{sequences ? (cl ? transpose(g, scan[2], sequence_to_channels_last(rank), s)
                                : scan[2])
                          : state_out(scan[0])};
  if (c.config.value("return_state", false)) {
    result.push_back(state_out(scan[0]));
    result.push_back(state_out(scan[1]));
  }
  return result;
}

}  // namespace

void register_conv_lstm(std::map<std::string, Converter>& t) {
  for (const char* n : {"ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"}) t[n] = conv_lstm;
}

}  // namespace keras::onnx
