// Keras masks in exported graphs. A mask (Embedding(mask_zero=True), Masking) is a boolean ONNX
// value that travels beside the tensor it belongs to, as keras-cpp attaches it to the tensor:
// layers that support masking receive it, those that make or read one (Embedding, Masking, the
// recurrent layers, the attention layers, GlobalAveragePooling1D, Multiply, Maximum, Minimum)
// convert with it, those whose call ignores it pass it on (the other merging layers merge or
// join them, Dot drops them), and any other class that receives one is refused by name. Every
// mask here is one rank below its tensor (the (batch, time) mask of a (batch, time, features)
// sequence).

#include <set>

#include "layer_call.h"

namespace keras::onnx {
namespace {

using Values = std::vector<std::string>;

// Classes that support masking, leave the mask out of their (inference) call and pass it on
// unchanged: Layer::compute_mask's default. BatchNormalization reads the mask only for the
// batch statistics of training.
bool passes_mask_through(const std::string& class_name) {
  static const std::set<std::string> names{
      "Dense", "Activation", "ReLU", "ELU", "LeakyReLU", "PReLU", "Identity",
      "BatchNormalization", "LayerNormalization", "GroupNormalization", "UnitNormalization",
      "Normalization", "Rescaling", "ActivityRegularization", "Dropout", "AlphaDropout",
      "GaussianDropout", "GaussianNoise"};
  return names.count(class_name) > 0;
}

// keras.layers.Masking: steps whose features all equal mask_value are masked (any over the last
// axis of x != mask_value) and zeroed in the output.
Values masking(LayerCall& c) {
  Graph& g = c.g;
  const std::string s = c.scope();
  const float mask_value = c.config.value("mask_value", 0.0f);
  const std::string differs =
      g.node("Not", {g.node("Equal", {c.inputs[0], g.scalar_f32(s + "/mask_value", mask_value)},
                            {}, s)},
             {}, s);
  // ONNX has no ReduceAny: the maximum of the 0/1 floats.
  const std::string any = reduce(g, "ReduceMax", mask_as_float(g, differs, s), {-1}, true, s);
  const std::string mask = g.node("Cast", {g.node("Squeeze", {any, g.constant_i64(s + "/last", {-1})},
                                                  {}, s)},
                                  {{"to", int64_t{9}}}, s);  // BOOL
  c.output_masks = MaskValues{mask};
  return {g.node("Mul", {c.inputs[0], any}, {}, s)};
}

}  // namespace

bool LayerCall::masked() const {
  for (const std::string& m : input_masks)
    if (!m.empty()) return true;
  return false;
}

std::string mask_as_float(Graph& g, const std::string& mask, const std::string& base) {
  return g.node("Cast", {mask}, {{"to", int64_t{1}}}, base);  // FLOAT
}

MaskValues resolve_output_masks(const LayerCall& c, size_t outputs) {
  if (c.output_masks) {
    MaskValues out = *c.output_masks;
    out.resize(outputs);
    return out;
  }
  if (!c.masked()) return MaskValues(outputs);
  if (passes_mask_through(c.layer.class_name()) && c.input_masks.size() == 1)
    return MaskValues(outputs, c.input_masks[0]);
  const std::string& cls = c.layer.class_name();
  // Dot's call ignores the masks and its output has none (DotLayer::compute_mask_list).
  if (cls == "Dot") return MaskValues(outputs);
  if (cls == "Add" || cls == "Subtract" || cls == "Average" || cls == "Multiply" ||
      cls == "Maximum" || cls == "Minimum") {
    // The output's mask is the union of the inputs' when every input has one
    // (MergeLayer::compute_mask_list), else none; Add, Subtract and Average ignore the masks
    // in their call, Multiply, Maximum and Minimum read them (convert_core.cpp).
    std::string merged;
    for (const std::string& m : c.input_masks) {
      if (m.empty()) return MaskValues(outputs);
      merged = merged.empty() ? m : c.g.node("Or", {merged, m}, {}, c.scope() + "/mask");
    }
    return MaskValues(outputs, merged);
  }
  c.fail("it receives a Keras mask (from Embedding(mask_zero=True) or Masking), and its masked "
         "call has no ONNX form in keras-cpp. Masks export through Dense, activations, "
         "normalization, dropout, the merging layers (Add, Subtract, Multiply, Average, "
         "Maximum, Minimum, Concatenate, Dot) into LSTM, GRU, SimpleRNN, "
         "Bidirectional, the attention layers and GlobalAveragePooling1D; "
         "put a layer that ends the mask (one of those "
         "recurrent layers without return_sequences, GlobalAveragePooling1D) before this one, or "
         "export the model without the mask");
}

void register_masking(std::map<std::string, Converter>& t) { t["Masking"] = masking; }

}  // namespace keras::onnx
