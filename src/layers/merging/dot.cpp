#include "keras/layers/merging/dot.h"

#include "keras/ops/ops.h"

namespace keras::layers {
namespace {

// Keras's batch_dot for axes already made non-negative.
Tensor batch_dot_impl(const std::string& who, Tensor x, Tensor y, int a0, int a1) {
  const Shape xs = x.shape(), ys = y.shape();
  check(xs.rank() >= 2 && ys.rank() >= 2, who, ": cannot do batch_dot on inputs with rank < 2. ",
        "Received inputs with shapes ", xs, " and ", ys, ".");
  check(xs[0] == ys[0], who, ": cannot do batch_dot on inputs with different batch sizes. ",
        "Received inputs with shapes ", xs, " and ", ys, ".");
  check(a0 >= 0 && a0 < xs.rank() && a1 >= 0 && a1 < ys.rank(), who, ": axes (", a0, ", ", a1,
        ") are out of range for inputs of shapes ", xs, " and ", ys, ".");
  check(a0 != 0 && a1 != 0, who,
        ": cannot perform batch_dot over axis 0 (the batch axis); got axes (", a0, ", ", a1,
        "). If your inputs are not batched, add a batch axis with ops::expand_dims(x, 0).");
  check(xs[a0] == ys[a1], who, ": cannot do batch_dot on inputs with shapes ", xs, " and ", ys,
        " with axes (", a0, ", ", a1, "): x.shape[", a0, "] != y.shape[", a1, "] (", xs[a0],
        " != ", ys[a1], ").");
  // x as (batch, middle..., k) and y as (batch, k, trailing...), both squashed to rank 3 for
  // one batched matmul; rank-2 inputs get an axis of extent 1 that is squeezed afterwards
  // (x's first, as Keras).
  const int64_t batch = xs[0], k = xs[a0];
  x = ops::moveaxis(x, a0, -1);
  y = ops::moveaxis(y, a1, 1);
  Shape mid(x.shape().begin() + 1, x.shape().end() - 1);
  Shape trail(y.shape().begin() + 2, y.shape().end());
  Tensor r = ops::matmul(ops::reshape(x, {batch, mid.numel(), k}),
                         ops::reshape(y, {batch, k, trail.numel()}));
  Shape out{batch};
  for (int64_t d : mid) out.push_back(d);
  for (int64_t d : trail) out.push_back(d);
  if (xs.rank() == 2 && ys.rank() == 2) out.push_back(1);  // (batch, 1, 1) squeezed once
  return ops::reshape(r, out);
}

}  // namespace

DotLayer::DotLayer(ops::IntOrTuple axes, DotOptions options)
    : MergeLayer(base_options(options), "dot"), axes_(std::move(axes)), options_(std::move(options)) {
  check(axes_.is_scalar() || axes_.values().size() == 2,
        "Invalid format for argument `axes` of Dot: it should contain two elements. Received: ",
        "axes with ", axes_.values().size(), " elements.");
  expand_ranks_ = false;
}

std::pair<int, int> DotLayer::resolve_axes(int rank1, int rank2) const {
  auto fix = [](int64_t a, int rank) { return static_cast<int>(a < 0 ? a + rank : a); };
  const auto& v = axes_.values();
  if (axes_.is_scalar()) return {fix(v[0], rank1), fix(v[0], rank2)};
  return {fix(v[0], rank1), fix(v[1], rank2)};
}

void DotLayer::check_shapes(const std::vector<Shape>& shapes) const {
  check(shapes.size() == 2, "A `Dot` layer ('", name(),
        "') should be called on a list of 2 inputs. Received ", shapes.size(), " inputs.");
  auto [a0, a1] = resolve_axes(shapes[0].rank(), shapes[1].rank());
  check(a0 >= 0 && a0 < shapes[0].rank() && a1 >= 0 && a1 < shapes[1].rank(), "Dot '", name(),
        "': axes (", a0, ", ", a1, ") are out of range for inputs of shapes ",
        shape_string(shapes[0]), " and ", shape_string(shapes[1]), ".");
  check(shapes[0][a0] == shapes[1][a1], "Dot '", name(), "': incompatible input shapes: axis ",
        "values ", shapes[0][a0], " (at axis ", a0, ") != ", shapes[1][a1], " (at axis ", a1,
        "). Full input shapes: ", shape_string(shapes[0]), ", ", shape_string(shapes[1]), ".");
}

Tensor DotLayer::merge_function(const TensorList& inputs, const TensorList&) {
  check(inputs.size() == 2, "A `Dot` layer ('", name(),
        "') should be called on exactly 2 inputs. Received ", inputs.size(), " inputs.");
  Tensor x1 = inputs[0], x2 = inputs[1];
  auto [a0, a1] = resolve_axes(x1.ndim(), x2.ndim());
  if (options_.normalize) {
    x1 = ops::normalize(x1, a0);
    x2 = ops::normalize(x2, a1);
  }
  return batch_dot_impl("Dot '" + name() + "'", x1, x2, a0, a1);
}

TensorList DotLayer::compute_mask_list(const TensorList&, const TensorList&) const {
  return {Tensor()};
}

Config DotLayer::get_config() const {
  Config c = Layer::get_config();
  if (axes_.is_scalar()) c["axes"] = axes_.values()[0];
  else c["axes"] = Config::array({axes_.values()[0], axes_.values()[1]});
  c["normalize"] = options_.normalize;
  return c;
}

std::shared_ptr<Layer> DotLayer::from_config(const Config& c) {
  DotOptions o;
  read_base_config(c, o);
  o.normalize = c.value("normalize", false);
  const Config& a = c.at("axes");
  if (a.is_number_integer()) return std::make_shared<DotLayer>(a.get<int64_t>(), o);
  check(a.is_array(), "Dot.from_config: `axes` must be an int or a list of two ints; got ",
        a.dump(), ".");
  return std::make_shared<DotLayer>(a.get<std::vector<int64_t>>(), o);
}

LayerPtr<DotLayer> Dot(ops::IntOrTuple axes, DotOptions options) {
  return make_layer<DotLayer>(std::move(axes), std::move(options));
}

KerasTensor dot(const std::vector<KerasTensor>& inputs, ops::IntOrTuple axes, DotOptions options) {
  return Dot(std::move(axes), std::move(options))(inputs).at(0);
}

Tensor dot(const TensorList& inputs, ops::IntOrTuple axes, DotOptions options) {
  return Dot(std::move(axes), std::move(options))(inputs).at(0);
}

}  // namespace keras::layers
