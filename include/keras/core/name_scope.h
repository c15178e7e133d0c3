#pragma once
// keras.name_scope: while a NameScope lives, the weights layers create get its name in front
// of their path ("block_1/dense/kernel" instead of "dense/kernel"), as Keras 3 prefixes
// Variable.path with the open name scopes. Layer names are unaffected. Scopes nest and are
// per thread; a name cannot contain '/'.
//
//   {
//     keras::NameScope scope("block_1");
//     y = keras::layers::Dense(8)(x);   // builds here: weights "block_1/dense/kernel", ...
//   }
//
// Keras's NASNet builds its cells inside name scopes, so its weight paths carry them.

#include <string>

#pragma GCC visibility push(default)
namespace keras {

/// keras.name_scope: prefixes the paths of weights created on this thread while it lives.
class NameScope {
 public:
  /// Opens scope `name` inside the current ones; ValueError when `name` contains '/'.
  explicit NameScope(const std::string& name);
  ~NameScope();
  NameScope(const NameScope&) = delete;
  NameScope& operator=(const NameScope&) = delete;
};

/// The open scopes joined with "/" (Keras's current_path()); "" outside every scope.
std::string current_name_scope_path();

}  // namespace keras

#pragma GCC visibility pop
