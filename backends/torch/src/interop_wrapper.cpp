// TorchModuleWrapper: a LibTorch module as a keras-cpp layer.
//
// The forward pass runs the module with torch's autograd on (when a keras tape records) and
// records one keras node for the whole module; its rule asks torch::autograd::grad for the
// input and parameter gradients on the graph that forward pass saved. So this layer is
// differentiated by LibTorch, and everything around it by keras-cpp.

#include <torch/autograd.h>

#include "keras/autograd/node.h"
#include "keras/backend/registry.h"
#include "keras/ops/numpy/creation.h"
#include "keras/torch/interop.h"

namespace keras::torch_interop {

TorchModuleWrapperLayer::TorchModuleWrapperLayer(
    std::shared_ptr<torch::nn::Module> module, std::function<at::Tensor(const at::Tensor&)> forward,
    LayerOptions options)
    : Layer(std::move(options), "torch_module_wrapper"),
      module_(std::move(module)),
      forward_(std::move(forward)) {
  check(module_ != nullptr, "TorchModuleWrapper: the module is null.");
  check(static_cast<bool>(forward_), "TorchModuleWrapper: no forward function.");
  // The wrapped module's parameters fix the dtype it computes in (a double module takes
  // float64): inputs and shared weights pass as they are, not cast to the layer's policy.
  set_autocast(false);
}

void TorchModuleWrapperLayer::build(const Shape&) {
  // The module's own tensors become the weights' memory: no copy, both sides see updates.
  const std::string backend(backend::current_real().name());
  auto share = [&](const std::string& name, const at::Tensor& t, bool trainable) {
    Variable v = add_weight({.shape = Shape(t.sizes().begin(), t.sizes().end()),
                             .initializer = "zeros",
                             .trainable = trainable,
                             .dtype = dtype_from_torch(t.scalar_type()),
                             .name = name});
    detail::rebind_variable(v, from_torch(t.detach(), backend));
    shared_.emplace_back(v, t);
    return v;
  };
  for (const auto& item : module_->named_parameters(/*recurse=*/true)) {
    check(item.value().is_contiguous(), "TorchModuleWrapper: parameter '", item.key(),
          "' is not contiguous; call .contiguous() on it before wrapping.");
    Variable v = share(item.key(), item.value(), item.value().requires_grad());
    if (!item.value().requires_grad()) continue;  // frozen in torch: a non-trainable weight
    parameters_.push_back(item.value());
    variables_.push_back(v);
  }
  for (const auto& item : module_->named_buffers(/*recurse=*/true))
    if (item.value().defined() && item.value().is_contiguous())
      share(item.key(), item.value(), false);
}

Tensor TorchModuleWrapperLayer::call(const Tensor& x, const CallContext& ctx) {
  const bool training = ctx.training.value_or(false);
  if (x.backend().is_symbolic()) {
    // Output spec: run the module once on a zero batch of the probe shape.
    torch::NoGradGuard no_grad;
    if (module_->is_training()) module_->train(false);
    at::Tensor probe = at::zeros(std::vector<int64_t>(x.shape().begin(), x.shape().end()),
                                 at::TensorOptions().dtype(dtype_to_torch(x.dtype())));
    at::Tensor y = forward_(probe);
    return ops::zeros(Shape(y.sizes().begin(), y.sizes().end()), dtype_from_torch(y.scalar_type()));
  }
  sync();
  // Dropout and BatchNorm in the module follow the keras call's training flag (written only on
  // a change, so concurrent inference calls only read the module).
  if (module_->is_training() != training) module_->train(training);
  const std::string backend(x.backend_name());
  // The tensors the node reads: the input, then the trainable weights (parameters_ order).
  std::vector<Tensor> inputs{x};
  for (const Variable& v : variables_) inputs.push_back(v.value());
  if (!autograd::should_record_list(inputs)) {
    torch::NoGradGuard no_grad;
    return from_torch(forward_(to_torch(x)), backend);
  }

  torch::AutoGradMode grad_on(true);
  at::Tensor xin = to_torch(x).detach();
  if (x.requires_grad() && is_floating(x.dtype())) xin.requires_grad_(true);
  at::Tensor y = forward_(xin);
  Tensor out = from_torch(y.detach(), backend);
  if (!y.requires_grad()) return out;  // e.g. an integer output: nothing to differentiate

  std::vector<std::string> backends;
  for (const Tensor& t : inputs) backends.emplace_back(t.backend_name());
  autograd::record(
      "TorchModuleWrapper", inputs, out,
      [y, xin, params = parameters_, backends, name = name()](const autograd::Context& ctx,
                                                              const Tensor& g) {
        // Recording here means a higher-order gradient is being built; torch's graph of this
        // layer is not part of ours, so say so instead of returning a silently wrong result.
        check<NotImplementedError>(!autograd::is_recording(), "Layer '", name,
                                   "' (TorchModuleWrapper): gradients of gradients through a "
                                   "wrapped LibTorch module are not supported.");
        std::vector<at::Tensor> wrt;
        std::vector<size_t> slots;
        auto want = [&](size_t slot, const at::Tensor& t) {
          if (ctx.needs_input_grad(slot) && t.requires_grad()) {
            wrt.push_back(t);
            slots.push_back(slot);
          }
        };
        want(0, xin);
        for (size_t i = 0; i < params.size(); ++i) want(i + 1, params[i]);
        std::vector<Tensor> result(backends.size());
        if (wrt.empty()) return result;
        at::Tensor seed = to_torch(g).to(y.scalar_type()).expand(y.sizes());
        // retain_graph: a persistent keras tape may run this rule more than once.
        auto grads = torch::autograd::grad({y}, wrt, {seed}, /*retain_graph=*/true,
                                           /*create_graph=*/false, /*allow_unused=*/true);
        for (size_t k = 0; k < grads.size(); ++k)
          if (grads[k].defined()) result[slots[k]] = from_torch(grads[k], backends[slots[k]]);
        return result;
      });
  return out;
}

void TorchModuleWrapperLayer::sync() {
  for (auto& [variable, memory] : shared_) detail::reshare(variable, memory);
}

LayerPtr<TorchModuleWrapperLayer> TorchModuleWrapper(torch::nn::AnyModule module,
                                                     LayerOptions options) {
  check(!module.is_empty(), "TorchModuleWrapper: the AnyModule is empty.");
  std::shared_ptr<torch::nn::Module> ptr = module.ptr();
  return make_layer<TorchModuleWrapperLayer>(
      ptr, [module](const at::Tensor& x) mutable { return module.forward(x); }, std::move(options));
}

}  // namespace keras::torch_interop
