// Converters of the core, activation, regularization, reshaping, merging and simple
// preprocessing layers. Each mirrors the layer's inference call (Keras 3.15 semantics).

#include "keras/core/config.h"
#include "keras/layers/preprocessing/normalization.h"
#include "layer_call.h"

namespace keras::onnx {
namespace {

using Values = std::vector<std::string>;

Values dense(LayerCall& c) {
  std::string y = c.g.node("MatMul", {c.inputs[0], c.weight_value("kernel")}, {}, c.scope());
  if (c.config.value("use_bias", true))
    y = c.g.node("Add", {y, c.weight_value("bias")}, {}, c.scope());
  return {apply_config_activation(c, y)};
}

Values activation(LayerCall& c) { return {apply_config_activation(c, c.inputs[0])}; }

Values identity(LayerCall& c) { return {c.inputs[0]}; }

Values to_float(LayerCall& c) {
  return {c.g.node("Cast", {c.inputs[0]}, {{"to", int64_t{1}}}, c.scope())};  // FLOAT
}

// keras.activations.relu's steps: the part above the threshold (clipped to max_value), minus
// negative_slope times the part below it.
Values relu(LayerCall& c) {
  const Config& mv = c.config.contains("max_value") ? c.config["max_value"] : Config();
  const float slope = c.config.value("negative_slope", 0.0f);
  const float threshold = c.config.value("threshold", 0.0f);
  Graph& g = c.g;
  const std::string& x = c.inputs[0];
  const std::string s = c.scope();
  const std::string t =
      threshold != 0.0f || slope != 0.0f ? g.scalar_f32(s + "/threshold", threshold) : "";
  std::string y;
  if (threshold != 0.0f) {
    const std::string above = g.node("Cast", {g.node("Greater", {x, t}, {}, s)},
                                      {{"to", int64_t{1}}}, s);
    y = g.node("Mul", {x, above}, {}, s);
  } else {
    y = g.node("Relu", {x}, {}, s);
  }
  if (!mv.is_null())
    y = g.node("Clip", {y, g.scalar_f32(s + "/zero", 0.0f),
                        g.scalar_f32(s + "/max_value", mv.get<float>())},
               {}, s);
  if (slope != 0.0f) {
    const std::string below = g.node("Relu", {g.node("Sub", {t, x}, {}, s)}, {}, s);
    y = g.node("Sub", {y, g.node("Mul", {below, g.scalar_f32(s + "/slope", slope)}, {}, s)}, {},
               s);
  }
  return {y};
}

Values leaky_relu(LayerCall& c) {
  return {c.g.node("LeakyRelu", {c.inputs[0]},
                   {{"alpha", c.config.value("negative_slope", 0.3f)}}, c.scope())};
}

Values elu(LayerCall& c) {
  return {c.g.node("Elu", {c.inputs[0]}, {{"alpha", c.config.value("alpha", 1.0f)}}, c.scope())};
}

Values prelu(LayerCall& c) {
  // alpha has the input's shape without the batch axis (1 on shared axes): it broadcasts.
  return {c.g.node("PRelu", {c.inputs[0], c.weight_value("alpha")}, {}, c.scope())};
}

Values softmax(LayerCall& c) {
  const Config& axis = c.config.contains("axis") ? c.config["axis"] : Config(-1);
  if (!axis.is_number_integer()) c.fail("softmax over several axes has no single ONNX node");
  return {c.g.node("Softmax", {c.inputs[0]}, {{"axis", axis.get<int64_t>()}}, c.scope())};
}

Values flatten(LayerCall& c) {
  if (c.config.value("data_format", "channels_last") == "channels_first" && c.rank() > 2)
    c.fail("data_format=\"channels_first\" is not supported by the exporter yet");
  return {c.g.node("Flatten", {c.inputs[0]}, {{"axis", int64_t{1}}}, c.scope())};
}

Values reshape(LayerCall& c) {
  std::vector<int64_t> shape{0};  // 0: the batch dimension, copied from the input
  for (int64_t d : c.at("target_shape").get<std::vector<int64_t>>()) shape.push_back(d);
  return {c.g.node("Reshape", {c.inputs[0], c.g.constant_i64(c.scope() + "/shape", shape)}, {},
                   c.scope())};
}

Values permute(LayerCall& c) {
  std::vector<int64_t> perm{0};
  for (int64_t d : c.at("dims").get<std::vector<int64_t>>()) perm.push_back(d);
  return {transpose(c.g, c.inputs[0], perm, c.scope())};
}

Values repeat_vector(LayerCall& c) {
  const int64_t n = c.at("n").get<int64_t>();
  const std::string s = c.scope();
  const std::string u =
      c.g.node("Unsqueeze", {c.inputs[0], c.g.constant_i64(s + "/axes", {1})}, {}, s);
  return {c.g.node("Tile", {u, c.g.constant_i64(s + "/repeats", {1, n, 1})}, {}, s)};
}

// n-ary merges: a chain of binary nodes (ONNX's broadcasting equals Keras's here: the merge
// layers require equal shapes up to broadcasting).
std::string chain(LayerCall& c, const std::string& op) {
  std::string y = c.inputs[0];
  for (size_t i = 1; i < c.inputs.size(); ++i) y = c.g.node(op, {y, c.inputs[i]}, {}, c.scope());
  return y;
}

// The mask of merge input `i` (one rank below it) widened to the input's shape; "" for none.
// Masked merges need inputs of one rank: a merge that adds axes drops the masks of the inputs
// it widens, which the exporter does not follow.
std::string merge_mask(LayerCall& c, size_t i) {
  if (i >= c.input_masks.size() || c.input_masks[i].empty()) return "";
  for (const Shape& shape : c.input_shapes)
    if (shape.rank() != c.input_shapes[0].rank())
      c.fail("it merges masked inputs of different ranks");
  Graph& g = c.g;
  const std::string s = c.scope() + "/mask";
  return g.node("Expand",
                {g.node("Unsqueeze", {c.input_masks[i], g.constant_i64(s + "/last", {-1})}, {}, s),
                 g.node("Shape", {c.inputs[i]}, {}, s)},
                {}, s);
}

// Multiply with masks (MultiplyLayer::merge_function): a masked entry counts as 1, and where
// every input has a mask, entries masked in all of them are 0.
Values multiply(LayerCall& c) {
  if (!c.masked()) return {chain(c, "Mul")};
  Graph& g = c.g;
  const std::string s = c.scope();
  Values masks;
  bool every = true;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    masks.push_back(merge_mask(c, i));
    every = every && !masks.back().empty();
  }
  std::string output, output_mask;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    std::string x = c.inputs[i];
    if (const std::string& m = masks[i]; !m.empty()) {
      x = g.node("Where", {m, x, g.scalar_f32(s + "/one", 1.0f)}, {}, s);
      if (every) output_mask = output_mask.empty() ? m : g.node("Or", {output_mask, m}, {}, s);
    }
    output = output.empty() ? x : g.node("Mul", {output, x}, {}, s);
  }
  if (every)
    output = g.node("Where", {output_mask, output, g.scalar_f32(s + "/zero", 0.0f)}, {}, s);
  return {output};
}

