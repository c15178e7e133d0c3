#pragma once
// keras.initializers: how a weight gets its first value. An Initializer is called with a shape
// and a dtype and returns a new tensor; seeded initializers return the same values for the
// same seed, as in Keras.

#include <memory>
#include <string>

#include "keras/core/json.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::initializers {

/// Base of all initializers (subclass it for a custom one).
class Initializer {
 public:
  virtual ~Initializer() = default;
  /// A new tensor of `shape` and `dtype` with the initial values.
  virtual Tensor operator()(const Shape& shape, DType dtype) const = 0;
  /// The Keras class name ("GlorotUniform").
  virtual std::string class_name() const = 0;
  /// The constructor arguments, as Keras's get_config gives them.
  virtual Config get_config() const { return Config::object(); }
};

/// Shared, immutable handle to an initializer (a weight's `initializer`).
using InitializerPtr = std::shared_ptr<const Initializer>;

/// The initializer a Keras identifier names: "glorot_uniform", "GlorotUniform", "zeros", ...
/// ValueError listing the known names otherwise.
InitializerPtr get(const std::string& identifier);

/// An initializer argument: a name (as in Keras) or an object.
class InitializerArg {
 public:
  /// The built-in initializer a Keras identifier names (see get()); ValueError if unknown.
  InitializerArg(const char* name) : ptr_(initializers::get(name)) {}  // NOLINT
  /// The built-in initializer a Keras identifier names (see get()); ValueError if unknown.
  InitializerArg(const std::string& name) : ptr_(initializers::get(name)) {}  // NOLINT
  /// An initializer object.
  InitializerArg(InitializerPtr ptr) : ptr_(std::move(ptr)) {}  // NOLINT
  /// An initializer object of any Initializer subclass.
  template <typename T, typename = std::enable_if_t<std::is_base_of_v<Initializer, T>>>
  InitializerArg(std::shared_ptr<T> ptr) : ptr_(std::move(ptr)) {}  // NOLINT
  /// The initializer.
  const InitializerPtr& get() const { return ptr_; }
  /// The initializer, to call with a shape and a dtype.
  const Initializer& operator*() const { return *ptr_; }
  /// Member access to the initializer (`arg->get_config()`).
  const Initializer* operator->() const { return ptr_.get(); }

 private:
  InitializerPtr ptr_;
};

/// Keras's serialize_keras_object record of an initializer.
Config serialize(const Initializer& initializer);
/// The initializer a config names (a record, or a bare name string).
InitializerPtr deserialize(const Config& config);

}  // namespace keras::initializers

#pragma GCC visibility pop
