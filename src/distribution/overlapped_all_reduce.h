#pragma once
// The gradient all-reduce of a data-parallel step, overlapped with the backward pass: gradients
// join a bucket as the pass completes them (autograd/gradient_ready.h); a full bucket starts its
// all-reduce on the communication thread at once while the pass goes on; finish() starts the
// rest and waits. Each start and each wait is a host kernel, so a compiled step records them
// where they happened and every replay overlaps the same way. All processes fill the buckets in
// the same order (the pass is deterministic), so their collectives match.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "keras/tensor/tensor.h"

namespace keras::distribution::detail {

/// Whether steps overlap their all-reduce with the backward pass (KERAS_DISTRIBUTION_OVERLAP=0
/// turns it off: one all-reduce after the pass, on the step's own thread).
bool overlap_enabled();

class OverlappedAllReduce {
 public:
  /// `sources` gradients are expected; buckets close at `bucket_bytes`
  /// (KERAS_DISTRIBUTION_BUCKET_BYTES overrides the default of 1 MiB).
  OverlappedAllReduce(size_t sources, std::string what, size_t bucket_bytes = 0);

  /// Gradient `index` is complete: it joins the open bucket, which starts when full.
  void add(size_t index, const Tensor& value);

  /// Starts what is left, with `extra` (summed too, replaced by their sums), waits for every
  /// bucket and returns the sums by source index (undefined for sources never added).
  std::vector<Tensor> finish(std::vector<Tensor>& extra);

 private:
  struct Pending;
  struct Bucket {
    std::vector<size_t> slots;  // indices into values_
    size_t bytes = 0;
    std::shared_ptr<Pending> pending;
    Tensor token;  // the start kernel's output, the wait kernel's input
  };
  void start(Bucket& bucket);
  void wait(Bucket& bucket);

  std::string what_;
  size_t bucket_bytes_;
  size_t sources_;
  std::vector<Tensor> values_;    // everything added, in order
  std::vector<size_t> source_of_; // per value: its source index, or npos for an extra
  std::vector<Bucket> buckets_;
  Bucket open_;
  std::vector<Tensor> sums_;      // per value, after wait
};

}  // namespace keras::distribution::detail
