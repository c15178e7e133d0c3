#include "encode_categorical.h"

#include "keras/ops/ops.h"

namespace keras::layers::detail {

Tensor encode_categorical(const Tensor& indices, const std::string& output_mode, int64_t depth,
                          DType dtype) {
  if (output_mode == "int") return ops::cast(indices, dtype);
  Tensor x = indices.ndim() == 0 ? ops::expand_dims(indices, -1) : indices;
  if (output_mode == "multi_hot") return ops::multi_hot(x, depth, -1, dtype);
  if (output_mode == "one_hot") {
    if (x.ndim() > 1 && x.shape()[x.ndim() - 1] == 1) x = ops::squeeze(x, -1);
    return ops::one_hot(x, depth, -1, dtype);
  }
  // "count": one-hot rows summed over the sample axis (TF's bincount for rank <= 2 gives the
  // same counts; for rank 3 and more Keras sums over axis 1, whatever the last axis is).
  check(output_mode == "count", "encode_categorical: unknown output_mode \"", output_mode, "\".");
  // TF keeps the dtype of the sum (no promotion of small integers).
  return ops::cast(ops::sum(ops::one_hot(x, depth, -1, dtype), x.ndim() > 1 ? 1 : 0), dtype);
}

}  // namespace keras::layers::detail
