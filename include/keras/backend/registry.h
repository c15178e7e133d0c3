#pragma once
// Which backends exist and which one new tensors go to.
//
// The backend for new tensors is the first that applies of:
//   1. the innermost live BackendScope on this thread;
//   2. keras::backend::set_default(name);
//   3. the KERAS_BACKEND environment variable;
//   4. "backend" in $KERAS_HOME/keras.json (default ~/.keras/keras.json), read as Keras reads it;
//   5. "cpu".
// Python-only backend names ("jax", "tensorflow", "numpy", "openvino") in 3 or 4 are skipped
// with one warning on stderr, so that a machine set up for Python Keras still works; any
// other unknown name is a ValueError listing the available backends.
//
// A backend on a device other than its default one has the device in its name: "cuda:1" (the
// cuda backend on the second GPU), "torch:cuda" (the torch backend on the first GPU). Names
// that spell out the default device are aliases: "cuda:0" for "cuda", "torch:cpu" for "torch",
// "torch:cuda:0" for "torch:cuda".

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "keras/backend/backend.h"

#pragma GCC visibility push(default)
namespace keras::backend {

/// Makes a backend when it is first used.
using BackendFactory = std::function<std::unique_ptr<Backend>()>;

/// Adds a backend under `name` (replacing none: a second registration of a name is an error).
void register_backend(const std::string& name, BackendFactory factory);

/// Another name for the registered backend `target` ("cuda:0" for "cuda"); get(), BackendScope,
/// set_default and Tensor::to accept it. ValueError when `alias` is taken or `target` unknown.
void register_alias(const std::string& alias, const std::string& target);

/// Names of the registered backends, sorted (aliases not included).
std::vector<std::string> available();

/// The devices the available backends keep memory on, each once, in the order of available():
/// "cpu:0", and "cuda:0", "cuda:1", ... where a GPU backend is built in and a GPU present. These
/// are the names Backend::device() and the distribution API's device lists use.
std::vector<std::string> list_devices();

/// The backend registered as `name`; ValueError listing the available ones otherwise.
Backend& get(std::string_view name);

/// The backend new tensors go to (see the rule at the top of this file).
Backend& current();
/// current(), skipping symbolic scopes: where real data goes (a layer's weights created while
/// its output shape is being inferred).
Backend& current_real();
/// Its name (keras.config.backend() in Keras).
std::string_view backend();
/// Why current() is what it is: "BackendScope", "set_default", "KERAS_BACKEND", the keras.json
/// path, or "built-in default".
std::string current_source();

/// Makes `name` the default for new tensors on every thread.
void set_default(std::string_view name);

/// Makes `name` the backend for new tensors on this thread while alive.
class BackendScope {
 public:
  /// Switches this thread to the registered backend `name` (creating it on first use).
  /// Throws ValueError listing the available backends when `name` is not registered.
  explicit BackendScope(std::string_view name);
  ~BackendScope();
  BackendScope(const BackendScope&) = delete;
  BackendScope& operator=(const BackendScope&) = delete;

 private:
  size_t depth_;
};

}  // namespace keras::backend

#pragma GCC visibility pop
