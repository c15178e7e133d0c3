#include "serve/model_server.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "keras/core/errors.h"
#include "keras/models/functional.h"
#include "keras/models/sequential.h"
#include "keras/ops/numpy/creation.h"
#include "keras/tensor/tensor.h"

namespace keras::serving {

size_t HostArray::row_bytes() const {
  size_t n = itemsize(dtype);
  for (int i = 1; i < shape.rank(); ++i) n *= static_cast<size_t>(shape[i]);
  return n;
}

DType storage_dtype(DType model_dtype) {
  switch (model_dtype) {
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float32:
      return DType::Float32;
    case DType::Float64:
      return DType::Float64;
    case DType::Bool:
      return DType::Bool;
    case DType::String:
      return DType::String;
    case DType::Complex64:
    case DType::Complex128:
      // TF Serving's JSON has no complex numbers: the constructor refuses such a model.
      throw ValueError(keras::detail::cat(
          "the model has a ", model_dtype, " input or output, and TF Serving's REST API has no "
          "complex numbers: serve a model that takes and returns their real parts "
          "(ops::view_as_real)."));
    default:
      return DType::Int64;
  }
}

namespace {

// A subclassed model's signature, from the shapes it was built with (float32 inputs, named
// "inputs" or "input_0", "input_1", ... as TF Serving's export of a subclassed Keras model
// names its call's argument) and from one row of zeros through it (the outputs).
Signature subclassed_signature(Model& model) {
  const std::vector<Shape>& shapes = model.build_input_shapes();
  if (shapes.empty())
    throw ValueError("model '" + model.name() + "' (" + model.class_name() +
                     ") is a subclassed model that has not been built, so its inputs are "
                     "unknown: call it once or build() it before serving it (or serve a "
                     "Functional model, or a Sequential model that starts with an Input)");
  Signature sig;
  TensorList zeros;
  for (size_t i = 0; i < shapes.size(); ++i) {
    Shape shape = shapes[i];
    for (int d = 1; d < shape.rank(); ++d)
      if (shape[d] < 0)
        throw ValueError("model '" + model.name() + "' (" + model.class_name() +
                         ") was built with input shape " + shape.to_string() +
                         ": serving a subclassed model needs every dimension but the batch known");
    if (shape.rank() == 0) throw ValueError("model '" + model.name() + "' takes a scalar input");
    std::string name = shapes.size() == 1 ? "inputs" : "input_" + std::to_string(i);
    shape[0] = 1;
    zeros.push_back(ops::zeros(shape, DType::Float32));
    shape[0] = -1;
    sig.inputs.push_back({std::move(name), DType::Float32, shape});
  }
  TensorList outputs =
      model.predict_on_batch(zeros.size() == 1 ? TensorStruct(zeros[0]) : TensorStruct(zeros))
          .flat();
  std::vector<std::string> names = model.output_names();
  for (size_t i = 0; i < outputs.size(); ++i) {
    Shape shape = outputs[i].shape();
    if (shape.rank() == 0 || shape[0] != 1)
      throw ValueError("model '" + model.name() + "' returned an output of shape " +
                       shape.to_string() + " for one row: serving needs a batch axis first");
    shape[0] = -1;
    std::string name = i < names.size() ? names[i]
                       : outputs.size() == 1 ? "outputs"
                                             : "output_" + std::to_string(i);
    sig.outputs.push_back({std::move(name), outputs[i].dtype(), shape});
  }
  return sig;
}

}  // namespace

Signature model_signature(Model& model) {
  std::vector<KerasTensor> inputs, outputs;
  if (auto* functional = dynamic_cast<FunctionalModel*>(&model)) {
    inputs = functional->inputs();
    outputs = functional->outputs();
  } else if (auto* sequential = dynamic_cast<SequentialModel*>(&model)) {
    if (sequential->input_tensor().defined() && !sequential->layer_outputs().empty()) {
      inputs = {sequential->input_tensor()};
      outputs = {sequential->layer_outputs().back()};
    }
  } else {
    return subclassed_signature(model);
  }
  if (inputs.empty() || outputs.empty())
    throw ValueError("model '" + model.name() + "' (" + model.class_name() +
                     ") has no known input signature: serving needs a Functional model, a "
                     "Sequential model that starts with an Input, or a built subclassed model");
  Signature sig;
  for (const KerasTensor& t : inputs) {
    auto producer = t.producer();
    sig.inputs.push_back({producer ? producer->name() : t.name(), t.dtype(), t.shape()});
  }
  std::vector<std::string> names = model.output_names();
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::string name = i < names.size() ? names[i] : "output_" + std::to_string(i);
    sig.outputs.push_back({name, outputs[i].dtype(), outputs[i].shape()});
  }
  for (auto* specs : {&sig.inputs, &sig.outputs})
    for (TensorSpec& spec : *specs)
      if (spec.shape.rank() > 0) spec.shape[0] = -1;  // the batch axis
  return sig;
}

