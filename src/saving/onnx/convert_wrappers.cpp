// Converters of the wrapper layers: TimeDistributed (the wrapped layer's converter on the
// batch and time axes folded into one) and Bidirectional (the recurrent converter twice,
// the backward sequence flipped back, then merged), as their calls compute.

#include "keras/layers/rnn/bidirectional.h"
#include "keras/layers/rnn/time_distributed.h"
#include "layer_call.h"

namespace keras::onnx {
namespace {

using Values = std::vector<std::string>;

// The converter of `inner` applied to `inputs` (shapes as the inner layer sees them).
Values convert_inner(LayerCall& outer, const Layer& inner, const Values& inputs,
                     const std::vector<Shape>& in_shapes, const std::vector<Shape>& out_shapes,
                     const MaskValues& masks = {}) {
  const Converter convert = find_converter(inner.class_name());
  if (!convert)
    outer.fail("its wrapped layer \"" + inner.name() + "\" (" + inner.class_name() +
               ") has no ONNX converter");
  LayerCall call{inner, inner.get_config(), inputs, in_shapes, out_shapes, outer.g};
  call.input_masks = masks;
  call.refuse_quantized();
  return convert(call);
}

// (batch, time, rest...) -> (batch * time, rest...), the inner layer, -> (batch, time, out...).
Values time_distributed(LayerCall& c) {
  const auto* layer = dynamic_cast<const layers::TimeDistributedLayer*>(&c.layer);
  if (!layer) c.fail("it is not keras-cpp's TimeDistributed layer");
  const Shape& in = c.input_shapes.at(0);
  const Shape& out = c.output_shapes.at(0);
  Graph& g = c.g;
  const std::string s = c.scope();
  std::vector<int64_t> folded{-1};
  Shape inner_in{-1}, inner_out{-1};
  for (int d = 2; d < in.rank(); ++d) {
    if (in[d] < 0) c.fail("its input has an unknown dimension after the time axis");
    folded.push_back(in[d]);
    inner_in.push_back(in[d]);
  }
  for (int d = 2; d < out.rank(); ++d) inner_out.push_back(out[d]);
  const std::string x = g.node("Reshape", {c.inputs[0], g.constant_i64(s + "/folded", folded)}, {}, s);
  const std::string y = convert_inner(c, *layer->layer(), {x}, {inner_in}, {inner_out}).at(0);
  // The batch and time extents from the input itself (either may be dynamic).
  const std::string bt = g.node("Slice", {g.node("Shape", {c.inputs[0]}, {}, s),
                                          g.constant_i64(s + "/start", {0}),
                                          g.constant_i64(s + "/end", {2})},
                                {}, s);
  std::vector<int64_t> rest(inner_out.begin() + 1, inner_out.end());
  const std::string shape =
      rest.empty() ? bt
                   : g.node("Concat", {bt, g.constant_i64(s + "/rest", rest)},
                            {{"axis", int64_t{0}}}, s);
  return {g.node("Reshape", {y, shape}, {}, s)};
}

Values bidirectional(LayerCall& c) {
  const auto* layer = dynamic_cast<const layers::BidirectionalLayer*>(&c.layer);
  if (!layer) c.fail("it is not keras-cpp's Bidirectional layer");
  Graph& g = c.g;
  const std::string s = c.scope();
  Values fw_in{c.inputs[0]}, bw_in{c.inputs[0]};
  std::vector<Shape> fw_shapes{c.input_shapes[0]}, bw_shapes{c.input_shapes[0]};
  const size_t states = c.inputs.size() - 1;
  if (states % 2 != 0) c.fail("its initial states do not come in two halves");
  for (size_t i = 0; i < states; ++i) {
    (i < states / 2 ? fw_in : bw_in).push_back(c.inputs[1 + i]);
    (i < states / 2 ? fw_shapes : bw_shapes).push_back(c.input_shapes[1 + i]);
  }
  // Both directions get the sequence's mask (their masked outputs are zeros: the layer sets
  // zero_output_for_mask when it returns sequences).
  const MaskValues mask{c.masked() ? c.input_masks[0] : ""};
  const Values fw = convert_inner(c, *layer->forward_layer(), fw_in, fw_shapes, {}, mask);
  const Values bw = convert_inner(c, *layer->backward_layer(), bw_in, bw_shapes, {}, mask);
  std::string a = fw.at(0), b = bw.at(0);
  if (layer->forward_layer()->get_config().value("return_sequences", false)) {
    // The backward sequence runs from the last timestep: flip it to align with the forward one.
    b = reverse_axis(g, b, 1, s);
  }
  const std::string& mode = layer->merge_mode();
  Values out;
  if (mode == "concat") out = {g.node("Concat", {a, b}, {{"axis", int64_t{-1}}}, s)};
  else if (mode == "sum") out = {g.node("Add", {a, b}, {}, s)};
  else if (mode == "mul") out = {g.node("Mul", {a, b}, {}, s)};
  else if (mode == "ave")
    out = {g.node("Div", {g.node("Add", {a, b}, {}, s), g.scalar_f32(s + "/two", 2.0f)}, {}, s)};
  else out = {a, b};
  out.insert(out.end(), fw.begin() + 1, fw.end());
  out.insert(out.end(), bw.begin() + 1, bw.end());
  if (c.masked()) {
    // The sequences keep the mask; states and a last output have none.
    c.output_masks = MaskValues(out.size());
    const bool sequences = layer->forward_layer()->get_config().value("return_sequences", false);
    if (sequences) (*c.output_masks)[0] = mask[0];
    if (sequences && mode == "none") (*c.output_masks)[1] = mask[0];
  }
  return out;
}

}  // namespace

void register_wrappers(std::map<std::string, Converter>& t) {
  t["TimeDistributed"] = time_distributed;
  t["Bidirectional"] = bidirectional;
}

}  // namespace keras::onnx
