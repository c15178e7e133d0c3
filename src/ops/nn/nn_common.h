#pragma once
// What the keras.ops.nn files share: running a composite forward pass as one recorded op.

#include <initializer_list>
#include <string_view>
#include <utility>

#include "keras/autograd/gradient_tape.h"
#include "keras/autograd/node.h"
#include "keras/tensor/tensor.h"

namespace keras::ops::nn_detail {

/// Runs `forward()` and, when a gradient is being recorded for one of `inputs`, links its
/// result to them with the single rule `rule` (instead of one node per op of the forward pass).
/// `forward` must return a new tensor, never one of `inputs` itself.
template <typename Forward, typename Rule>
Tensor with_rule(std::string_view name, std::initializer_list<Tensor> inputs, Forward&& forward,
                 Rule&& rule) {
  bool record = false;
  for (const Tensor& t : inputs) record = record || autograd::should_record(t);
  if (!record) return forward();
  Tensor y;
  {
    NoGradScope no_grad;
    y = forward();
  }
  autograd::record(name, inputs, y, std::forward<Rule>(rule));
  return y;
}

/// The float dtype an elementwise op computes in for `x` (floatx() for integers and bool).
DType float_dtype(const Tensor& x);

}  // namespace keras::ops::nn_detail
