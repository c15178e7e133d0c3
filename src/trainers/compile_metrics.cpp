// compile(metrics=..., weighted_metrics=...) as keras/src/trainers/compile_utils.py.

#include "trainers/compile_metrics.h"

#include <algorithm>
#include <set>

#include "keras/core/errors.h"
#include "trainers/compile_loss.h"

namespace keras::trainers {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// Keras's get_metric: "accuracy"/"acc" pick binary, sparse or categorical accuracy from the
// shapes; a name always names the metric.
metrics::MetricPtr resolve(const metrics::MetricArg& arg, const Tensor& y_true,
                           const Tensor& y_pred) {
  if (arg.metric()) return arg.metric();
  const std::string& id = arg.name();
  metrics::MetricPtr m;
  if (lower(id) == "accuracy" || lower(id) == "acc") {
    LabelKind kind = label_kind(y_true, y_pred);
    if (kind.binary)
      m = std::make_shared<metrics::BinaryAccuracy>(metrics::BinaryAccuracyOptions{.name = id});
    else if (kind.sparse_categorical)
      m = std::make_shared<metrics::SparseCategoricalAccuracy>(
          metrics::SparseCategoricalAccuracyOptions{.name = id});
    else
      m = std::make_shared<metrics::CategoricalAccuracy>(
          metrics::CategoricalAccuracyOptions{.name = id});
  } else {
    m = metrics::get(id);
    m->set_name(id);
  }
  return m;
}

}  // namespace

CompileMetrics::CompileMetrics(MetricsSpec metrics, MetricsSpec weighted_metrics)
    : spec_(std::move(metrics)), weighted_spec_(std::move(weighted_metrics)) {}

void CompileMetrics::build_set(const MetricsSpec& spec, bool weighted, const TensorList& targets,
                               const TensorList& y_pred,
                               const std::vector<std::string>& output_names) {
  if (spec.empty()) return;
  size_t n = y_pred.size();
  auto name_of = [&](size_t i) {
    return i < output_names.size() ? output_names[i] : "output_" + std::to_string(i);
  };
  auto add = [&](size_t i, const std::vector<metrics::MetricArg>& args) {
    check(i >= targets.size() || targets[i].defined(), "y has no target for output '",
          name_of(i), "', which has metrics.");
    Group g{n > 1 ? name_of(i) : "", i, weighted, {}};
    for (const auto& a : args) g.metrics.push_back(resolve(a, targets[i], y_pred[i]));
    groups_.push_back(std::move(g));
  };
  const char* arg = weighted ? "weighted_metrics" : "metrics";
  if (spec.flat()) {
    // Keras: with one output, every metric applies to it.
    check(n == 1, "compile: `", arg, "` is a flat list but the model has ", n,
          " outputs; give a list of lists (one per output) or lists by output name.");
    add(0, *spec.flat());
  } else if (spec.per_output()) {
    check(spec.per_output()->size() == n, "compile: `", arg, "` has ",
          spec.per_output()->size(), " lists but the model has ", n, " outputs.");
    for (size_t i = 0; i < n; ++i)
      if (!(*spec.per_output())[i].empty()) add(i, (*spec.per_output())[i]);
  } else {
    std::set<std::string> seen;
    for (size_t i = 0; i < n; ++i) {
      auto it = spec.by_name()->find(name_of(i));
      if (it == spec.by_name()->end()) continue;
      seen.insert(it->first);
      add(i, it->second);
    }
    for (const auto& [name, list] : *spec.by_name())
      check(seen.count(name), "compile: `", arg, "` names output '", name,
            "', which the model does not have.");
  }
}

void CompileMetrics::build(const TensorStruct& y_true, const TensorList& y_pred,
                           const std::vector<std::string>& output_names) {
  TensorList targets = align_targets(y_true, y_pred.size(), output_names, "y");
  build_set(spec_, false, targets, y_pred, output_names);
  build_set(weighted_spec_, true, targets, y_pred, output_names);
  built_ = true;
}

void CompileMetrics::update_state(const TensorStruct& y_true, const TensorList& y_pred,
                                  const std::vector<std::string>& output_names,
                                  const TensorStruct& sample_weight) {
  if (spec_.empty() && weighted_spec_.empty()) return;
  if (!built_) build(y_true, y_pred, output_names);
  TensorList targets = align_targets(y_true, y_pred.size(), output_names, "y");
  TensorList weights;
  if (sample_weight.defined())
    weights = sample_weight.size() == 1 && y_pred.size() > 1
                  ? TensorList(y_pred.size(), sample_weight.flat()[0])
                  : align_targets(sample_weight, y_pred.size(), output_names, "sample_weight");
  for (Group& g : groups_) {
    Tensor w = g.weighted && !weights.empty() ? weights[g.output] : Tensor();
    for (auto& m : g.metrics) m->update_state(targets[g.output], y_pred[g.output], w);
  }
}

void CompileMetrics::reset_state() {
  for (Group& g : groups_)
    for (auto& m : g.metrics) m->reset_state();
}

std::vector<metrics::MetricPtr> CompileMetrics::metrics() const {
  std::vector<metrics::MetricPtr> out;
  for (const Group& g : groups_) out.insert(out.end(), g.metrics.begin(), g.metrics.end());
  return out;
}

void CompileMetrics::add_results(Logs& logs) const {
  // Keras's CompileMetrics.result naming: output prefix, numbered duplicates, and
  // "weighted_" for a weighted metric whose name an unweighted one took.
  std::map<std::string, int> counters;
  for (bool weighted : {false, true}) {
    for (const Group& g : groups_) {
      if (g.weighted != weighted) continue;
      for (const auto& m : g.metrics) {
        std::string prefix = g.output_name.empty() ? "" : g.output_name + "_";
        std::string name = prefix + m->name();
        if (!counters.count(name)) {
          counters[name] = 1;
        } else if (!weighted) {
          name += "_" + std::to_string(counters[name]++);
        } else {
          name = prefix + "weighted_" + m->name();
          if (!counters.count(name))
            counters[name] = 1;
          else
            name += "_" + std::to_string(counters[name]++);
        }
        logs[name] = m->result().item<double>();
      }
    }
  }
}

}  // namespace keras::trainers
