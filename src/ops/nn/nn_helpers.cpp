// Shared helpers of the nn ops (see nn_common.h).

#include "ops/detail/op_utils.h"
#include "ops/nn/nn_common.h"

namespace keras::ops::nn_detail {

DType float_dtype(const Tensor& x) { return float_result_type(detail::promote({&x})); }

}  // namespace keras::ops::nn_detail
