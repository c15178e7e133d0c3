#pragma once
// keras-cpp and LibTorch in one program (Keras 3's TorchModuleWrapper and "a Keras model is a
// PyTorch Module", in C++):
//
//   at::Tensor t = keras::torch_interop::to_torch(x);          // same memory, no copy
//   keras::Tensor y = keras::torch_interop::from_torch(t);     // same memory, no copy
//   auto block = keras::torch_interop::TorchModuleWrapper(torch::nn::Linear(4, 8));
//   auto view = keras::torch_interop::to_torch_module(model);  // a torch::nn::Module
//
// Only programs that link keras_torch see this header, so it may include LibTorch's.

#include <torch/nn/module.h>
#include <torch/nn/modules/container/any.h>
#include <torch/nn/pimpl.h>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "keras/layers/layer.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::torch_interop {

// ---- tensors ----------------------------------------------------------------------------------

/// An at::Tensor over the same memory as `x` (any host backend, or the torch backend on a GPU:
/// then a CUDA tensor; any strides), which keeps x's storage alive; a write through one is seen
/// by the other. Tensors with negative strides (a flipped view) are copied, since ATen has no
/// negative strides. The cuda backend's tensors are an error (move them first).
at::Tensor to_torch(const Tensor& x);

/// A keras-cpp tensor over the same memory as `t` (its storage stays alive through a copy of
/// the at::Tensor handle), on `backend` ("torch" by default; any host backend works, so the
/// result can meet tensors of a model on "cpu"; "torch:cuda" takes a CUDA tensor). Copies only
/// when `t` is not a dense tensor on that backend's device (sparse, MKLDNN, another device) or
/// is quantized (then dequantized to float32);
/// TypeError naming the dtype when it has no keras-cpp equivalent (complex).
Tensor from_torch(const at::Tensor& t, std::string_view backend = "torch");

/// The keras-cpp dtype of an ATen scalar type; TypeError naming it when there is none.
DType dtype_from_torch(at::ScalarType type);
/// The ATen scalar type of a keras-cpp dtype.
at::ScalarType dtype_to_torch(DType dtype);

// ---- a LibTorch module inside a keras-cpp model -----------------------------------------------

/// A keras layer that runs a LibTorch module (Keras's TorchModuleWrapper). The module's
/// parameters become the layer's trainable weights and its buffers the non-trainable ones,
/// sharing memory both ways: `fit` trains the torch module itself. Gradients through this layer
/// come from torch::autograd (one recorded node whose rule calls torch::autograd::grad on the
/// graph saved by the forward pass); the rest of the model uses keras-cpp's autograd.
/// Limits: one tensor in, one tensor out; no second-order gradients through the module; not
/// saved in .keras files (the module is C++ code).
class TorchModuleWrapperLayer : public Layer {
 public:
  /// The module's parameters and buffers, and how to call it on one tensor.
  TorchModuleWrapperLayer(std::shared_ptr<torch::nn::Module> module,
                          std::function<at::Tensor(const at::Tensor&)> forward,
                          LayerOptions options = {});
  std::string class_name() const override { return "TorchModuleWrapper"; }

  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;

  /// The wrapped module (its parameters are this layer's weights' memory).
  torch::nn::Module& module() const { return *module_; }

  /// Puts back the sharing if keras-cpp gave a weight fresh memory (an assign while someone
  /// still held the weight's old value copies on write): the torch parameter takes that memory
  /// (set_data). call() does it first.
  void sync();

 private:
  std::shared_ptr<torch::nn::Module> module_;
  std::function<at::Tensor(const at::Tensor&)> forward_;
  std::vector<at::Tensor> parameters_;  // the module's parameters that require a gradient
  std::vector<Variable> variables_;     // the weights over parameters_, in the same order
  std::vector<std::pair<Variable, at::Tensor>> shared_;  // every weight and its torch tensor
};

/// Wraps a type-erased module.
LayerPtr<TorchModuleWrapperLayer> TorchModuleWrapper(torch::nn::AnyModule module,
                                                     LayerOptions options = {});

/// Wraps a module holder (torch::nn::Linear, torch::nn::Sequential, a TORCH_MODULE of yours);
/// the holder is shared, so the caller's handle sees the training.
template <typename M>
LayerPtr<TorchModuleWrapperLayer> TorchModuleWrapper(torch::nn::ModuleHolder<M> module,
                                                     LayerOptions options = {}) {
  return make_layer<TorchModuleWrapperLayer>(
      module.ptr(),
      [module](const at::Tensor& x) mutable -> at::Tensor { return module->forward(x); },
      std::move(options));
}

// ---- a keras-cpp model as a LibTorch module ---------------------------------------------------

/// A torch::nn::Module view of a keras-cpp layer or model (built). forward() runs the keras
/// model and is differentiable for torch::autograd (its backward runs keras-cpp's autograd);
/// parameters() are the keras trainable variables' memory and buffers() the non-trainable
/// ones, so torch::optim updates the keras model in place and `model->predict` sees the new
/// weights. The module's train()/eval() mode is the `training` flag of the keras call.
class KerasModule : public torch::nn::Module {
 public:
  /// Wraps built `model`: its trainable weights become the module's parameters and the others its
  /// buffers, named by their paths ('/' and '.' as '_'). ValueError when `model` is null or not
  /// built.
  explicit KerasModule(std::shared_ptr<Layer> model);

  /// The keras model applied to `x` (zero-copy in and out). Calls sync() first.
  at::Tensor forward(const at::Tensor& x);

  /// Puts back the sharing after keras-cpp trained the model itself: `fit` may give a weight
  /// fresh memory (copy on write while its step graph still reads the old value); the
  /// registered parameter then takes that memory (set_data, so torch optimizers follow).
  void sync();

  /// The viewed model.
  const std::shared_ptr<Layer>& model() const { return model_; }

 private:
  std::shared_ptr<Layer> model_;
  std::string backend_;  // where the model's weights live: inputs are viewed there
  std::vector<Variable> trainable_;
  std::vector<at::Tensor> parameters_;  // trainable_'s memory, registered as parameters
  std::vector<Variable> non_trainable_;
  std::vector<at::Tensor> buffers_;  // non_trainable_'s memory, registered as buffers
};

/// A torch::nn::Module view of a built keras-cpp model; weights stay shared.
std::shared_ptr<KerasModule> to_torch_module(const std::shared_ptr<Layer>& model);

namespace detail {
/// Makes `variable` hold `value` (same shape and dtype) as its own memory, keeping its identity
/// in gradient graphs: how weights come to share memory with LibTorch tensors.
void rebind_variable(Variable& variable, Tensor value);
/// When `variable` no longer uses `memory`'s buffer (keras copied on write), gives `memory` the
/// variable's buffer (set_data) and rebinds the variable to it; returns whether it had to.
bool reshare(Variable& variable, const at::Tensor& memory);
}  // namespace detail

}  // namespace keras::torch_interop

#pragma GCC visibility pop
