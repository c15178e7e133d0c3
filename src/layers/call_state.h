#pragma once
// Per-thread state of nested layer calls: the training flag an outer call passes down.

#include <optional>

#include "keras/tensor/tensor.h"

namespace keras::detail {

/// The training flag of the innermost layer call on this thread, if any.
std::optional<bool>& current_training();

/// Sets current_training() for the duration of a call.
class TrainingScope {
 public:
  explicit TrainingScope(bool training) : previous_(current_training()) {
    current_training() = training;
  }
  ~TrainingScope() { current_training() = previous_; }
  TrainingScope(const TrainingScope&) = delete;
  TrainingScope& operator=(const TrainingScope&) = delete;

 private:
  std::optional<bool> previous_;
};

/// A second handle on the same values and the same place in the autograd graph (so a layer
/// that returns its input can carry its own mask).
Tensor alias(const Tensor& t);

}  // namespace keras::detail