struct ModelServer::Core {
  struct Pending {
    std::vector<HostArray> inputs;
    int64_t rows = 0;
    Clock::time_point enqueued, deadline;
    Completion done;
  };

  ModelPtr<Model> model_;
  BatchingOptions options_;
  Signature signature_;
  std::shared_ptr<Metrics> metrics_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::unique_ptr<Pending>> queue_;
  int arriving_ = 0;         // requests being read (Arriving tokens alive)
  int64_t queued_rows_ = 0;  // rows of the requests in queue_
  bool stopping_ = false;

  void submit(std::vector<HostArray> inputs, Clock::time_point deadline, Completion done);
  void work();
  void run_batch(std::vector<std::unique_ptr<Pending>>& batch);
  // Whether two requests' rows have the same shapes (they can be concatenated).
  static bool compatible(const Pending& a, const Pending& b);
};

ModelServer::ModelServer(ModelPtr<Model> model, BatchingOptions options,
                         std::shared_ptr<Metrics> metrics)
    : core_(std::make_shared<Core>()) {
  Core& c = *core_;
  c.model_ = std::move(model);
  c.options_ = std::move(options);
  c.metrics_ = metrics ? std::move(metrics) : std::make_shared<Metrics>();
  if (c.options_.max_batch < 1) throw ValueError("max_batch must be >= 1");
  if (c.options_.max_queue < 1) throw ValueError("max_queue must be >= 1");
  if (c.options_.batch_timeout_us < 0) throw ValueError("batch_timeout_us must be >= 0");
  c.signature_ = model_signature(*c.model_);
  for (const TensorSpec& spec : c.signature_.inputs)
    if (spec.shape.rank() == 0)
      throw ValueError("input '" + spec.name + "' is a scalar without a batch axis");
  for (const auto* specs : {&c.signature_.inputs, &c.signature_.outputs})
    for (const TensorSpec& spec : *specs) storage_dtype(spec.dtype);  // refuses complex ones
  worker_ = std::thread([core = core_] { core->work(); });
}

ModelServer::~ModelServer() {
  stop();
  // Released by the worker itself (a reply of a retired version held the last reference): it
  // goes on alone with the core it owns, runs what is queued and ends.
  if (worker_.joinable()) worker_.detach();
}

const Signature& ModelServer::signature() const {
  return core_->signature_;
}

const BatchingOptions& ModelServer::options() const {
  return core_->options_;
}

Metrics& ModelServer::metrics() {
  return *core_->metrics_;
}

ModelServer::Arriving::Arriving(ModelServer& server) : server_(server) {
  std::lock_guard<std::mutex> lock(server_.core_->mutex_);
  ++server_.core_->arriving_;
}

ModelServer::Arriving::~Arriving() {
  Core& c = *server_.core_;
  bool last;
  {
    std::lock_guard<std::mutex> lock(c.mutex_);
    last = --c.arriving_ == 0;
  }
  // With none on the way the worker stops waiting for companions; until then it has no
  // reason to wake (a wake-up per request costs a context switch per request under load).
  if (last) c.wake_.notify_all();
}

void ModelServer::warm_up() {
  TensorList x;
  for (const TensorSpec& spec : core_->signature_.inputs) {
    Shape shape = spec.shape;
    shape[0] = 1;
    for (int i = 1; i < shape.rank(); ++i)
      if (shape[i] < 0) return;  // a free dimension: no row to make up
    if (spec.dtype == DType::String)
      x.push_back(
          StringTensor(std::vector<std::string>(static_cast<size_t>(shape.numel())), shape));
    else
      x.push_back(ops::zeros(shape, spec.dtype));
  }
  core_->model_->predict_on_batch(x.size() == 1 ? TensorStruct(x[0]) : TensorStruct(x));
}

