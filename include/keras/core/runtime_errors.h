#pragma once
// What the environment (not the arguments) can make a call fail with: memory running out, and
// an interrupt (SIGINT, Ctrl-C) during Model::fit.

#include <stdexcept>
#include <string>

#include "keras/core/errors.h"

#pragma GCC visibility push(default)
namespace keras {

/// An allocation failed: the machine's memory or the process's limit (ulimit -v, a cgroup) is
/// reached (TensorFlow's name for it). The message names the bytes asked for and, for a
/// tensor, its dtype and shape. What was allocated before stays valid, so the program can free
/// memory and go on.
class ResourceExhaustedError : public Error {
 public:
  using Error::Error;
};

/// SIGINT arrived during Model::fit: fit finished the batch it was running (its callbacks'
/// on_train_batch_end included, so checkpoints are complete) and stopped, without
/// on_train_end, as Python's KeyboardInterrupt leaves Keras's fit. Like Python's, it is not an
/// Error: code that catches keras::Error to handle bad input does not swallow a Ctrl-C.
class KeyboardInterrupt : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace keras

#pragma GCC visibility pop
