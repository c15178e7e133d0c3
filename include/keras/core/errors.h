#pragma once
// The error hierarchy. Every error a user can cause is one of these, and its message names the
// values that were wrong and, where there is one, the fix.

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#pragma GCC visibility push(default)
namespace keras {

/// Base of every exception keras-cpp throws on purpose.
class Error : public std::runtime_error {
 public:
  /// An error whose what() is `message`.
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// A value is wrong: a shape, an axis, an option (Python's ValueError).
class ValueError : public Error {
 public:
  using Error::Error;
};

/// A dtype or kind of argument is wrong (Python's TypeError).
class TypeError : public Error {
 public:
  using Error::Error;
};

/// Reading or writing a file failed, or a file is malformed.
class IOError : public Error {
 public:
  using Error::Error;
};

/// The selected backend (or this build) lacks what was asked for.
class NotImplementedError : public Error {
 public:
  using Error::Error;
};

/// An index is out of range (Python's IndexError).
class IndexError : public ValueError {
 public:
  using ValueError::ValueError;
};

/// Misuse of stateful machinery, such as a non-persistent GradientTape asked twice.
class RuntimeError : public Error {
 public:
  using Error::Error;
};

namespace detail {

/// Concatenates streamable values into one message.
template <typename... Args>
std::string cat(Args&&... args) {
  std::ostringstream out;
  (out << ... << std::forward<Args>(args));
  return out.str();
}

}  // namespace detail

/// Throws E with the streamed message when `condition` is false.
template <typename E = ValueError, typename... Args>
inline void check(bool condition, Args&&... message) {
  if (!condition) [[unlikely]]
    throw E(keras::detail::cat(std::forward<Args>(message)...));
}

}  // namespace keras

#pragma GCC visibility pop
