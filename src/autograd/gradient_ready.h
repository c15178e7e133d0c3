#pragma once
// A hook into the backward pass for data-parallel training: while a GradientReadyScope lives on
// a thread, the next backward pass on it calls the hook with each source's gradient as soon as
// that gradient is complete (before the rest of the pass runs), so its all-reduce can start
// while the pass goes on. The pass takes the hook when it starts: gradients computed inside it
// (higher-order rules) do not see it.

#include <cstddef>
#include <functional>

#include "keras/tensor/tensor.h"

namespace keras::autograd::detail {

using GradientReady = std::function<void(size_t source_index, const Tensor& gradient)>;

class GradientReadyScope {
 public:
  explicit GradientReadyScope(GradientReady hook);
  ~GradientReadyScope();
  GradientReadyScope(const GradientReadyScope&) = delete;
  GradientReadyScope& operator=(const GradientReadyScope&) = delete;

 private:
  GradientReady previous_;
};

/// The hook of this thread's scope, taken (the scope's slot is left empty); empty when none.
GradientReady take_gradient_ready_hook();

}  // namespace keras::autograd::detail
