#include "trainers/data_parallel.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "distribution/overlapped_all_reduce.h"
#include "keras/autograd/gradient_tape.h"
#include "keras/core/errors.h"
#include "keras/distribution/collectives.h"
#include "keras/distribution/distributions.h"
#include "keras/distribution/runtime.h"
#include "keras/models/model.h"
#include "keras/ops/ops.h"
#include "keras/random/random.h"

namespace keras::trainers {

namespace dist = keras::distribution;

bool replicas_active() { return dist::num_processes() > 1 && dist::distribution() != nullptr; }

int replica_index() { return replicas_active() ? dist::process_id() : 0; }

StepData local_rows(const StepData& global) {
  if (!replicas_active() || !global.x.defined()) return global;
  const int64_t rows = global.x.num_samples("x");
  auto [begin, end] = dist::local_batch_rows(rows);
  if (begin == 0 && end == rows) return global;
  check(end > begin, "keras::distribution: a batch of ", rows, " rows leaves process ",
        dist::process_id(), " no rows in a job of ", dist::num_processes(),
        " processes; give every batch (the last one too) at least one row per process: choose "
        "the number of samples or batch_size accordingly, or drop the remainder.");
  StepData out;
  out.x = global.x.slice(begin, end);
  if (global.y.defined()) out.y = global.y.slice(begin, end);
  if (global.sample_weight.defined()) out.sample_weight = global.sample_weight.slice(begin, end);
  return out;
}

void synchronize_shuffling(random::SeedGenerator* shuffle) {
  if (!replicas_active() || !shuffle) return;
  Tensor seed =
      Tensor::from_vector<int64_t>({static_cast<int64_t>(shuffle->initial_seed())}, Shape{1});
  seed = dist::broadcast(seed, 0, "the broadcast of the shuffling seed");
  *shuffle = random::SeedGenerator(static_cast<uint64_t>(seed.to_vector<int64_t>()[0]));
}

namespace {

void broadcast_weights(Model& model, const std::string& agreement) {
  // What the processes must agree on before exchanging anything by position.
  std::ostringstream fingerprint;
  fingerprint << agreement << "; variables";
  std::vector<Variable> weights = model.weights();
  for (const Variable& v : weights)
    fingerprint << " " << v.path() << ":" << dtype_name(v.dtype()) << v.shape();
  dist::check_same_on_every_process(fingerprint.str(), "the model's variables or batch size");
  for (Variable& v : weights)
    v.assign(dist::broadcast(v.value(), 0, "the broadcast of " + v.path() + " from process 0"));
}

}  // namespace

void synchronize_replicas(Model& model, const StepData& local_batch, int64_t global_batch) {
  if (!replicas_active()) return;
  if (!model.built() && local_batch.x.defined()) {
    NoGradScope no_grad;
    model.call_struct(local_batch.x, false);  // builds the weights (replaced below)
  }
  broadcast_weights(model, keras::detail::cat("global batch ", global_batch));
}

void synchronize_weights(Model& model) {
  if (!replicas_active() || !model.built()) return;
  broadcast_weights(model, "evaluate/predict");
}

std::function<void(size_t, const Tensor&)> gradient_hook(
    distribution::detail::OverlappedAllReduce* overlap, int64_t local_rows) {
  if (!overlap) return {};
  return [overlap, local_rows](size_t index, const Tensor& g) {
    overlap->add(index, ops::multiply(g, ops::full({}, static_cast<double>(local_rows), g.dtype())));
  };
}

void all_reduce_gradients(std::vector<Tensor>& grads, int64_t local_rows,
                          std::vector<Tensor>* also_summed,
                          distribution::detail::OverlappedAllReduce* overlap) {
  if (!replicas_active()) return;
  if (overlap) {
    DType count_dtype = DType::Float32;
    for (const Tensor& g : grads)
      if (g.defined()) count_dtype = g.dtype();
    std::vector<Tensor> extra{ops::full({}, static_cast<double>(local_rows), count_dtype)};
    if (also_summed) extra.insert(extra.end(), also_summed->begin(), also_summed->end());
    std::vector<Tensor> sums = overlap->finish(extra);
    if (also_summed) std::copy(extra.begin() + 1, extra.end(), also_summed->begin());
    for (size_t i = 0; i < grads.size() && i < sums.size(); ++i)
      if (sums[i].defined()) grads[i] = ops::divide(sums[i], ops::cast(extra[0], sums[i].dtype()));
    return;
  }
  // Σ_p n_p g_p / Σ_p n_p: the mean-reduced loss's gradient over the global batch, also when
  // the last batch splits unevenly. n_p enters as a value computed in the step (not a
  // constant a compiled step would keep for a batch of another global size).
  std::vector<Tensor> scaled;
  std::vector<size_t> where;
  for (size_t i = 0; i < grads.size(); ++i) {
    if (!grads[i].defined()) continue;
    scaled.push_back(ops::multiply(grads[i], ops::full({}, static_cast<double>(local_rows),
                                                       grads[i].dtype())));
    where.push_back(i);
  }
  // The row count and the other sums travel in the gradients' buckets (the row count in their
  // dtype: exact up to 2^24 rows in float32), so a step makes one collective: each costs a
  // round trip.
  const size_t count_at = scaled.size();
  scaled.push_back(ops::full({}, static_cast<double>(local_rows),
                             scaled.empty() ? DType::Float32 : scaled.front().dtype()));
  if (also_summed) scaled.insert(scaled.end(), also_summed->begin(), also_summed->end());
  dist::all_reduce_sum(scaled, "the all-reduce of the gradients");
  if (also_summed)
    std::copy(scaled.begin() + static_cast<std::ptrdiff_t>(count_at + 1), scaled.end(),
              also_summed->begin());
  Tensor total_rows = scaled[count_at];
  for (size_t k = 0; k < where.size(); ++k) {
    Tensor g = scaled[k];
    grads[where[k]] = ops::divide(g, ops::cast(total_rows, g.dtype()));
  }
}

void average_non_trainable(const std::vector<Variable>& variables) {
  if (!replicas_active()) return;
  std::vector<Tensor> values;
  std::vector<Variable> targets;
  for (const Variable& v : variables) {
    if (!is_floating(v.dtype())) continue;
    values.push_back(v.value());
    targets.push_back(v);
  }
  if (values.empty()) return;
  dist::all_reduce_sum(values, "the mean of the non-trainable variables");
  const double n = dist::num_processes();
  for (size_t i = 0; i < targets.size(); ++i)
    targets[i].assign(ops::divide(values[i], ops::full({}, n, values[i].dtype())));
}

GlobalMetricUpdate::GlobalMetricUpdate(const std::vector<metrics::MetricPtr>& metrics) {
  if (!replicas_active()) return;
  for (const auto& m : metrics)
    for (const Variable& v : m->variables()) {
      variables_.push_back(v);
      before_.push_back(v.value());  // held: the update copies instead of writing in place
    }
}

std::vector<Tensor> GlobalMetricUpdate::deltas(const std::vector<metrics::MetricPtr>& metrics) {
  if (!replicas_active()) return {};
  std::vector<Variable> now;
  std::vector<Tensor> before;
  for (const auto& m : metrics)
    for (const Variable& v : m->variables()) {
      now.push_back(v);
      Tensor was;
      for (size_t i = 0; i < variables_.size() && !was.defined(); ++i)
        if (variables_[i].is_same(v)) was = before_[i];
      before.push_back(was.defined() ? was : ops::zeros_like(v.value()));
    }
  variables_ = std::move(now);
  before_ = std::move(before);
  std::vector<Tensor> out;
  for (size_t i = 0; i < variables_.size(); ++i)
    out.push_back(ops::subtract(variables_[i].value(), before_[i]));
  return out;
}

void GlobalMetricUpdate::apply(const std::vector<Tensor>& summed_deltas) {
  for (size_t i = 0; i < variables_.size(); ++i)
    variables_[i].assign(ops::add(before_[i], summed_deltas[i]));
}

std::map<std::string, double> with_global_metrics(
    const std::vector<metrics::MetricPtr>& metrics, bool already_global,
    const std::function<std::map<std::string, double>()>& read) {
  if (!replicas_active() || already_global) return read();
  std::vector<Variable> variables;
  for (const auto& m : metrics)
    for (const Variable& v : m->variables()) variables.push_back(v);
  std::vector<Tensor> local, summed;
  for (const Variable& v : variables) {
    local.push_back(v.value());
    summed.push_back(v.value());
  }
  dist::all_reduce_sum(summed, "the sum of the metrics over the processes");
  for (size_t i = 0; i < variables.size(); ++i) variables[i].assign(summed[i]);
  std::map<std::string, double> logs;
  try {
    logs = read();
  } catch (...) {
    for (size_t i = 0; i < variables.size(); ++i) variables[i].assign(local[i]);
    throw;
  }
  for (size_t i = 0; i < variables.size(); ++i) variables[i].assign(local[i]);
  return logs;
}

namespace {

// Rows [first, first + count) of `t`.
Tensor rows_of(const Tensor& t, int64_t first, int64_t count) {
  std::vector<int64_t> start(static_cast<size_t>(t.ndim()), 0);
  start[0] = first;
  std::vector<int64_t> shape = t.shape().to_vector();
  shape[0] = count;
  return ops::slice(t, start, Shape(shape));
}

}  // namespace

TensorList gather_rows(const TensorList& local, int64_t global_rows) {
  if (!replicas_active()) return local;
  const int n = dist::num_processes();
  // Which rows each process holds: processes of one batch shard (ModelParallel's model axis)
  // hold the same ones, taken once; processes may hold different numbers of rows.
  auto [begin, end] = dist::local_batch_rows(global_rows);
  std::vector<int64_t> ranges =
      dist::all_gather(Tensor::from_vector<int64_t>({begin, end - begin}, Shape{2}), 0,
                       "the gather of predict's row ranges")
          .to_vector<int64_t>();
  int64_t most = 0;
  for (int r = 0; r < n; ++r) most = std::max(most, ranges[static_cast<size_t>(2 * r + 1)]);
  std::vector<int> order;  // one process per distinct first row, by first row
  for (int r = 0; r < n; ++r) {
    bool seen = false;
    for (int q : order) seen = seen || ranges[static_cast<size_t>(2 * q)] == ranges[static_cast<size_t>(2 * r)];
    if (!seen && ranges[static_cast<size_t>(2 * r + 1)] > 0) order.push_back(r);
  }
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return ranges[static_cast<size_t>(2 * a)] < ranges[static_cast<size_t>(2 * b)];
  });
  TensorList out;
  for (const Tensor& t : local) {
    // Padded to the largest part, gathered, and each process's own rows kept.
    Tensor padded = t;
    if (t.shape()[0] < most) {
      std::vector<int64_t> pad_shape = t.shape().to_vector();
      pad_shape[0] = most - t.shape()[0];
      padded = ops::concatenate({t, ops::zeros(Shape(pad_shape), t.dtype())}, 0);
    }
    Tensor all = dist::all_gather(padded, 0, "the gather of predict's outputs");
    TensorList parts;
    for (int r : order) parts.push_back(rows_of(all, r * most, ranges[static_cast<size_t>(2 * r + 1)]));
    out.push_back(parts.size() == 1 ? parts[0] : ops::concatenate(parts, 0));
  }
  return out;
}

}  // namespace keras::trainers
