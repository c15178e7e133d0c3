// eig: the general eigendecomposition, whose results are complex.

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/complex/complex_parts.h"
#include "ops/linalg/common.h"

namespace keras::ops {
inline namespace linalg {

using namespace linalg_detail;

std::pair<Tensor, Tensor> eig(const Tensor& x) {
  constexpr std::string_view op = "eig";
  check_matrix(op, x, true);
  if (needs_cpu(x)) {
    TensorList r = via_cpu({x}, [](const TensorList& in) {
      auto [w, v] = eig(in[0]);
      return TensorList{w, v};
    });
    return {r[0], r[1]};
  }
  // Keras's eig (jnp.linalg.eig, which computes the eigenvectors) is not differentiable
  // either: JAX raises NotImplementedError for non-symmetric eigenvector derivatives.
  if (autograd::should_record(x))
    throw NotImplementedError(
        "eig has no gradient (as in Keras, whose JAX backend refuses eigenvector derivatives of "
        "non-symmetric matrices): compute it outside the GradientTape (or stop watching its "
        "input), or use eigh for symmetric or Hermitian matrices, which has one.");
  // float64 and complex128 give complex128 results, every other dtype complex64 (computed in
  // float32 or complex64).
  const DType dtype = is_complex(x.dtype())         ? x.dtype()
                      : x.dtype() == DType::Float64 ? DType::Float64
                                                    : DType::Float32;
  Tensor a = detail::cast(x, dtype);
  auto& be = a.backend();
  // The results as (real, imaginary) pairs of the part dtype.
  const DType part = real_part_dtype(dtype);
  Shape values_shape(a.shape().begin(), a.shape().end() - 1);
  values_shape.push_back(2);
  Shape vectors_shape = a.shape();
  vectors_shape.push_back(2);
  Tensor w = detail::empty(values_shape, part, be);
  Tensor v = detail::empty(vectors_shape, part, be);
  // A matrix whose QR iteration fails (or that holds NaN or inf) gets NaN results, as JAX's.
  be.eig(w.array(), v.array(), a.array());
  return {complex_detail::complex_from_pairs_raw(w), complex_detail::complex_from_pairs_raw(v)};
}

}  // namespace linalg
}  // namespace keras::ops
