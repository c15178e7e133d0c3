#pragma once
// keras.ops.vectorize: a function of scalars (or of core blocks, with a signature) applied
// over every element of broadcast inputs.

#include <functional>
#include <string>
#include <vector>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace numpy {

/// The function vectorize wraps and returns: tensors in, one tensor out.
using VectorizeFn = std::function<Tensor(const TensorList&)>;

/// vectorize's keyword arguments.
struct VectorizeOptions {
  /// Positions of arguments passed to the function unchanged (not vectorized).
  std::vector<int> excluded;
  /// A generalized-ufunc signature such as "(m,n),(n)->(m)": the trailing core axes each
  /// argument and the result have. Empty: every argument and the result are scalars.
  std::string signature;
};

/// `pyfunc` applied to every element (or core block) of its broadcast arguments, results
/// stacked into the loop shape, as numpy.vectorize / jax.numpy.vectorize. keras-cpp calls
/// pyfunc once per element (there is no vmap), and the result is differentiable through it.
VectorizeFn vectorize(VectorizeFn pyfunc, VectorizeOptions options = {});

}  // namespace numpy
}  // namespace keras::ops

#pragma GCC visibility pop
