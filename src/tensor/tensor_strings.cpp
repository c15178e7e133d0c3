// Tensors of dtype "string": made from a StringTensor, read back into one.

#include <algorithm>

#include "keras/backend/backend.h"
#include "keras/tensor/tensor.h"
#include "ops/detail/op_utils.h"
#include "tensor/string_backend.h"

namespace keras {

Tensor::Tensor(const StringTensor& strings) {
  Tensor t = ops::detail::empty(strings.shape(), DType::String, detail::string_backend());
  std::copy(strings.values().begin(), strings.values().end(), t.array().data_as<std::string>());
  impl_ = Ref<detail::TensorImpl>(t.impl());
}

StringTensor Tensor::to_strings() const {
  check<TypeError>(dtype() == DType::String, "to_strings: the tensor has dtype ", dtype(),
                   ", not string; read numbers with to_vector<T>().");
  check<TypeError>(!backend().is_symbolic(), "to_strings: a symbolic string tensor (shape ",
                   shape(), ") has no values; call the model on real strings.");
  const backend::Array& a = array();
  const auto* base = static_cast<const std::string*>(a.storage->data());
  std::vector<std::string> values;
  values.reserve(static_cast<size_t>(a.numel()));
  for (int64_t at : detail::strided_offsets(a)) values.push_back(base[at]);
  return StringTensor(std::move(values), a.shape);
}

}  // namespace keras
