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
  virtual std::string class_name() const = 0;
  virtual Config get_config() const { return Config::object(); }
};

using RegularizerPtr = std::shared_ptr<const Regularizer>;

/// The regularizer a Keras identifier names ("l1", "l2", "l1_l2", "orthogonal_regularizer").
RegularizerPtr get(const std::string& identifier);

/// A regularizer argument: none, a name, or an object.
class RegularizerArg {
 public:
  RegularizerArg() = default;
  RegularizerArg(std::nullptr_t) {}  // NOLINT
  RegularizerArg(const char* name) : ptr_(regularizers::get(name)) {}  // NOLINT
  RegularizerArg(const std::string& name) : ptr_(regularizers::get(name)) {}  // NOLINT
  RegularizerArg(RegularizerPtr ptr) : ptr_(std::move(ptr)) {}  // NOLINT
  template <typename T, typename = std::enable_if_t<std::is_base_of_v<Regularizer, T>>>
  RegularizerArg(std::shared_ptr<T> ptr) : ptr_(std::move(ptr)) {}  // NOLINT
  const RegularizerPtr& get() const { return ptr_; }
  explicit operator bool() const { return static_cast<bool>(ptr_); }

 private:
  RegularizerPtr ptr_;
};

/// serialize_keras_object record (null for none).
Config serialize(const RegularizerPtr& regularizer);
RegularizerPtr deserialize(const Config& config);

}  // namespace keras::regularizers

#pragma GCC visibility pop
