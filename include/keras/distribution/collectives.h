#pragma once
// The collectives of a distributed job: one interface, an implementation per collective library
// (Gloo over TCP for the cpu backend; NCCL is the slot for a GPU backend). Every call is made by
// every process of the job in the same order (as MPI and Gloo require); `what` names the call in
// the error a failed or timed-out collective raises on every process.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "keras/core/dtype.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::distribution {

/// The collective operations of a distributed job, one implementation per library; every process
/// must make the same calls in the same order.
class Collectives {
 public:
  virtual ~Collectives() = default;
  /// The library under it ("gloo", or "local" for a job of one process).
  virtual std::string name() const = 0;
  /// This process's index in the job, 0 .. size() - 1.
  virtual int rank() const = 0;
  /// The number of processes in the job.
  virtual int size() const = 0;
  /// Sums `count` elements of `dtype` (float32 or float64, int64) over every process, in place.
  virtual void all_reduce_sum(void* data, size_t count, DType dtype, const std::string& what) = 0;
  /// Copies `bytes` bytes from process `root` into `data` on every other process.
  virtual void broadcast(void* data, size_t bytes, int root, const std::string& what) = 0;
  /// Gathers `bytes` bytes from every process into `out` (size() * bytes, rank order).
  virtual void all_gather(const void* in, void* out, size_t bytes, const std::string& what) = 0;
  /// Returns once every process has reached this barrier.
  virtual void barrier(const std::string& what) = 0;
};

/// The job's collectives: Gloo's after initialize() joined a job of several processes, else a
/// local set where every collective is the identity.
Collectives& collectives();

// ---- tensor-level forms (host copies; the cpu backend's tensors already live on the host) ----

/// The element-wise sum of `t` over every process.
Tensor all_reduce_sum(const Tensor& t, const std::string& what);
/// Sums every tensor of `tensors` over every process, packed into buckets of about
/// `bucket_bytes` per message (one collective per bucket instead of one per tensor), in place.
void all_reduce_sum(std::vector<Tensor>& tensors, const std::string& what,
                    size_t bucket_bytes = size_t{4} << 20);
/// Process `root`'s value of `t` on every process (same shape and dtype required everywhere).
Tensor broadcast(const Tensor& t, int root, const std::string& what);
/// Every process's `t` concatenated along `axis` in rank order (the same shape everywhere).
Tensor all_gather(const Tensor& t, int axis, const std::string& what);

/// Fails on every process with an error naming the ranks that differ when `fingerprint` (a
/// description of what the processes must agree on: a model's variables, a batch size) is not
/// the same on all of them.
void check_same_on_every_process(const std::string& fingerprint, const std::string& what);

}  // namespace keras::distribution

#pragma GCC visibility pop
