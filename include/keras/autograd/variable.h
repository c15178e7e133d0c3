#pragma once
// keras::Variable: mutable state (weights, optimizer slots, counters). A Variable is a shared
// handle, as in Keras: copies refer to the same variable. Reading it gives a Tensor snapshot;
// assign() replaces the value (in place when nobody else holds the old one, else by copy, so a
// tensor you already read never changes under you).

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras {

/// Options of a Variable, as Keras's keyword arguments.
struct VariableOptions {
  /// Whether optimizers train it and tapes watch it.
  bool trainable = true;
  /// Short name, e.g. "kernel".
  std::string name;
  /// Full path, e.g. "dense/kernel"; defaults to the name.
  std::string path;
  /// Converts the initial value when set.
  std::optional<DType> dtype;
  /// Whether reads inside an AutocastScope see the value cast to the scope's dtype (Keras's
  /// `autocast` argument of add_weight; normalization statistics opt out).
  bool autocast = true;
  /// Keras's overwrite_with_gradient: an optimizer assigns this variable its gradient instead
  /// of updating it (float8 training's scales and amax histories, whose "gradients" are their
  /// new values).
  bool overwrite_with_gradient = false;
};

/// Keras's AutocastScope: while one is active on this thread, reading a floating variable that
/// autocasts gives its value cast to `dtype` (a layer under a mixed policy reads its float32
/// weights in float16). An unset dtype turns autocasting off inside an outer scope.
class AutocastScope {
 public:
  /// Makes reads of autocasting floating variables on this thread return `dtype` until destroyed.
  /// Throws ValueError when `dtype` is set but not a floating dtype.
  explicit AutocastScope(std::optional<DType> dtype);
  ~AutocastScope();
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;
  /// The dtype of the innermost scope on this thread; unset when none autocasts.
  static std::optional<DType> current();

 private:
  std::optional<DType> previous_;
};

/// A named, mutable tensor that gradients can be taken with respect to.
class Variable {
 public:
  /// An empty handle (defined() is false).
  Variable() = default;
  /// A variable holding a copy of `initial_value`.
  explicit Variable(const Tensor& initial_value, VariableOptions options = {});

  /// Whether the handle refers to a variable (false for a default-constructed one).
  bool defined() const { return static_cast<bool>(state_); }
  /// The current value. Under a GradientTape, ops on it are recorded when trainable. Inside
  /// an AutocastScope a floating variable that autocasts reads as the scope's dtype (the cast
  /// is an op, so gradients reach the variable in its own dtype).
  Tensor value() const;
  /// Reads value(), so a variable can be passed wherever a Tensor is expected.
  operator Tensor() const { return value(); }  // NOLINT: variables are used as tensors
  /// The stored value, never autocast.
  const Tensor& stored_value() const;

  /// Replaces the value; the shape must match (a one-element value is broadcast to the
  /// variable's shape) and the dtype is converted.
  void assign(const Tensor& value);
  /// Adds `delta` to the value (Keras's assign_add).
  void assign_add(const Tensor& delta);
  /// Subtracts `delta` from the value (Keras's assign_sub).
  void assign_sub(const Tensor& delta);

  /// The value's shape, fixed at construction.
  const Shape& shape() const { return stored_value().shape(); }
  /// The variable's own dtype (reads inside an AutocastScope may differ).
  DType dtype() const { return stored_value().dtype(); }
  /// The number of dimensions of the value.
  int ndim() const { return stored_value().ndim(); }
  /// Whether reads inside an AutocastScope are cast (Keras's `autocast`, see VariableOptions).
  bool autocast() const;
  /// Keras's overwrite_with_gradient (see VariableOptions).
  bool overwrite_with_gradient() const;
  /// Sets Keras's overwrite_with_gradient (see VariableOptions).
  void set_overwrite_with_gradient(bool overwrite);
  /// Whether optimizers train it and tapes watch it (Keras's `trainable`).
  bool trainable() const;
  /// Sets trainable(); a non-trainable variable's reads are no longer recorded by tapes.
  void set_trainable(bool trainable);
  /// The short name, e.g. "kernel" ("variable" when none was given).
  const std::string& name() const;
  /// The full path, e.g. "dense/kernel", which weight files key on (the name when none was given).
  const std::string& path() const;
  /// Replaces the full path that weight files key on.
  void set_path(const std::string& path);
  /// The values converted to T, in row-major order.
  template <typename T>
  std::vector<T> numpy() const {
    return stored_value().to_vector<T>();
  }

  /// The projection an optimizer applies after updating this variable (Keras's constraint);
  /// empty when there is none.
  const std::function<Tensor(const Tensor&)>& constraint() const;
  /// Sets the constraint (an empty function removes it).
  void set_constraint(std::function<Tensor(const Tensor&)> constraint);

  /// Makes `value` (the tensor itself, not a copy, so gradients flow to it) the variable's
  /// value and returns the previous one. For stateless calls (Layer::stateless_call), which
  /// swap values in and back; not for updates (use assign).
  Tensor exchange_value(Tensor value);

  /// True when both handles refer to the same variable.
  bool is_same(const Variable& other) const { return state_ == other.state_; }
  /// The variable's identity (equal for handles of one variable), as a map key.
  const void* identity() const { return state_.get(); }

 private:
  struct State;
  State& checked_state() const;
  std::shared_ptr<State> state_;
};

}  // namespace keras

#pragma GCC visibility pop
