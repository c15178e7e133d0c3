// Weights whose memory is a LibTorch tensor's.
//
// A keras Variable updates in place only while nothing else references its storage (copy on
// write otherwise). So the variable's value is made a keras Storage that owns an at::Tensor
// handle (from_torch): the torch side keeps its memory alive through its own reference count,
// the keras storage stays singly referenced, and optimizer updates land in the shared buffer.
// When something else still holds the variable's value as it is assigned (fit keeps the step's
// graph, which reads the weights, alive during the optimizer update), keras copies instead;
// reshare() then gives the torch tensor the new memory and points the variable at it again.

#include <torch/autograd.h>

#include "keras/autograd/variable.h"
#include "keras/torch/interop.h"

namespace keras::torch_interop::detail {

void rebind_variable(Variable& variable, Tensor value) {
  check(value.dtype() == variable.dtype(), "Variable '", variable.path(), "' is ",
        dtype_name(variable.dtype()), " but the shared memory holds ", dtype_name(value.dtype()),
        ".");
  check(value.is_contiguous(), "Variable '", variable.path(),
        "': shared memory must be contiguous.");
  variable.exchange_value(
      std::move(value));  // our handle goes: the storage is the variable's alone
  // exchange_value leaves gradient links alone (it serves stateless calls); this re-attaches
  // the variable's leaf to its new value, so tapes still find it.
  variable.set_trainable(variable.trainable());
}

bool reshare(Variable& variable, const at::Tensor& memory) {
  const Tensor& value = variable.value();
  if (value.array().data() == memory.data_ptr()) return false;
  std::string backend(value.backend_name());
  {
    // The torch tensor takes the new memory (set_data keeps its identity, so modules and
    // torch optimizers holding it follow); whoever read the old value keeps it unchanged.
    torch::NoGradGuard no_grad;
    memory.set_data(to_torch(value));
  }
  rebind_variable(variable, from_torch(memory, backend));
  return true;
}

}  // namespace keras::torch_interop::detail
