// jvp: forward mode from two reverse passes. With u a cotangent of fun's outputs, the vjp
// g(u) = J^T u is linear in u, so the gradient of <g(u), t> with respect to u is J t.

#include "keras/autograd/gradient_tape.h"
#include "keras/autograd/node.h"
#include "keras/ops/ops.h"

namespace keras::ops {
inline namespace linalg {

JvpResult jvp(const std::function<TensorList(const TensorList&)>& fun, const TensorList& primals,
              const TensorList& tangents, bool has_aux) {
  constexpr std::string_view op = "jvp";
  check(primals.size() == tangents.size(), op, ": got ", primals.size(), " primals but ",
        tangents.size(), " tangents; they must correspond one to one.");
  for (size_t i = 0; i < primals.size(); ++i) {
    check(primals[i].defined() && tangents[i].defined(), op, ": primal or tangent ", i,
          " is an undefined tensor.");
    check(primals[i].shape() == tangents[i].shape(), op, ": tangent ", i, " has shape ",
          tangents[i].shape(), " but its primal has shape ", primals[i].shape(), ".");
  }
  // The tape keeps recording on; both passes run through autograd::backward directly.
  GradientTape tape;
  TensorList x;
  for (const Tensor& p : primals) x.push_back(stop_gradient(p));
  tape.watch(x);
  TensorList y = fun(x);
  JvpResult result;
  if (has_aux) {
    check(!y.empty(), op, ": has_aux needs fun to return its auxiliary output last.");
    result.aux.push_back(stop_gradient(y.back()));
    y.pop_back();
  }
  TensorList u;
  for (const Tensor& t : y) {
    check(t.defined(), op, ": fun returned an undefined tensor.");
    Tensor seed = zeros_like(t);
    autograd::make_leaf(seed);
    u.push_back(seed);
  }
  TensorList g = autograd::backward(y, u, x, /*create_graph=*/true, UnconnectedGradients::Zero);
  TensorList t;
  for (size_t i = 0; i < g.size(); ++i) t.push_back(cast(tangents[i], g[i].dtype()));
  // An outer tape (other than ours) gets a differentiable result.
  const bool nested = autograd::active_tapes() > 1 && autograd::grad_mode_enabled();
  result.tangents_out = autograd::backward(g, t, u, nested, UnconnectedGradients::Zero);
  for (const Tensor& out : y) result.primals_out.push_back(stop_gradient(out));
  return result;
}

std::pair<Tensor, Tensor> jvp(const std::function<Tensor(const Tensor&)>& fun,
                              const Tensor& primal, const Tensor& tangent) {
  JvpResult r = jvp([&](const TensorList& in) { return TensorList{fun(in[0])}; }, {primal},
                    {tangent});
  return {r.primals_out[0], r.tangents_out[0]};
}

}  // namespace linalg
}  // namespace keras::ops
