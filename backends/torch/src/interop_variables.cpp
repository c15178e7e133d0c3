// Weights whose memory is a LibTorch tensor's.
//
// A keras Variable updates in place only while nothing else references its storage (copy on
// write otherwise). So the variable's value is made a keras Storage that owns an at::Tensor
// handle (from_torch): the torch side keeps its memory alive through its own reference count,
// the keras storage stays singly referenced, and optimizer updates land in the shared buffer.

#include "keras/autograd/variable.h"
#include "keras/torch/interop.h"

namespace keras::torch_interop::detail {

void rebind_variable(Variable& variable, Tensor value) {
  check(value.dtype() == variable.dtype(), "Variable '", variable.path(), "' is ",
        dtype_name(variable.dtype()), " but the shared memory holds ", dtype_name(value.dtype()),
        ".");
  check(value.is_contiguous(), "Variable '", variable.path(),
        "': shared memory must be contiguous.");
  variable.exchange_value(std::move(value));  // our handle goes: the storage is the variable's alone
  // exchange_value leaves gradient links alone (it serves stateless calls); this re-attaches
  // the variable's leaf to its new value, so tapes still find it.
  variable.set_trainable(variable.trainable());
}

}  // namespace keras::torch_interop::detail
