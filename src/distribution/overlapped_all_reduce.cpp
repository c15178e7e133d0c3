#include "distribution/overlapped_all_reduce.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <future>

#include "distribution/comm_thread.h"
#include "keras/backend/trace_hook.h"
#include "keras/core/errors.h"
#include "keras/distribution/collectives.h"
#include "keras/tensor/tensor_impl.h"
#include "ops/detail/op_utils.h"

namespace keras::distribution::detail {

// A bucket's packed values and its collective in flight; one per bucket of the step, reused by
// every replay of a compiled step (steps run one after another).
struct OverlappedAllReduce::Pending {
  std::vector<char> buffer;
  std::future<void> done;
};

namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

size_t default_bucket_bytes() {
  if (const char* text = std::getenv("KERAS_DISTRIBUTION_BUCKET_BYTES")) {
    long long v = std::atoll(text);
    check(v > 0, "KERAS_DISTRIBUTION_BUCKET_BYTES must be a number of bytes > 0; got '", text, "'.");
    return static_cast<size_t>(v);
  }
  return size_t{1} << 20;
}

}  // namespace

bool overlap_enabled() {
  static const bool enabled = [] {
    const char* text = std::getenv("KERAS_DISTRIBUTION_OVERLAP");
    return !(text && std::string(text) == "0");
  }();
  return enabled;
}

OverlappedAllReduce::OverlappedAllReduce(size_t sources, std::string what, size_t bucket_bytes)
    : what_(std::move(what)),
      bucket_bytes_(bucket_bytes ? bucket_bytes : default_bucket_bytes()),
      sources_(sources) {}

void OverlappedAllReduce::add(size_t index, const Tensor& value) {
  check(index == kNone || index < sources_, "OverlappedAllReduce: source ", index, " of ", sources_, ".");
  const Tensor v = value.contiguous();
  if (!open_.slots.empty() && values_[open_.slots.front()].dtype() != v.dtype()) start(open_);
  values_.push_back(v);
  source_of_.push_back(index);
  open_.slots.push_back(values_.size() - 1);
  open_.bytes += static_cast<size_t>(v.size()) * itemsize(v.dtype());
  if (open_.bytes >= bucket_bytes_) start(open_);
}

void OverlappedAllReduce::start(Bucket& bucket) {
  if (bucket.slots.empty()) return;
  Bucket b = std::move(bucket);
  bucket = Bucket{};
  b.pending = std::make_shared<Pending>();
  b.token = ops::detail::empty(Shape{1}, DType::Float32, values_[b.slots.front()].backend());
  std::vector<backend::Array> arrays{b.token.array()};
  for (size_t s : b.slots) arrays.push_back(values_[s].array());
  const DType dtype = values_[b.slots.front()].dtype();
  const size_t count = b.bytes / itemsize(dtype), n = b.slots.size();
  const std::string name = keras::detail::cat(what_, " (bucket ", buckets_.size(), ")");
  backend::run_host_kernel(
      "all_reduce_start", arrays, 1,
      [pending = b.pending, dtype, count, n, name](const backend::Array* a) {
        pending->buffer.resize(count * itemsize(dtype));
        size_t offset = 0;
        for (size_t k = 0; k < n; ++k) {
          check(a[1 + k].is_contiguous(), "all_reduce: a non-contiguous gradient.");
          std::memcpy(pending->buffer.data() + offset, a[1 + k].data(), a[1 + k].nbytes());
          offset += a[1 + k].nbytes();
        }
        *static_cast<float*>(a[0].data()) = 0.0f;
        pending->done = submit_collective([pending, dtype, count, name] {
          collectives().all_reduce_sum(pending->buffer.data(), count, dtype, name);
        });
      });
  buckets_.push_back(std::move(b));
}

void OverlappedAllReduce::wait(Bucket& b) {
  std::vector<Tensor> outputs;
  std::vector<backend::Array> arrays;
  for (size_t s : b.slots) {
    outputs.push_back(ops::detail::empty(values_[s].shape(), values_[s].dtype(), values_[s].backend()));
    arrays.push_back(outputs.back().array());
  }
  arrays.push_back(b.token.array());
  const size_t n = b.slots.size();
  backend::run_host_kernel("all_reduce_wait", arrays, n,
                           [pending = b.pending, n](const backend::Array* a) {
                             pending->done.get();  // rethrows the collective's error
                             size_t offset = 0;
                             for (size_t k = 0; k < n; ++k) {
                               std::memcpy(a[k].data(), pending->buffer.data() + offset,
                                           a[k].nbytes());
                               offset += a[k].nbytes();
                             }
                           });
  for (size_t k = 0; k < n; ++k) sums_[b.slots[k]] = outputs[k];
}

std::vector<Tensor> OverlappedAllReduce::finish(std::vector<Tensor>& extra) {
  for (const Tensor& e : extra) add(kNone, e);
  start(open_);
  sums_.assign(values_.size(), Tensor());
  for (Bucket& b : buckets_) wait(b);
  std::vector<Tensor> by_source(sources_);
  size_t next_extra = 0;
  for (size_t i = 0; i < values_.size(); ++i) {
    if (source_of_[i] == kNone) extra[next_extra++] = sums_[i];
    else by_source[source_of_[i]] = sums_[i];
  }
  return by_source;
}

}  // namespace keras::distribution::detail
