#pragma once
// What the complex oracle tests share: an op run under a GradientTape with the loss the
// fixtures' jax.grad took, L = sum(real(y) * w_re + imag(y) * w_im) (or sum(y * w) for a real
// y), which for a complex input z = x + iy gives dL/dx - i dL/dy (JAX's convention).

#include <functional>

#include "golden.h"
#include "keras/keras.h"

namespace keras::test {

/// The case's inputs are the op's `arity` inputs followed by its weights; returns y and, when
/// the case has gradients (kwargs "grad", default true), dL/d(input) for each input.
inline GoldenFn with_gradients(size_t arity, std::function<Tensor(const TensorList&)> fn) {
  return [arity, fn](const TensorList& in, const json& kw) {
    TensorList inputs(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(arity));
    if (!kw.value("grad", true)) return TensorList{fn(inputs)};
    GradientTape tape;
    for (Tensor& t : inputs) tape.watch(t);
    Tensor y = fn(inputs);
    Tensor loss = is_complex(y.dtype())
                      ? ops::sum(ops::add(ops::multiply(ops::real(y), in[arity]),
                                          ops::multiply(ops::imag(y), in[arity + 1])))
                      : ops::sum(ops::multiply(y, in[arity]));
    TensorList result{y};
    for (const Tensor& g : tape.gradient(loss, inputs)) result.push_back(g);
    return result;
  };
}

}  // namespace keras::test