void ModelServer::stop() {
  {
    std::lock_guard<std::mutex> lock(core_->mutex_);
    core_->stopping_ = true;
  }
  core_->wake_.notify_all();
  if (worker_.joinable() && worker_.get_id() != std::this_thread::get_id()) worker_.join();
}

size_t ModelServer::queue_size() const {
  std::lock_guard<std::mutex> lock(core_->mutex_);
  return core_->queue_.size();
}

std::future<std::vector<HostArray>> ModelServer::submit(std::vector<HostArray> inputs,
                                                        Clock::time_point deadline) {
  auto promise = std::make_shared<std::promise<std::vector<HostArray>>>();
  auto future = promise->get_future();
  core_->submit(std::move(inputs), deadline,
                [promise](std::vector<HostArray> outputs, std::exception_ptr error) {
                  if (error)
                    promise->set_exception(error);
                  else
                    promise->set_value(std::move(outputs));
                });
  return future;
}

void ModelServer::submit(std::vector<HostArray> inputs, Clock::time_point deadline,
                         Completion done) {
  core_->submit(std::move(inputs), deadline, std::move(done));
}

void ModelServer::Core::submit(std::vector<HostArray> inputs, Clock::time_point deadline,
                               Completion done) {
  auto pending = std::make_unique<Pending>();
  pending->deadline = deadline;
  pending->rows = inputs.empty() ? 0 : inputs[0].rows();
  pending->inputs = std::move(inputs);
  pending->done = std::move(done);
  bool wake;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) throw ShuttingDownError("the server is shutting down");
    if (queue_.size() >= options_.max_queue)
      throw QueueFullError("the request queue is full (" + std::to_string(options_.max_queue) +
                           " requests waiting): retry later");
    pending->enqueued = Clock::now();
    queued_rows_ += pending->rows;
    // The worker needs waking for the first request (it sleeps on an empty queue), when a
    // batch's worth of rows is queued, or when no more requests are on their way; any other
    // request it picks up when one of those wakes it or its batch_timeout_us ends.
    wake = queue_.empty() || queued_rows_ >= options_.max_batch || arriving_ == 0;
    queue_.push_back(std::move(pending));
  }
  if (wake) wake_.notify_all();
}

bool ModelServer::Core::compatible(const Pending& a, const Pending& b) {
  if (a.inputs.size() != b.inputs.size()) return false;
  for (size_t i = 0; i < a.inputs.size(); ++i) {
    const Shape& x = a.inputs[i].shape;
    const Shape& y = b.inputs[i].shape;
    if (x.rank() != y.rank() || !std::equal(x.begin() + 1, x.end(), y.begin() + 1)) return false;
  }
  return true;
}

void ModelServer::Core::work() {
  const auto timeout = std::chrono::microseconds(options_.batch_timeout_us);
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) break;  // stopping, and nothing left to run
    // Wait for more rows, up to max_batch, until batch_timeout_us after the first arrived, as
    // long as requests are on their way.
    const auto deadline = queue_.front()->enqueued + timeout;
    auto ready_rows = [this] {
      int64_t rows = 0;
      for (const auto& p : queue_)
        if (compatible(*queue_.front(), *p)) rows += p->rows;
      return rows;
    };
    while (!stopping_ && arriving_ > 0 && ready_rows() < options_.max_batch &&
           std::chrono::steady_clock::now() < deadline)
      wake_.wait_until(lock, deadline);
    // The first request, then the compatible ones that fit in max_batch rows, in order.
    std::vector<std::unique_ptr<Pending>> batch;
    batch.push_back(std::move(queue_.front()));
    queue_.pop_front();
    int64_t rows = batch[0]->rows;
    for (auto it = queue_.begin(); it != queue_.end() && rows < options_.max_batch;) {
      if (compatible(*batch[0], **it) && rows + (*it)->rows <= options_.max_batch) {
        rows += (*it)->rows;
        batch.push_back(std::move(*it));
        it = queue_.erase(it);
      } else {
        ++it;
      }
    }
    queued_rows_ -= rows;
    lock.unlock();
    // Requests whose deadline passed while they waited are answered, not run.
    const auto now = Clock::now();
    std::erase_if(batch, [now](const std::unique_ptr<Pending>& p) {
      if (p->deadline > now) return false;
      p->done({}, std::make_exception_ptr(
                      DeadlineExceededError("the request waited in the queue past its deadline")));
      return true;
    });
    if (!batch.empty()) run_batch(batch);
    // Released before the lock is taken again: a request's completion may hold the last
    // handle to this server (a retired version), whose destructor stops the worker.
    batch.clear();
    lock.lock();
  }
}