// Maximum and Minimum with masks (MergeLayer::apply_merge_op_and_or_mask): a masked entry
// takes the other operand's value, so the op leaves the unmasked one.
std::string extremum(LayerCall& c, const char* op) {
  if (!c.masked()) return c.g.node(op, c.inputs, {}, c.scope());
  Graph& g = c.g;
  const std::string s = c.scope();
  std::string output = c.inputs[0], output_mask = merge_mask(c, 0);
  for (size_t i = 1; i < c.inputs.size(); ++i) {
    std::string x = c.inputs[i];
    const std::string mask = merge_mask(c, i);
    if (!mask.empty()) x = g.node("Where", {mask, x, output}, {}, s);
    if (!output_mask.empty()) output = g.node("Where", {output_mask, output, x}, {}, s);
    output_mask = !mask.empty() && !output_mask.empty()
                      ? g.node("Or", {output_mask, mask}, {}, s)
                      : "";
    output = g.node(op, {output, x}, {}, s);
  }
  return output;
}

Values add(LayerCall& c) { return {chain(c, "Add")}; }
Values subtract(LayerCall& c) {
  if (c.inputs.size() != 2) c.fail("Subtract takes exactly two inputs");
  return {c.g.node("Sub", {c.inputs[0], c.inputs[1]}, {}, c.scope())};
}
Values maximum(LayerCall& c) { return {extremum(c, "Max")}; }
Values minimum(LayerCall& c) { return {extremum(c, "Min")}; }
Values average(LayerCall& c) {
  const float n = static_cast<float>(c.inputs.size());
  return {c.g.node("Div", {chain(c, "Add"), c.g.scalar_f32(c.scope() + "/n", n)}, {}, c.scope())};
}
Values concatenate(LayerCall& c) {
  Graph& g = c.g;
  const std::string s = c.scope();
  const int64_t axis = c.config.value("axis", int64_t{-1});
  const std::string joined = g.node("Concat", c.inputs, {{"axis", axis}}, s);
  if (c.masked()) {
    // As ConcatenateLayer::compute_mask: each input's mask over its whole shape (true where it
    // has none), joined along the axis, any over the last axis. The exporter's masks are one
    // rank below their tensors (masks.cpp), so a mask widens by one trailing axis.
    Values full;
    for (size_t i = 0; i < c.inputs.size(); ++i) {
      const bool has = i < c.input_masks.size() && !c.input_masks[i].empty();
      const std::string m =
          has ? g.node("Unsqueeze", {c.input_masks[i], g.constant_i64(s + "/last", {-1})}, {}, s)
              : g.node("Cast", {g.scalar_f32(s + "/true", 1.0f)}, {{"to", int64_t{9}}}, s);
      full.push_back(g.node("Expand", {m, g.node("Shape", {c.inputs[i]}, {}, s)}, {}, s));
    }
    const std::string any = reduce(
        g, "ReduceMax", mask_as_float(g, g.node("Concat", full, {{"axis", axis}}, s), s), {-1},
        false, s);
    c.output_masks = MaskValues{g.node("Cast", {any}, {{"to", int64_t{9}}}, s)};  // BOOL
  }
  return {joined};
}

