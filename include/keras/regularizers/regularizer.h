#pragma once
// keras.regularizers: a penalty on a weight added to the training loss.

#include <memory>
#include <string>

#include "keras/core/json.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::regularizers {

/// Base of all regularizers.
class Regularizer {
 public:
  virtual ~Regularizer() = default;
  /// The scalar penalty for weight `x`.
  virtual Tensor operator()(const Tensor& x) const = 0;
  /// The Keras class name written to configs ("L1", "L2", "L1L2", "OrthogonalRegularizer").
  virtual std::string class_name() const = 0;
  /// The constructor arguments as a Keras config (empty for regularizers without arguments).
  virtual Config get_config() const { return Config::object(); }
};

/// Shared, immutable handle to a regularizer (a weight's `regularizer`).
using RegularizerPtr = std::shared_ptr<const Regularizer>;

/// The regularizer a Keras identifier names ("l1", "l2", "l1_l2", "orthogonal_regularizer").
RegularizerPtr get(const std::string& identifier);

/// A regularizer argument: none, a name, or an object.
class RegularizerArg {
 public:
  /// No regularizer.
  RegularizerArg() = default;
  /// No regularizer (`nullptr`, Python's None).
  RegularizerArg(std::nullptr_t) {}  // NOLINT
  /// The built-in regularizer a Keras identifier names (see get()); ValueError if unknown.
  RegularizerArg(const char* name) : ptr_(regularizers::get(name)) {}  // NOLINT
  /// The built-in regularizer a Keras identifier names (see get()); ValueError if unknown.
  RegularizerArg(const std::string& name) : ptr_(regularizers::get(name)) {}  // NOLINT
  /// A regularizer object; null means none.
  RegularizerArg(RegularizerPtr ptr) : ptr_(std::move(ptr)) {}  // NOLINT
  /// A regularizer object of any Regularizer subclass; null means none.
  template <typename T, typename = std::enable_if_t<std::is_base_of_v<Regularizer, T>>>
  RegularizerArg(std::shared_ptr<T> ptr) : ptr_(std::move(ptr)) {}  // NOLINT
  /// The regularizer, or null for none.
  const RegularizerPtr& get() const { return ptr_; }
  /// Whether a regularizer is set.
  explicit operator bool() const { return static_cast<bool>(ptr_); }

 private:
  RegularizerPtr ptr_;
};

/// serialize_keras_object record (null for none).
Config serialize(const RegularizerPtr& regularizer);
/// The regularizer that a serialized record, an identifier string or null (none) describes.
/// Throws ValueError for an unknown name or a malformed record.
RegularizerPtr deserialize(const Config& config);

}  // namespace keras::regularizers

#pragma GCC visibility pop