void ModelServer::Core::run_batch(std::vector<std::unique_ptr<Pending>>& batch) {
  int64_t total = 0;
  for (const auto& p : batch) total += p->rows;
  std::vector<std::vector<HostArray>> results(batch.size());
  std::exception_ptr error;
  try {
    if (options_.before_batch) options_.before_batch(total);
    // One tensor per input: the requests' rows, concatenated.
    TensorList x;
    for (size_t i = 0; i < signature_.inputs.size(); ++i) {
      const HostArray& first = batch[0]->inputs[i];
      Shape shape = first.shape;
      shape[0] = total;
      if (first.dtype == DType::String) {
        std::vector<std::string> strings;
        for (const auto& p : batch)
          strings.insert(strings.end(), p->inputs[i].strings.begin(), p->inputs[i].strings.end());
        x.push_back(StringTensor(std::move(strings), shape));
        continue;
      }
      std::vector<unsigned char> data;
      data.reserve(first.row_bytes() * static_cast<size_t>(total));
      for (const auto& p : batch)
        data.insert(data.end(), p->inputs[i].data.begin(), p->inputs[i].data.end());
      Tensor t =
          Tensor::from_host(data.data(), first.dtype, shape, static_cast<size_t>(shape.numel()));
      if (t.dtype() != signature_.inputs[i].dtype) t = t.astype(signature_.inputs[i].dtype);
      x.push_back(t);
    }
    TensorStruct in = x.size() == 1 ? TensorStruct(x[0]) : TensorStruct(x);
    TensorList y = model_->predict_on_batch(in).flat();
    if (y.size() != signature_.outputs.size())
      throw RuntimeError("the model returned " + std::to_string(y.size()) + " outputs, its " +
                         "signature has " + std::to_string(signature_.outputs.size()));
    // Each output to the host once, then each request's rows.
    for (const Tensor& out : y) {
      if (out.shape().rank() == 0 || out.shape()[0] != total)
        throw RuntimeError("an output of shape " + out.shape().to_string() + " has no " +
                           std::to_string(total) + " rows to hand back");
      HostArray whole;
      whole.dtype = storage_dtype(out.dtype());
      whole.shape = out.shape();
      const bool strings = whole.dtype == DType::String;
      if (strings) {
        whole.strings = out.to_strings().values();
      } else {
        whole.data.resize(itemsize(whole.dtype) * static_cast<size_t>(out.size()));
        out.copy_to_host(whole.data.data(), whole.dtype);
      }
      const size_t row = whole.row_bytes();
      const size_t row_strings = strings ? whole.strings.size() / static_cast<size_t>(total) : 0;
      int64_t start = 0;
      for (size_t r = 0; r < batch.size(); ++r) {
        HostArray part;
        part.dtype = whole.dtype;
        part.shape = whole.shape;
        part.shape[0] = batch[r]->rows;
        const auto rows = static_cast<size_t>(batch[r]->rows), first = static_cast<size_t>(start);
        if (strings) {
          auto from = whole.strings.begin() + static_cast<std::ptrdiff_t>(row_strings * first);
          part.strings.assign(from, from + static_cast<std::ptrdiff_t>(row_strings * rows));
        } else {
          auto from = whole.data.begin() + static_cast<std::ptrdiff_t>(row * first);
          part.data.assign(from, from + static_cast<std::ptrdiff_t>(row * rows));
        }
        start += batch[r]->rows;
        results[r].push_back(std::move(part));
      }
    }
  } catch (...) {
    error = std::current_exception();
  }
  metrics_->record_batch(total, static_cast<int64_t>(batch.size()));
  for (size_t r = 0; r < batch.size(); ++r)
    batch[r]->done(error ? std::vector<HostArray>{} : std::move(results[r]), error);
}

}  // namespace keras::serving