Values embedding(LayerCall& c) {
  const std::string s = c.scope();
  // Keras casts the indices to int32; Gather takes int32 or int64 indices.
  const std::string ids = c.g.node("Cast", {c.inputs[0]}, {{"to", int64_t{7}}}, s);  // INT64
  // mask_zero: id 0 is padding, masked for the layers after (compute_mask: ids != 0).
  if (c.config.value("mask_zero", false))
    c.output_masks = MaskValues{
        c.g.node("Not", {c.g.node("Equal", {ids, c.g.constant_i64(s + "/zero", {0})}, {}, s)},
                 {}, s)};
  return {c.g.node("Gather", {c.weight_value("embeddings"), ids}, {{"axis", int64_t{0}}}, s)};
}

// A Rescaling/Normalization constant: a number, or a list that broadcasts over the last axis.
std::string broadcast_constant(LayerCall& c, const Config& v, const std::string& name) {
  if (v.is_number()) return c.g.scalar_f32(c.scope() + "/" + name, v.get<float>());
  if (v.is_array() && !v.empty() && v[0].is_number()) {
    const std::vector<float> values = v.get<std::vector<float>>();
    return c.g.constant_f32(c.scope() + "/" + name, values,
                            Shape{static_cast<int64_t>(values.size())});
  }
  c.fail("its \"" + name + "\" is neither a number nor a list of numbers");
}

Values rescaling(LayerCall& c) {
  const std::string s = c.scope();
  std::string y = c.g.node("Cast", {c.inputs[0]}, {{"to", int64_t{1}}}, s);  // FLOAT
  y = c.g.node("Mul", {y, broadcast_constant(c, c.at("scale"), "scale")}, {}, s);
  if (c.config.contains("offset"))
    y = c.g.node("Add", {y, broadcast_constant(c, c.config["offset"], "offset")}, {}, s);
  return {y};
}

Values normalization(LayerCall& c) {
  const auto* layer = dynamic_cast<const layers::NormalizationLayer*>(&c.layer);
  if (!layer) c.fail("it is not keras-cpp's Normalization layer");
  const std::string s = c.scope();
  Graph& g = c.g;
  // (x - mean) / max(sqrt(variance), epsilon), or the inverse: mean + x * that scale.
  const Tensor mean = layer->mean().astype(DType::Float32);
  const Tensor variance = layer->variance().astype(DType::Float32);
  const std::string m = g.initializer(s + "/mean", mean);
  const std::string scale = g.node(
      "Max", {g.node("Sqrt", {g.initializer(s + "/variance", variance)}, {}, s),
              g.scalar_f32(s + "/epsilon", static_cast<float>(config::epsilon()))},
      {}, s);
  const std::string x = g.node("Cast", {c.inputs[0]}, {{"to", int64_t{1}}}, s);
  if (c.config.value("invert", false)) return {g.node("Add", {m, g.node("Mul", {x, scale}, {}, s)}, {}, s)};
  return {g.node("Div", {g.node("Sub", {x, m}, {}, s), scale}, {}, s)};
}

}  // namespace

void register_core(std::map<std::string, Converter>& t) {
  t["Dense"] = dense;
  t["Activation"] = activation;
  t["ReLU"] = relu;
  t["LeakyReLU"] = leaky_relu;
  t["ELU"] = elu;
  t["PReLU"] = prelu;
  t["Softmax"] = softmax;
  // Inference: the regularization layers pass their input through.
  for (const char* name : {"Identity", "Dropout", "SpatialDropout1D", "SpatialDropout2D",
                           "SpatialDropout3D", "GaussianNoise", "GaussianDropout", "AlphaDropout",
                           "ActivityRegularization"})
    t[name] = identity;
  // So do the random augmentation layers (Keras applies them only when training), as a cast
  // to float32 (their output dtype, also for integer images).
  for (const char* name : {"RandomBrightness", "RandomContrast", "RandomFlip", "RandomRotation",
                           "RandomTranslation", "RandomZoom"})
    t[name] = to_float;
  t["Flatten"] = flatten;
  t["Reshape"] = reshape;
  t["Permute"] = permute;
  t["RepeatVector"] = repeat_vector;
  t["Add"] = add;
  t["Subtract"] = subtract;
  t["Multiply"] = multiply;
  t["Average"] = average;
  t["Maximum"] = maximum;
  t["Minimum"] = minimum;
  t["Concatenate"] = concatenate;
  t["Embedding"] = embedding;
  t["Rescaling"] = rescaling;
  t["Normalization"] = normalization;
}

}  // namespace keras::onnx
