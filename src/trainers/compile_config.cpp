// Model::get_compile_config / compile_from_config (keras/src/trainers/trainer.py): the compile
// arguments as Keras saves them in a .keras file's "compile_config", and back. Losses and
// metrics are kept as the user passed them: names stay strings, objects become records.

#include <cmath>

#include "keras/models/model.h"
#include "keras/optimizers/loss_scale_optimizer.h"
#include "trainers/compile_state.h"

namespace keras {
namespace {

Config loss_json(const losses::LossArg& loss) {
  if (!loss) return nullptr;
  if (!loss.name().empty()) return loss.name();
  return losses::serialize(loss.get());
}

Config metric_json(const metrics::MetricArg& metric) {
  if (!metric.name().empty()) return metric.name();
  return metrics::serialize(metric.metric());
}

Config metric_list_json(const std::vector<metrics::MetricArg>& list) {
  Config out = Config::array();
  for (const auto& m : list) out.push_back(metric_json(m));
  return out;
}

Config metrics_json(const MetricsSpec& spec) {
  if (spec.empty()) return nullptr;
  if (spec.flat()) return metric_list_json(*spec.flat());
  if (spec.per_output()) {
    Config out = Config::array();
    for (const auto& list : *spec.per_output()) out.push_back(metric_list_json(list));
    return out;
  }
  Config out = Config::object();
  for (const auto& [name, list] : *spec.by_name()) out[name] = metric_list_json(list);
  return out;
}

losses::LossArg loss_from_json(const Config& j) {
  if (j.is_null()) return {};
  if (j.is_string()) return losses::LossArg(j.get<std::string>());
  return losses::LossArg(losses::deserialize(j));
}

metrics::MetricArg metric_from_json(const Config& j) {
  if (j.is_string()) return metrics::MetricArg(j.get<std::string>());
  return metrics::MetricArg(metrics::deserialize(j));
}

std::vector<metrics::MetricArg> metric_list_from_json(const Config& j) {
  std::vector<metrics::MetricArg> out;
  if (!j.is_array()) {
    out.push_back(metric_from_json(j));
    return out;
  }
  for (const Config& m : j) out.push_back(metric_from_json(m));
  return out;
}

MetricsSpec metrics_from_json(const Config& j) {
  if (j.is_null()) return {};
  if (j.is_object() && !j.contains("class_name")) {
    std::map<std::string, std::vector<metrics::MetricArg>> by_name;
    for (const auto& [name, list] : j.items()) by_name[name] = metric_list_from_json(list);
    return MetricsSpec(std::move(by_name));
  }
  if (j.is_array() && !j.empty() && j[0].is_array()) {
    std::vector<std::vector<metrics::MetricArg>> per_output;
    for (const Config& list : j) per_output.push_back(metric_list_from_json(list));
    return MetricsSpec(std::move(per_output));
  }
  return MetricsSpec(metric_list_from_json(j));
}

LossSpec loss_spec_from_json(const Config& j) {
  if (j.is_null()) return {};
  if (j.is_array()) {
    std::vector<losses::LossArg> list;
    for (const Config& l : j) list.push_back(loss_from_json(l));
    return LossSpec(std::move(list));
  }
  if (j.is_object() && !j.contains("class_name")) {
    std::map<std::string, losses::LossArg> by_name;
    for (const auto& [name, l] : j.items()) by_name[name] = loss_from_json(l);
    return LossSpec(std::move(by_name));
  }
  return LossSpec(loss_from_json(j));
}

Config loss_weights_json(const LossWeights& weights) {
  if (auto* one = std::get_if<double>(&weights)) return *one;
  if (auto* list = std::get_if<std::vector<double>>(&weights)) return *list;
  if (auto* map = std::get_if<std::map<std::string, double>>(&weights)) return *map;
  return nullptr;
}

LossWeights loss_weights_from_json(const Config& j) {
  if (j.is_number()) return j.get<double>();
  if (j.is_array()) return j.get<std::vector<double>>();
  if (j.is_object()) return j.get<std::map<std::string, double>>();
  return {};
}

}  // namespace

Config Model::get_compile_config() const {
  if (!compiled()) return Config::object();
  const CompileOptions& o = compile_options();
  Config c;
  // Keras records the optimizer compile() was given, not the LossScaleOptimizer it wrapped it
  // in under mixed_float16 (compiling again wraps it again).
  const auto* wrapper = dynamic_cast<const optimizers::LossScaleOptimizer*>(optimizer().get());
  c["optimizer"] = optimizers::serialize(state().optimizer_auto_wrapped && wrapper
                                             ? wrapper->inner_optimizer()
                                             : optimizer());
  c["loss"] = nullptr;
  if (o.loss.single()) c["loss"] = loss_json(*o.loss.single());
  if (o.loss.list()) {
    c["loss"] = Config::array();
    for (const auto& l : *o.loss.list()) c["loss"].push_back(loss_json(l));
  }
  if (o.loss.map()) {
    c["loss"] = Config::object();
    for (const auto& [name, l] : *o.loss.map()) c["loss"][name] = loss_json(l);
  }
  c["loss_weights"] = loss_weights_json(o.loss_weights);
  c["metrics"] = metrics_json(o.metrics);
  c["weighted_metrics"] = metrics_json(o.weighted_metrics);
  c["run_eagerly"] = o.run_eagerly;
  c["steps_per_execution"] = o.steps_per_execution;
  // Keras records the resolved value; keras-cpp has no compiled mode, so it is false.
  c["jit_compile"] = o.jit_compile == "true";
  return c;
}

void Model::compile_from_config(const Config& config) {
  check(config.is_object(), "compile_from_config: expected an object; got ",
        config.dump().substr(0, 200), ".");
  auto get = [&](const char* key) { return config.contains(key) ? config[key] : Config(); };
  CompileOptions o;
  Config saved_optimizer = get("optimizer");
  if (saved_optimizer.is_string()) o.optimizer = saved_optimizer.get<std::string>();
  else if (saved_optimizer.is_object()) o.optimizer = optimizers::deserialize(saved_optimizer);
  o.loss = loss_spec_from_json(get("loss"));
  o.loss_weights = loss_weights_from_json(get("loss_weights"));
  o.metrics = metrics_from_json(get("metrics"));
  o.weighted_metrics = metrics_from_json(get("weighted_metrics"));
  if (get("steps_per_execution").is_number_integer())
    o.steps_per_execution = config["steps_per_execution"].get<int>();
  Config jit = get("jit_compile");
  if (jit.is_boolean()) o.jit_compile = jit.get<bool>() ? "true" : "false";
  if (jit.is_string()) o.jit_compile = jit.get<std::string>();
  if (get("run_eagerly").is_boolean()) o.run_eagerly = config["run_eagerly"].get<bool>();
  compile(o);
  // Keras builds the optimizer now, so that its saved variables can be loaded into it.
  if (built() && !optimizer()->built()) optimizer()->build(trainable_weights());
}

}  // namespace keras
