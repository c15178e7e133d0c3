#include "layers/call_state.h"

#include "keras/autograd/node.h"

namespace keras::detail {

std::optional<bool>& current_training() {
  thread_local std::optional<bool> training;
  return training;
}

LayerCallObserver*& layer_call_observer() {
  thread_local LayerCallObserver* observer = nullptr;
  return observer;
}

Tensor alias(const Tensor& t) {
  Tensor out(make_ref<TensorImpl>(t.array()));
  out.impl()->grad_fn = t.impl()->grad_fn;
  out.impl()->output_nr = t.impl()->output_nr;
  out.impl()->keras_mask = t.impl()->keras_mask;
  return out;
}

}  // namespace keras::detail
