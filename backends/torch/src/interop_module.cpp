// to_torch_module: a keras-cpp model seen as a torch::nn::Module.
//
// The variables' memory is registered as the module's parameters (and buffers), so a torch
// optimizer's in-place update is the keras model's update. forward() is a
// torch::autograd::Function whose backward runs keras-cpp's autograd over the graph that the
// keras forward pass recorded, so LibTorch's loss and optimizer drive a keras model.

#include <torch/autograd.h>

#include "keras/autograd/gradient_tape.h"
#include "keras/backend/registry.h"
#include "keras/torch/interop.h"

namespace keras::torch_interop {
namespace {

// The keras graph of one forward pass, kept by torch's graph until its backward has run.
struct KerasGraph : torch::CustomClassHolder {
  Tensor output;
  std::vector<Tensor> sources;  // the input, then the trainable variables' values
};

class KerasFunction : public torch::autograd::Function<KerasFunction> {
 public:
  // `params` are listed so that torch routes their gradients; the keras graph reads the
  // variables themselves, which share their memory.
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x,
                            at::TensorList params, Layer* model,
                            const std::vector<Variable>* variables, const std::string* backend,
                            bool training) {
    (void)params;
    auto graph = c10::make_intrusive<KerasGraph>();
    Tensor xk = from_torch(x, *backend);
    {
      GradientTape tape;
      tape.watch(xk);
      graph->output = (*model)(xk, CallContext{.training = training});
    }
    graph->sources.push_back(xk);
    for (const Variable& v : *variables) graph->sources.push_back(v.value());
    at::Tensor y = to_torch(graph->output);
    ctx->saved_data["keras_graph"] = at::IValue::make_capsule(graph);
    return y;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grad_outputs) {
    auto graph =
        c10::static_intrusive_pointer_cast<KerasGraph>(ctx->saved_data["keras_graph"].toCapsule());
    Tensor seed = from_torch(grad_outputs[0].contiguous(), graph->output.backend_name());
    Tensor roots[] = {graph->output};
    Tensor seeds[] = {seed};
    std::vector<Tensor> grads =
        autograd::backward(roots, seeds, graph->sources,
                           /*create_graph=*/false, UnconnectedGradients::Zero);
    // One gradient per forward argument: x, each parameter, then the non-tensor arguments.
    torch::autograd::variable_list out;
    for (const Tensor& g : grads) out.push_back(g.defined() ? to_torch(g) : at::Tensor());
    out.resize(grads.size() + 4);
    return out;
  }
};

}  // namespace

KerasModule::KerasModule(std::shared_ptr<Layer> model) : model_(std::move(model)) {
  check(model_ != nullptr, "to_torch_module: the model is null.");
  check(model_->built(), "to_torch_module: model '", model_->name(),
        "' is not built; call it once or give it an Input shape first.");
  const std::vector<Variable> weights = model_->weights();
  backend_ = weights.empty() ? std::string(backend::current_real().name())
                             : std::string(weights[0].value().backend_name());
  // Registered names cannot contain '.', which torch uses as the path separator.
  auto torch_name = [](std::string path) {
    for (char& c : path)
      if (c == '.' || c == '/') c = '_';
    return path;
  };
  for (Variable v : model_->trainable_weights()) {
    at::Tensor p = to_torch(v.value().contiguous());
    // The keras value becomes a view of the parameter (not the reverse), so the variable's
    // storage has one keras owner and its own updates stay in place too.
    detail::rebind_variable(v, from_torch(p, v.value().backend_name()));
    parameters_.push_back(register_parameter(torch_name(v.path()), p, /*requires_grad=*/true));
    trainable_.push_back(v);
  }
  for (Variable v : model_->non_trainable_weights()) {
    at::Tensor b = to_torch(v.value().contiguous());
    detail::rebind_variable(v, from_torch(b, v.value().backend_name()));
    buffers_.push_back(register_buffer(torch_name(v.path()), b));
    non_trainable_.push_back(v);
  }
}

void KerasModule::sync() {
  for (size_t i = 0; i < trainable_.size(); ++i) detail::reshare(trainable_[i], parameters_[i]);
  for (size_t i = 0; i < non_trainable_.size(); ++i)
    detail::reshare(non_trainable_[i], buffers_[i]);
}

at::Tensor KerasModule::forward(const at::Tensor& x) {
  sync();
  const bool training = is_training();
  bool record = torch::GradMode::is_enabled() && x.requires_grad();
  for (const at::Tensor& p : parameters_)
    record = record || (torch::GradMode::is_enabled() && p.requires_grad());
  if (!record) {
    NoGradScope no_grad;
    return to_torch((*model_)(from_torch(x, backend_), CallContext{.training = training}));
  }
  return KerasFunction::apply(x, at::TensorList(parameters_), model_.get(), &trainable_, &backend_,
                              training);
}

std::shared_ptr<KerasModule> to_torch_module(const std::shared_ptr<Layer>& model) {
  return std::make_shared<KerasModule>(model);
}

}  // namespace keras::torch_interop
