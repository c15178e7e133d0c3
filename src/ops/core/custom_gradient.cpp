// custom_gradient: a function whose outputs the tape differentiates with a user-written rule.

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace core {

namespace {

constexpr std::string_view kOp = "custom_gradient";

// The rule's gradients checked against the inputs: one per input, each of its shape, in its
// dtype.
TensorList checked_grads(TensorList grads, const std::vector<Shape>& shapes,
                         const std::vector<DType>& dtypes) {
  check(grads.size() == shapes.size(), kOp, ": grad_fn returned ", grads.size(),
        " gradients for a function of ", shapes.size(), " inputs; it must return one per input.");
  for (size_t i = 0; i < grads.size(); ++i) {
    if (!grads[i].defined()) continue;
    check(grads[i].shape() == shapes[i], kOp, ": grad_fn returned a gradient of shape ",
          grads[i].shape(), " for input ", i, " of shape ", shapes[i], ".");
    if (grads[i].dtype() != dtypes[i]) grads[i] = cast(grads[i], dtypes[i]);
  }
  return grads;
}

TensorList call_with_custom_gradient(
    const std::function<std::pair<TensorList, GradFn>(const TensorList&)>& f,
    const TensorList& args) {
  for (size_t i = 0; i < args.size(); ++i)
    check(args[i].defined(), kOp, ": argument ", i, " is an undefined tensor.");
  auto [outputs, grad_fn] = f(args);
  for (size_t i = 0; i < outputs.size(); ++i)
    check(outputs[i].defined(), kOp, ": the function returned an undefined output ", i, ".");
  if (!autograd::should_record_list(args)) return outputs;
  check(static_cast<bool>(grad_fn), kOp, ": the function returned an empty grad_fn.");
  // The caller gets fresh handles on the outputs, linked to the rule instead of to f's ops;
  // the tensors f made (and grad_fn may capture) keep their own history, so no cycle forms.
  TensorList linked;
  for (const Tensor& y : outputs)
    linked.push_back(detail::make_view(y, y.shape(), y.strides(), y.offset()));
  std::vector<Shape> shapes;
  std::vector<DType> dtypes;
  for (const Tensor& x : args) {
    shapes.push_back(x.shape());
    dtypes.push_back(x.dtype());
  }
  autograd::record_multi(kOp, args, linked,
                         [grad_fn = std::move(grad_fn), shapes = std::move(shapes),
                          dtypes = std::move(dtypes)](const autograd::Context&,
                                                      std::span<const Tensor> upstream) {
                           return checked_grads(grad_fn(TensorList(upstream.begin(), upstream.end())),
                                                shapes, dtypes);
                         });
  return linked;
}

}  // namespace

std::function<TensorList(const TensorList&)> custom_gradient(
    std::function<std::pair<TensorList, GradFn>(const TensorList&)> f) {
  check(static_cast<bool>(f), kOp, ": the function is empty.");
  return [f = std::move(f)](const TensorList& args) { return call_with_custom_gradient(f, args); };
}

std::function<Tensor(const Tensor&)> custom_gradient(
    std::function<std::pair<Tensor, GradFn1>(const Tensor&)> f) {
  check(static_cast<bool>(f), kOp, ": the function is empty.");
  auto wrapped = [f = std::move(f)](const TensorList& args) {
    auto [y, grad_fn] = f(args[0]);
    GradFn list_grad;
    if (grad_fn)
      list_grad = [grad_fn = std::move(grad_fn)](const TensorList& up) {
        return TensorList{grad_fn(up[0])};
      };
    return std::pair{TensorList{y}, list_grad};
  };
  return [wrapped = std::move(wrapped)](const Tensor& x) {
    return call_with_custom_gradient(wrapped, TensorList{x})[0];
  };
}

}  // namespace core
}  // namespace keras::ops
