#pragma once
// Per-thread state of nested layer calls: the training flag an outer call passes down.

#include <optional>

#include "keras/tensor/tensor.h"

// Declared ahead with default visibility, as the public header does (why: sharded_variables.h).
#pragma GCC visibility push(default)
namespace keras {
class Layer;
}
#pragma GCC visibility pop

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

/// Watches the eager layer calls made on this thread (the ONNX exporter's trace of a call():
/// it converts a sublayer's call as a whole rather than the ops inside it).
class LayerCallObserver {
 public:
  virtual ~LayerCallObserver() = default;
  /// A layer call begins (after the layer is built).
  virtual void enter(Layer& layer) = 0;
  /// The call of `layer` returned `outputs` (their masks attached); may throw.
  virtual void leave(Layer& layer, const TensorList& inputs, bool list_call,
                     const TensorList& outputs) = 0;
  /// The call of `layer` ended by an exception.
  virtual void abandon(Layer& layer) = 0;
};

/// This thread's observer of layer calls, or null.
LayerCallObserver*& layer_call_observer();

/// A second handle on the same values and the same place in the autograd graph (so a layer
/// that returns its input can carry its own mask).
Tensor alias(const Tensor& t);

}  // namespace keras::detail
