#pragma once
// An optional interface for backends that can record a sequence of their calls once and launch
// it again as a whole, as CUDA graphs do: keras::jit's programs use it to replay a compiled
// step with one launch instead of one launch per call. A backend offers it by deriving from
// GraphCapture as well as from Backend; it is not part of the contract every backend implements
// (backend.h), so backends without it need nothing.
//
// The semantics are CUDA stream capture's. Between begin_capture() and end_capture(), the calls
// the capturing thread makes on the backend are recorded, not run; other threads' calls run as
// usual. A recorded call keeps the arguments it was made with (addresses, extents, scalars), so
// every launch reads and writes the same memory: the caller keeps those arrays where they are,
// refills inputs in place, and records again when anything moves. Memory the backend allocates
// while recording (a call's scratch) belongs to the recording until it is destroyed, so nothing
// else is handed those addresses while a launch may use them. Calls that need the host (copies
// between host and device, a result returned to the caller) cannot be recorded: they throw
// while recording, and end_capture throws when the recording cannot be launched; the caller
// then runs the calls one by one, which is always correct. Random calls are recorded through
// random_from, whose key lives in device memory, so that each launch draws new numbers.

#include <cstdint>
#include <memory>

#include "keras/backend/backend.h"

#pragma GCC visibility push(default)
namespace keras::backend {

/// Work a backend recorded. Destroying it releases its memory.
class CapturedWork {
 public:
  virtual ~CapturedWork() = default;
  /// Runs the recorded calls in order, after the backend's earlier work and before its later
  /// work.
  virtual void launch() = 0;
};

/// The recording side of a backend that can capture (see above).
class GraphCapture {
 public:
  virtual ~GraphCapture() = default;
  /// Whether recordings may be made at all (a backend may be told not to: for the cuda
  /// backend, KERAS_CUDA_DISABLE=graphs).
  virtual bool capture_enabled() const = 0;
  /// Starts recording the calling thread's calls; one recording at a time per backend (a
  /// second thread waits until the first ends).
  virtual void begin_capture() = 0;
  /// Ends the calling thread's recording and returns it; throws RuntimeError naming the reason
  /// when it cannot be launched (the recording is then discarded).
  virtual std::unique_ptr<CapturedWork> end_capture() = 0;
  /// Ends the calling thread's recording after a call failed, discarding it.
  virtual void abort_capture() noexcept = 0;
  /// Backend::random with its Philox seed and counter read from `key` when the call runs (two
  /// int64 elements on this backend: the seed's and the counter's bits), the counter advanced by
  /// `counter_offset`: how a recorded random call draws new numbers at each launch, from the
  /// key written before it.
  virtual void random_from(const Array& out, RandomKind kind, const Array& key,
                           uint64_t counter_offset) = 0;
};

}  // namespace keras::backend
#pragma GCC visibility pop
