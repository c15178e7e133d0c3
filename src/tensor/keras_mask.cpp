#include "keras/tensor/keras_mask.h"

#include "keras/tensor/tensor_impl.h"

namespace keras {

Tensor get_keras_mask(const Tensor& x) {
  if (!x.defined() || !x.impl()->keras_mask) return Tensor();
  return Tensor(x.impl()->keras_mask);
}

void set_keras_mask(const Tensor& x, const Tensor& mask) {
  x.impl()->keras_mask =
      mask.defined() ? Ref<detail::TensorImpl>(mask.impl()) : Ref<detail::TensorImpl>();
}

}  // namespace keras
