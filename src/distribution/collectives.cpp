// The tensor-level collectives (collectives.h): host copies around the byte-level calls.

#include "keras/distribution/collectives.h"

#include <cstring>
#include <functional>

#include "distribution/comm_thread.h"
#include "keras/autograd/node.h"
#include "keras/backend/trace_hook.h"
#include "keras/core/errors.h"
#include "keras/ops/numpy/shape.h"
#include "keras/tensor/tensor_impl.h"
#include "ops/detail/op_utils.h"

namespace keras::distribution {
namespace {

std::vector<char> host_bytes(const Tensor& t) {
  std::vector<char> bytes(static_cast<size_t>(t.size()) * itemsize(t.dtype()));
  if (!bytes.empty()) t.copy_to_host(bytes.data(), t.dtype());
  return bytes;
}

Tensor from_bytes(const std::vector<char>& bytes, const Tensor& like, const Shape& shape) {
  return Tensor::from_host(bytes.data(), like.dtype(), shape,
                           bytes.size() / itemsize(like.dtype()), like.backend_name());
}

}  // namespace

Tensor all_reduce_sum(const Tensor& t, const std::string& what) {
  if (collectives().size() == 1) return t;
  std::vector<Tensor> one{t};
  all_reduce_sum(one, what, 0);
  return one[0];
}

void all_reduce_sum(std::vector<Tensor>& tensors, const std::string& what, size_t bucket_bytes) {
  if (collectives().size() == 1 || tensors.empty()) return;
  // One host kernel (so a compiled step records it and every replay communicates again): the
  // outputs are fresh tensors, the inputs contiguous copies; consecutive tensors of one dtype
  // are packed into buckets of about bucket_bytes, one collective each.
  const size_t n = tensors.size();
  std::vector<Tensor> inputs, outputs;
  std::vector<backend::Array> arrays;
  for (const Tensor& t : tensors) {
    check(t.defined(), "all_reduce_sum: ", what, " holds an undefined tensor.");
    inputs.push_back(t.contiguous());
    outputs.push_back(ops::detail::empty(t.shape(), t.dtype(), t.backend()));
  }
  for (const Tensor& t : outputs) arrays.push_back(t.array());
  for (const Tensor& t : inputs) arrays.push_back(t.array());
  backend::run_host_kernel("all_reduce_sum", arrays, n, [n, what, bucket_bytes](const backend::Array* a) {
    size_t begin = 0;
    int bucket = 0;
    while (begin < n) {
      const DType dtype = a[begin].dtype;
      size_t end = begin, bytes = 0;
      while (end < n && a[end].dtype == dtype &&
             (end == begin || bytes + a[end].nbytes() <= bucket_bytes)) {
        bytes += a[end].nbytes();
        ++end;
      }
      const std::string name =
          end - begin == n ? what : keras::detail::cat(what, " (bucket ", bucket, ")");
      if (end - begin == 1) {  // one tensor: summed in its output, without packing
        check(a[n + begin].is_contiguous(), "all_reduce_sum: a non-contiguous input.");
        std::memcpy(a[begin].data(), a[n + begin].data(), bytes);
        detail::run_collective(
            [&] { collectives().all_reduce_sum(a[begin].data(), bytes / itemsize(dtype), dtype, name); });
        begin = end;
        ++bucket;
        continue;
      }
      std::vector<char> packed(bytes);
      size_t offset = 0;
      for (size_t i = begin; i < end; ++i) {
        check(a[n + i].is_contiguous(), "all_reduce_sum: a non-contiguous input.");
        std::memcpy(packed.data() + offset, a[n + i].data(), a[n + i].nbytes());
        offset += a[n + i].nbytes();
      }
      detail::run_collective(
          [&] { collectives().all_reduce_sum(packed.data(), bytes / itemsize(dtype), dtype, name); });
      offset = 0;
      for (size_t i = begin; i < end; ++i) {
        std::memcpy(a[i].data(), packed.data() + offset, a[i].nbytes());
        offset += a[i].nbytes();
      }
      begin = end;
      ++bucket;
    }
  });
  // The gradient of a sum over processes, for the sum of every process's loss, is the sum
  // over processes of the incoming gradients.
  for (size_t i = 0; i < n; ++i) {
    if (autograd::should_record(tensors[i])) {
      autograd::record("all_reduce_sum", {tensors[i]}, outputs[i],
                       [what](const autograd::Context&, const Tensor& grad) {
                         return std::vector<Tensor>{all_reduce_sum(grad, what + " (gradient)")};
                       });
    }
    tensors[i] = outputs[i];
  }
}

Tensor broadcast(const Tensor& t, int root, const std::string& what) {
  if (collectives().size() == 1) return t;
  std::vector<char> bytes = host_bytes(t);
  collectives().broadcast(bytes.data(), bytes.size(), root, what);
  return from_bytes(bytes, t, t.shape());
}

Tensor all_gather(const Tensor& t, int axis, const std::string& what) {
  const int n = collectives().size();
  if (n == 1) return t;
  std::vector<char> mine = host_bytes(t), all(mine.size() * static_cast<size_t>(n));
  collectives().all_gather(mine.data(), all.data(), mine.size(), what);
  std::vector<Tensor> parts;
  for (int r = 0; r < n; ++r) {
    std::vector<char> part(all.begin() + static_cast<std::ptrdiff_t>(r * mine.size()),
                           all.begin() + static_cast<std::ptrdiff_t>((r + 1) * mine.size()));
    parts.push_back(from_bytes(part, t, t.shape()));
  }
  return ops::concatenate(parts, axis);
}

void check_same_on_every_process(const std::string& fingerprint, const std::string& what) {
  const int n = collectives().size();
  if (n == 1) return;
  // Everyone's 64-bit hash, then the first rank that differs from process 0.
  uint64_t mine = std::hash<std::string>{}(fingerprint);
  std::vector<uint64_t> all(static_cast<size_t>(n));
  collectives().all_gather(&mine, all.data(), sizeof mine, "the check that " + what);
  std::string differ;
  for (int r = 1; r < n; ++r)
    if (all[static_cast<size_t>(r)] != all[0]) differ += (differ.empty() ? "" : ", ") + std::to_string(r);
  check(differ.empty(), "keras::distribution: ", what, " differs between process 0 and process(es) ",
        differ, " (this is process ", collectives().rank(), ", whose ", what, " is: ", fingerprint,
        "). Every process of a job must run the same program on the same shapes.");
}

}  // namespace keras::distribution
