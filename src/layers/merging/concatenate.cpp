#include "keras/layers/merging/concatenate.h"

#include <set>
#include <sstream>

#include "keras/ops/ops.h"

namespace keras::layers {

ConcatenateLayer::ConcatenateLayer(int axis, ConcatenateOptions options)
    : MergeLayer(base_options(options), "concatenate"), axis_(axis) {
  expand_ranks_ = false;
}

void ConcatenateLayer::check_shapes(const std::vector<Shape>& shapes) const {
  std::ostringstream received;
  received << "[";
  for (size_t i = 0; i < shapes.size(); ++i) received << (i ? ", " : "") << shape_string(shapes[i]);
  received << "]";
  const std::string error = "A `Concatenate` layer ('" + name() +
                            "') requires inputs with matching shapes except for the "
                            "concatenation axis " + std::to_string(axis_) +
                            ". Received: input_shape=" + received.str();
  check(!shapes.empty(), error, ".");
  // Every input without the concatenation axis; sizes must agree where known.
  std::vector<Shape> reduced;
  for (const Shape& s : shapes) {
    check(s.rank() >= 1 && axis_ < s.rank() && axis_ >= -s.rank(), error, " (axis ", axis_,
          " is out of range for an input of rank ", s.rank(), ").");
    Shape r = s;
    r.erase(static_cast<size_t>(axis_ < 0 ? axis_ + s.rank() : axis_));
    reduced.push_back(r);
  }
  for (const Shape& r : reduced)
    check(r.rank() == reduced[0].rank(), error, " (the ranks differ).");
  // Known sizes of each axis must agree across all inputs (unknown ones match anything).
  for (int d = 0; d < reduced[0].rank(); ++d) {
    std::set<int64_t> known;
    for (const Shape& r : reduced)
      if (r[d] >= 0) known.insert(r[d]);
    check(known.size() <= 1, error, ".");
  }
}

Tensor ConcatenateLayer::merge_function(const TensorList& inputs, const TensorList&) {
  return ops::concatenate(inputs, axis_);
}

TensorList ConcatenateLayer::compute_mask_list(const TensorList& inputs,
                                               const TensorList& masks) const {
  if (masks.empty()) return {Tensor()};
  check(masks.size() == inputs.size(), "Concatenate '", name(),
        "': the lists `inputs` and `mask` should have the same length. Received ",
        inputs.size(), " inputs and ", masks.size(), " masks.");
  bool any = false;
  for (const Tensor& m : masks) any = any || m.defined();
  if (!any) return {Tensor()};
  TensorList full;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& m = masks[i];
    if (!m.defined()) full.push_back(ops::ones_like(inputs[i], DType::Bool));
    else if (m.ndim() < inputs[i].ndim())
      full.push_back(ops::broadcast_to(ops::expand_dims(m, -1), inputs[i].shape()));
    else full.push_back(m);
  }
  return {ops::any(ops::concatenate(full, axis_), -1, false)};
}

Config ConcatenateLayer::get_config() const {
  Config c = Layer::get_config();
  c["axis"] = axis_;
  return c;
}

std::shared_ptr<Layer> ConcatenateLayer::from_config(const Config& c) {
  ConcatenateOptions o;
  read_base_config(c, o);
  return std::make_shared<ConcatenateLayer>(c.value("axis", -1), o);
}

LayerPtr<ConcatenateLayer> Concatenate(int axis, ConcatenateOptions options) {
  return make_layer<ConcatenateLayer>(axis, std::move(options));
}

KerasTensor concatenate(const std::vector<KerasTensor>& inputs, int axis,
                        ConcatenateOptions options) {
  return Concatenate(axis, std::move(options))(inputs).at(0);
}

Tensor concatenate(const TensorList& inputs, int axis, ConcatenateOptions options) {
  return Concatenate(axis, std::move(options))(inputs).at(0);
}

}  // namespace keras::layers
