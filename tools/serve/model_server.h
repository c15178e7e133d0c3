#pragma once
// keras::serving::ModelServer: one model behind a request queue, for `keras-cpp serve`.
// Requests (host arrays, one per model input, of one or more rows) are queued; one worker
// thread takes up to max_batch rows from the queue, waiting at most batch_timeout_us after the
// first for more, runs ONE predict_on_batch over the concatenated rows and hands each request
// its rows of the outputs. Every call into the model happens on that thread.

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "keras/core/dtype.h"
#include "keras/core/shape.h"
#include "keras/models/model.h"
#include "serve/metrics.h"

namespace keras::serving {

/// One tensor's values on the host, row-major, in `dtype` (a storage dtype: see
/// storage_dtype); the first axis is the batch axis.
struct HostArray {
  DType dtype = DType::Float32;
  Shape shape;
  /// The values' bytes (every dtype but string).
  std::vector<unsigned char> data;
  /// The values of a string array (data is empty then).
  std::vector<std::string> strings;

  int64_t rows() const { return shape.rank() > 0 ? shape[0] : 1; }
  /// Bytes of one row.
  size_t row_bytes() const;
};

/// The dtype requests and responses hold a model dtype in: float32 for float32, float16 and
/// bfloat16; float64; int64 for every integer type; bool; string.
DType storage_dtype(DType model_dtype);

/// A named input or output of the served signature; -1 marks an unknown dimension (the batch).
struct TensorSpec {
  std::string name;
  DType dtype = DType::Float32;
  Shape shape;
};

/// The model's inputs and outputs in order (TF Serving's "serving_default" signature).
struct Signature {
  std::vector<TensorSpec> inputs, outputs;
};

/// The signature of a Functional model, of a Sequential model that has an Input, or of a
/// subclassed model that has been built (its build shapes, float32 inputs; its outputs from one
/// row of zeros run through it); ValueError for other models (their inputs are unknown).
Signature model_signature(Model& model);

/// What submit() throws when the queue holds max_queue requests (HTTP 503).
class QueueFullError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
/// What submit() throws after stop() began (HTTP 503).
class ShuttingDownError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
/// What a request's future holds when its deadline passed before its batch ran (HTTP 504).
class DeadlineExceededError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The batching queue's settings (keras-cpp serve's flags of the same names).
struct BatchingOptions {
  /// Most rows one predict_on_batch runs (a larger request runs alone, whole).
  int64_t max_batch = 32;
  /// How long the worker waits, after the first queued request arrived, for more rows, while
  /// other requests are on their way (announced with arriving()): with none on the way it runs
  /// the batch at once, so a lone client never waits for companions.
  int64_t batch_timeout_us = 1000;
  /// Most requests waiting in the queue; more are refused (QueueFullError).
  size_t max_queue = 256;
  /// Called on the worker thread before each batch runs, with its row count (tests use it
  /// to hold the worker).
  std::function<void(int64_t rows)> before_batch;
};

/// The model, its signature and the batching worker.
class ModelServer {
 public:
  /// Starts the worker; ValueError when the model's signature is unknown. The metrics are
  /// shared with the caller (a server of several models counts in one place); null: its own.
  explicit ModelServer(ModelPtr<Model> model, BatchingOptions options = {},
                       std::shared_ptr<Metrics> metrics = nullptr);
  /// stop(). Released on the worker thread itself (by the reply of the last request that
  /// held it), the worker finishes the queue on its own instead.
  ~ModelServer();
  ModelServer(const ModelServer&) = delete;
  ModelServer& operator=(const ModelServer&) = delete;

  const Signature& signature() const;
  const BatchingOptions& options() const;
  Metrics& metrics();

  using Clock = std::chrono::steady_clock;
  /// Queues one request: one array per model input (in signature order, storage dtypes,
  /// shapes already checked), each with the same number of rows. The future holds one array
  /// per output with that many rows, or the model's exception, or DeadlineExceededError when
  /// `deadline` passed before its batch started. QueueFullError when the queue is full,
  /// ShuttingDownError after stop().
  std::future<std::vector<HostArray>> submit(std::vector<HostArray> inputs,
                                             Clock::time_point deadline = Clock::time_point::max());

  /// What a request queued with a callback gets: the outputs, or the exception (the model's,
  /// or DeadlineExceededError) when `error` is set.
  using Completion = std::function<void(std::vector<HostArray> outputs, std::exception_ptr error)>;
  /// submit() for an event loop: `done` is called once, on the worker thread, when the
  /// request's batch has run or the request was dropped; it must not block. Throws as submit().
  void submit(std::vector<HostArray> inputs, Clock::time_point deadline, Completion done);

  /// Announces a request that is being read and will be submitted (or dropped) soon: while one
  /// is on its way, the worker waits up to batch_timeout_us for it. Hold the token from when
  /// the request's body starts being read until submit() returned (or failed).
  class Arriving {
   public:
    explicit Arriving(ModelServer& server);
    ~Arriving();
    Arriving(const Arriving&) = delete;
    Arriving& operator=(const Arriving&) = delete;

   private:
    ModelServer& server_;
  };

  /// Runs one row of zeros through the model on the calling thread, outside the queue and the
  /// metrics (tracing it before the first request, and finding a model that loads but cannot
  /// run); the model's exception when it fails. Does nothing when an input has an unknown
  /// dimension besides the batch.
  void warm_up();

  /// Refuses new requests, runs the queued ones, then ends the worker. Idempotent.
  void stop();
  /// Requests waiting in the queue now.
  size_t queue_size() const;

 private:
  // The model, its queue and the worker's state: shared by this handle and the worker thread,
  // so that the handle may be released on the worker itself (the last reply of a retired
  // version holds it) while the worker drains the queue.
  struct Core;
  std::shared_ptr<Core> core_;
  std::thread worker_;
};

}  // namespace keras::serving
