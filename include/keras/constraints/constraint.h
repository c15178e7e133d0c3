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
  virtual std::string class_name() const = 0;
  virtual Config get_config() const { return Config::object(); }
};

using ConstraintPtr = std::shared_ptr<const Constraint>;

/// The constraint a Keras identifier names ("max_norm", "non_neg", "unit_norm", ...).
ConstraintPtr get(const std::string& identifier);

/// A constraint argument: none, a name, or an object.
class ConstraintArg {
 public:
  ConstraintArg() = default;
  ConstraintArg(std::nullptr_t) {}  // NOLINT
  ConstraintArg(const char* name) : ptr_(constraints::get(name)) {}  // NOLINT
  ConstraintArg(const std::string& name) : ptr_(constraints::get(name)) {}  // NOLINT
  ConstraintArg(ConstraintPtr ptr) : ptr_(std::move(ptr)) {}  // NOLINT
  template <typename T, typename = std::enable_if_t<std::is_base_of_v<Constraint, T>>>
  ConstraintArg(std::shared_ptr<T> ptr) : ptr_(std::move(ptr)) {}  // NOLINT
  const ConstraintPtr& get() const { return ptr_; }
  explicit operator bool() const { return static_cast<bool>(ptr_); }

 private:
  ConstraintPtr ptr_;
};

Config serialize(const ConstraintPtr& constraint);
ConstraintPtr deserialize(const Config& config);

}  // namespace keras::constraints

#pragma GCC visibility pop
