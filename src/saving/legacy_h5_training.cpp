// Keras 2 training_config -> Keras 3 compile_config (KERAS_REFERENCE 1.6). The facts follow
// keras/src/legacy/saving/saving_utils.py compile_args_from_training_config: the optimizer
// under optimizer_config ("Custom>Adam" in Keras 2.11+, "Adam" before), losses and metrics as
// the user passed them, nested per output, metrics wrapped as MeanMetricWrapper(fn).

#include <string>

#include "keras/core/errors.h"
#include "keras/saving/legacy_h5.h"

namespace keras::saving::legacy {
namespace {

bool is_training_record(const Config& value) {
  return value.is_object() && value.contains("class_name") && value["class_name"].is_string();
}

Config with_module(const Config& record, const std::string& module) {
  Config out = record;
  if (!out.contains("module")) out["module"] = module;
  if (!out.contains("registered_name")) out["registered_name"] = nullptr;
  if (!out.contains("config") || out["config"].is_null()) out["config"] = Config::object();
  return out;
}

// Keys of Keras 2 optimizers that Keras 3 does not have (Keras 3 ignores decay with a warning).
bool keras2_only_key(const std::string& key) {
  return key == "decay" || key == "jit_compile" || key == "is_legacy_optimizer";
}

Config translate_optimizer(const Config& optimizer) {
  if (optimizer.is_string()) return optimizer;  // a name such as "adam"
  if (!is_training_record(optimizer))
    throw ValueError(
        "Legacy training config: optimizer_config must be {\"class_name\": ..., "
        "\"config\": ...}; got " +
        optimizer.dump().substr(0, 200) + ".");
  std::string class_name = optimizer["class_name"];
  // Keras 2.11+ registered its new optimizers as "Custom>Adam"; legacy ones are "Adam".
  if (class_name.rfind("Custom>", 0) == 0) class_name = class_name.substr(7);
  Config config = Config::object();
  const Config& legacy = optimizer.value("config", Config::object());
  for (const auto& [key, value] : legacy.items()) {
    if (keras2_only_key(key)) continue;
    std::string name = key == "lr" ? "learning_rate" : key;
    if (name == "learning_rate" && is_training_record(value))
      config[name] = with_module(value, "keras.optimizers.schedules");
    else
      config[name] = value;
  }
  // The Keras 3 base optimizer keys Keras 2 did not write.
  for (const char* key :
       {"weight_decay", "clipnorm", "global_clipnorm", "clipvalue", "ema_overwrite_frequency",
        "loss_scale_factor", "gradient_accumulation_steps"})
    if (!config.contains(key)) config[key] = nullptr;
  if (!config.contains("use_ema")) config["use_ema"] = false;
  if (!config.contains("ema_momentum")) config["ema_momentum"] = 0.99;
  return {{"module", "keras.optimizers"},
          {"class_name", class_name},
          {"config", config},
          {"registered_name", nullptr}};
}

// A loss or metric leaf: strings stay, MeanMetricWrapper(fn) becomes fn's name, other records
// get their Keras 3 module. Lists and dicts (per output) are mapped through.
Config translate_leaf(const Config& value, const std::string& module, int depth) {
  if (depth > 32) throw ValueError("Legacy training config: losses/metrics nested too deep.");
  if (value.is_null() || value.is_string()) return value;
  if (is_training_record(value)) {
    const std::string class_name = value["class_name"];
    const Config& config = value.value("config", Config::object());
    if (class_name == "MeanMetricWrapper" || class_name == "LossFunctionWrapper") {
      if (config.is_object() && config.contains("fn") && config["fn"].is_string())
        return config["fn"];
      throw ValueError("Legacy training config: a " + class_name +
                       " without a function name (\"fn\") cannot be restored.");
    }
    if (class_name == "function" && config.is_string()) return config;
    Config out = with_module(value, module);
    // Keras 2 losses carry reduction "auto", which Keras 3 calls "sum_over_batch_size".
    if (out["config"].is_object() && out["config"].value("reduction", Config()) == "auto")
      out["config"]["reduction"] = "sum_over_batch_size";
    return out;
  }
  if (value.is_array() || value.is_object()) {
    Config out = value.is_array() ? Config::array() : Config::object();
    for (const auto& [key, item] : value.items()) {
      Config translated = translate_leaf(item, module, depth + 1);
      if (value.is_array())
        out.push_back(translated);
      else
        out[key] = translated;
    }
    return out;
  }
  return value;
}

// Keras 2 wrote the metrics of a single-output model as [[m1, m2]]; Keras 3 writes [m1, m2].
Config translate_metrics(const Config& metrics) {
  Config out = translate_leaf(metrics, "keras.metrics", 0);
  if (out.is_array() && out.size() == 1 && out[0].is_array()) return out[0];
  return out;
}

}  // namespace

Config translate_training_config(const Config& training_config) {
  if (!training_config.is_object())
    throw ValueError("Legacy training config: expected a JSON object; got " +
                     training_config.dump().substr(0, 200) + ".");
  if (!training_config.contains("optimizer_config"))
    throw ValueError(
        "Legacy training config: it has no optimizer_config; the model cannot be "
        "compiled from it (load with compile=false and compile it in C++).");
  try {
    return {{"optimizer", translate_optimizer(training_config["optimizer_config"])},
            {"loss", translate_leaf(training_config.value("loss", Config()), "keras.losses", 0)},
            {"loss_weights", training_config.value("loss_weights", Config())},
            {"metrics", translate_metrics(training_config.value("metrics", Config()))},
            {"weighted_metrics",
             translate_metrics(training_config.value("weighted_metrics", Config()))},
            {"run_eagerly", false},
            {"steps_per_execution", 1},
            {"jit_compile", false}};
  } catch (const nlohmann::json::exception& e) {
    throw ValueError(std::string("Legacy training config: malformed (") + e.what() + ").");
  }
}

}  // namespace keras::saving::legacy
