#include "layers/preprocessing/lookup_output_spec.h"

#include "keras/ops/ops.h"

namespace keras::layers::detail {

Tensor lookup_output_spec(const Tensor& inputs, const std::string& output_mode, int64_t depth) {
  // Data-free ids of the input's shape (strings do not cast to numbers).
  Tensor ids = ops::zeros(inputs.shape(), DType::Int64);
  if (output_mode == "int") return ids;
  if (ids.ndim() == 0) ids = ops::expand_dims(ids, -1);
  const DType dtype = output_mode == "tf_idf" ? DType::Float32 : DType::Int64;
  if (output_mode == "one_hot") {
    if (ids.ndim() > 1 && ids.shape()[ids.ndim() - 1] == 1) ids = ops::squeeze(ids, -1);
    return ops::one_hot(ids, depth, -1, dtype);
  }
  return ops::multi_hot(ids, depth, -1, dtype);
}

}  // namespace keras::layers::detail
