#include "keras/layers/merging/base_merge.h"

#include <set>
#include <sstream>

#include "keras/ops/ops.h"

namespace keras::layers {
namespace {

std::string shapes_string(const std::vector<Shape>& shapes) {
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < shapes.size(); ++i) out << (i ? ", " : "") << shape_string(shapes[i]);
  out << "]";
  return out.str();
}

Shape tail(const Shape& s) {
  return s.rank() == 0 ? Shape{} : Shape(s.begin() + 1, s.end());
}

}  // namespace

MergeLayer::MergeLayer(LayerOptions options, std::string default_name)
    : Layer(std::move(options), std::move(default_name)) {
  set_supports_masking(true);
}

void MergeLayer::not_a_list(const Shape& shape) const {
  throw ValueError("A merge layer (" + class_name() + " '" + name() +
                   "') should be called on a list of inputs. Received: input_shape=" +
                   shape_string(shape) + " (not a list of shapes).");
}

void MergeLayer::build(const Shape& input_shape) { not_a_list(input_shape); }

void MergeLayer::build_list(const std::vector<Shape>& input_shapes) { check_shapes(input_shapes); }

Tensor MergeLayer::call(const Tensor& inputs, const CallContext&) { not_a_list(inputs.shape()); }

Shape MergeLayer::compute_output_shape(const std::vector<Shape>& input_shapes) const {
  check(!input_shapes.empty(), class_name(), " '", name(),
        "' should be called on a list of at least 1 input. Received 0 inputs.");
  // Keras's _compute_elemwise_op_output_shape over the non-batch axes, aligned at the end.
  auto elementwise = [&](Shape a, Shape b) {
    if (a.rank() < b.rank()) std::swap(a, b);
    if (b.rank() == 0) return a;
    Shape out(a.begin(), a.end() - b.rank());
    for (int k = 0; k < b.rank(); ++k) {
      int64_t i = a[a.rank() - b.rank() + k], j = b[k];
      if (i < 0 || j < 0) out.push_back(kUnknownDim);
      else if (i == 1) out.push_back(j);
      else if (j == 1) out.push_back(i);
      else {
        check(i == j, class_name(), " '", name(),
              "': inputs have incompatible shapes. Received shapes ", shape_string(a), " and ",
              shape_string(b), " (the batch axis left out); every axis must match or be 1.");
        out.push_back(i);
      }
    }
    return out;
  };
  Shape out = tail(input_shapes[0]);
  for (size_t i = 1; i < input_shapes.size(); ++i) out = elementwise(out, tail(input_shapes[i]));
  std::set<int64_t> batch;
  for (const Shape& s : input_shapes)
    if (s.rank() > 0 && s[0] >= 0) batch.insert(s[0]);
  out.insert(0, batch.size() == 1 ? *batch.begin() : kUnknownDim);
  return out;
}

void MergeLayer::check_shapes(const std::vector<Shape>& input_shapes) const {
  std::set<int64_t> batch;
  for (const Shape& s : input_shapes)
    if (s.rank() > 0 && s[0] >= 0) batch.insert(s[0]);
  check(batch.size() <= 1, class_name(), " '", name(),
        "' cannot merge tensors with different batch sizes. Received tensors with shapes ",
        shapes_string(input_shapes), ".");
  compute_output_shape(input_shapes);
}

TensorList MergeLayer::autocast(const TensorList& inputs) const {
  TensorList out;
  out.reserve(inputs.size());
  for (const Tensor& x : inputs)
    out.push_back(is_floating(x.dtype()) && x.dtype() != compute_dtype()
                      ? ops::cast(x, compute_dtype())
                      : x);
  return out;
}

TensorList MergeLayer::call_list(const TensorList& inputs, const CallContext& ctx) {
  std::vector<Shape> shapes;
  for (const Tensor& x : inputs) shapes.push_back(x.shape());
  check_shapes(shapes);
  TensorList xs = autocast(inputs);
  TensorList masks = ctx.masks;
  check(masks.empty() || masks.size() == xs.size(), class_name(), " '", name(), "': got ",
        masks.size(), " masks for ", xs.size(), " inputs; pass one per input.");
  if (expand_ranks_) {
    int max_rank = 0;
    for (const Tensor& x : xs) max_rank = std::max(max_rank, x.ndim());
    for (size_t i = 0; i < xs.size(); ++i) {
      if (xs[i].ndim() == max_rank) continue;
      // New axes after the batch axis until the ranks agree (Keras's expand_dims(x, 1)); the
      // new tensor carries no mask, as in Keras.
      Shape s = xs[i].shape();
      for (int k = xs[i].ndim(); k < max_rank; ++k) s.insert(s.rank() == 0 ? 0 : 1, 1);
      xs[i] = ops::reshape(xs[i], s);
      if (!masks.empty()) masks[i] = Tensor();
    }
  }
  return {merge_function(xs, masks)};
}

TensorList MergeLayer::compute_mask_list(const TensorList& inputs, const TensorList& masks) const {
  if (masks.empty()) return {Tensor()};
  check(masks.size() == inputs.size(), class_name(), " '", name(),
        "': the lists `inputs` and `mask` should have the same length. Received ",
        inputs.size(), " inputs and ", masks.size(), " masks.");
  for (const Tensor& m : masks)
    if (!m.defined()) return {Tensor()};
  Tensor out = masks[0];
  for (size_t i = 1; i < masks.size(); ++i) out = ops::logical_or(out, masks[i]);
  return {out};
}

Tensor MergeLayer::apply_merge_op_and_or_mask(const TensorList& inputs, const TensorList& masks,
                                              Tensor (*op)(const Tensor&, const Tensor&)) const {
  Tensor output, output_mask;
  for (size_t i = 0; i < inputs.size(); ++i) {
    Tensor x = inputs[i];
    Tensor mask = masks.empty() ? Tensor() : masks[i];
    if (mask.defined()) mask = ops::broadcast_to(ops::expand_dims(mask, -1), x.shape());
    if (i == 0) {
      output = x;
      output_mask = mask;
      continue;
    }
    // A masked entry takes the other operand, so the op leaves the unmasked value.
    if (mask.defined()) x = ops::where(mask, x, output);
    if (output_mask.defined()) output = ops::where(output_mask, output, x);
    output_mask = mask.defined() && output_mask.defined() ? ops::logical_or(output_mask, mask)
                                                          : Tensor();
    output = op(output, x);
  }
  return output;
}

}  // namespace keras::layers
