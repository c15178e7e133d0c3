#pragma once
// keras.constraints: a projection applied to a weight after each optimizer update.

#include <memory>
#include <string>

#include "keras/core/json.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::constraints {

/// Base of all constraints.
class Constraint {
 public:
  virtual ~Constraint() = default;
  /// The projected weight.
  virtual Tensor operator()(const Tensor& w) const = 0;
  /// The Keras class name written to configs ("MaxNorm", "NonNeg", ...).
  virtual std::string class_name() const = 0;
  /// The constructor arguments as a Keras config (empty for constraints without arguments).
  virtual Config get_config() const { return Config::object(); }
};

/// Shared, immutable handle to a constraint (a weight's `constraint`).
using ConstraintPtr = std::shared_ptr<const Constraint>;

/// The constraint a Keras identifier names ("max_norm", "non_neg", "unit_norm", ...).
ConstraintPtr get(const std::string& identifier);

/// A constraint argument: none, a name, or an object.
class ConstraintArg {
 public:
  /// No constraint.
  ConstraintArg() = default;
  /// No constraint (`nullptr`, Python's None).
  ConstraintArg(std::nullptr_t) {}  // NOLINT
  /// The built-in constraint a Keras identifier names (see get()); ValueError if unknown.
  ConstraintArg(const char* name) : ptr_(constraints::get(name)) {}  // NOLINT
  /// The built-in constraint a Keras identifier names (see get()); ValueError if unknown.
  ConstraintArg(const std::string& name) : ptr_(constraints::get(name)) {}  // NOLINT
  /// A constraint object; null means none.
  ConstraintArg(ConstraintPtr ptr) : ptr_(std::move(ptr)) {}  // NOLINT
  /// A constraint object of any Constraint subclass; null means none.
  template <typename T, typename = std::enable_if_t<std::is_base_of_v<Constraint, T>>>
  ConstraintArg(std::shared_ptr<T> ptr) : ptr_(std::move(ptr)) {}  // NOLINT
  /// The constraint, or null for none.
  const ConstraintPtr& get() const { return ptr_; }
  /// Whether a constraint is set.
  explicit operator bool() const { return static_cast<bool>(ptr_); }

 private:
  ConstraintPtr ptr_;
};

/// The `serialize_keras_object` record of a constraint (module, class_name, config).
/// Null for none.
Config serialize(const ConstraintPtr& constraint);
/// The constraint that a serialized record, an identifier string or null (none) describes.
/// Throws ValueError for an unknown name or a malformed record.
ConstraintPtr deserialize(const Config& config);

}  // namespace keras::constraints

#pragma GCC visibility pop
