#pragma once
// The trainer's side of data parallelism (keras::distribution::DataParallel, and the batch axis
// of ModelParallel) in a job of several processes: every process reads the same global batches
// and keeps its rows; the model's weights start equal (broadcast from process 0); each step sums
// every process's gradients, weighted by its share of the batch, before the same update
// everywhere; metrics are read from their variables summed over the processes; predict returns
// every process's rows. With no distribution, or one process, each function is the identity.

#include <functional>
#include <vector>

#include "keras/autograd/variable.h"
#include "keras/metrics/metric.h"
#include "keras/trainers/options.h"

namespace keras::distribution::detail {
class OverlappedAllReduce;
}

// Declared ahead with default visibility, as the public header does (why: sharded_variables.h).
#pragma GCC visibility push(default)
namespace keras {
class Model;
namespace random {
class SeedGenerator;
}
}  // namespace keras
#pragma GCC visibility pop

namespace keras::trainers {

/// True when a distribution is set and the job has several processes.
bool replicas_active();

/// This process's rows of a global batch (x, y and sample_weight).
StepData local_rows(const StepData& global);

/// At the start of fit: every process shuffles with process 0's seed (`shuffle` may be null).
void synchronize_shuffling(random::SeedGenerator* shuffle);

/// At the first batch of fit: builds `model` on `local_batch` if needed, checks that every
/// process holds the same variables and global batch size, and gives every process process 0's
/// weights.
void synchronize_replicas(Model& model, const StepData& local_batch, int64_t global_batch);

/// At the start of evaluate and predict: process 0's weights everywhere (when built).
void synchronize_weights(Model& model);

/// In a train step: the gradients of the global batch's loss, Σ_p n_p g_p / Σ_p n_p, from this
/// process's gradients `grads` of its `local_rows` rows; `also_summed` (may be null) are summed
/// over the processes in the same collective. Recorded by a compiled step.
/// With `overlap`, the gradients were handed to it during the backward pass (scaled by
/// `local_rows`: see gradient_hook), and it sums the rest.
void all_reduce_gradients(std::vector<Tensor>& grads, int64_t local_rows,
                          std::vector<Tensor>* also_summed = nullptr,
                          distribution::detail::OverlappedAllReduce* overlap = nullptr);

/// The backward-pass hook that hands each gradient, times `local_rows`, to `overlap` (an empty
/// hook without one).
std::function<void(size_t, const Tensor&)> gradient_hook(
    distribution::detail::OverlappedAllReduce* overlap, int64_t local_rows);

/// The metrics of the default steps kept global: constructed before a step updates its metrics
/// (it takes their variables' values), its deltas() are what this process's batch added, and
/// apply() the deltas summed over the processes, so that every process's metric variables hold
/// the state of the global batches (summed with the gradients: one collective per train step).
class GlobalMetricUpdate {
 public:
  explicit GlobalMetricUpdate(const std::vector<metrics::MetricPtr>& metrics);
  /// `metrics` after the update: the compile metrics are made at their first update, so a
  /// variable that was not there before counts from zero.
  std::vector<Tensor> deltas(const std::vector<metrics::MetricPtr>& metrics);
  void apply(const std::vector<Tensor>& summed_deltas);

 private:
  std::vector<Variable> variables_;
  std::vector<Tensor> before_;
};

/// After the update: the floating non-trainable variables (BatchNormalization's moving
/// statistics) replaced by their mean over the processes, so that the replicas stay equal.
void average_non_trainable(const std::vector<Variable>& variables);

/// `read()` run with every variable of `metrics` holding its sum over the processes (Keras's
/// metric states are sums: totals, counts, confusion counts), then the local values put back;
/// `read()` alone when the variables are `already_global` (GlobalMetricUpdate).
std::map<std::string, double> with_global_metrics(
    const std::vector<metrics::MetricPtr>& metrics, bool already_global,
    const std::function<std::map<std::string, double>()>& read);

/// predict's outputs for a global batch of `global_rows` rows: every batch shard's rows of each
/// output, in order (`local` holds this process's).
TensorList gather_rows(const TensorList& local, int64_t global_rows);

/// The replica number of this process for its random streams (replica_streams.h).
int replica_index();

}  // namespace keras::trainers
