// Metric names (Keras's ALL_OBJECTS_DICT: class names, their snake case, and aliases).

#include <map>
#include <mutex>

#include "keras/core/errors.h"
#include "keras/layers/layer.h"
#include "keras/metrics/metrics.h"
#include "metrics/config_read.h"
#include "metrics/mean_metric_wrapper_config.h"

namespace keras::metrics {
namespace {

using Factory = std::function<MetricPtr(const Config&)>;

std::map<std::string, Factory> make_builtin_table() {
  std::map<std::string, Factory> classes = {
      {"Accuracy", Accuracy::from_config},
      {"BinaryAccuracy", BinaryAccuracy::from_config},
      {"BinaryCrossentropy", BinaryCrossentropy::from_config},
      {"CategoricalAccuracy", CategoricalAccuracy::from_config},
      {"CategoricalCrossentropy", CategoricalCrossentropy::from_config},
      {"CategoricalHinge", CategoricalHinge::from_config},
      {"CosineSimilarity", CosineSimilarity::from_config},
      {"Hinge", Hinge::from_config},
      {"KLDivergence", KLDivergence::from_config},
      {"LogCoshError", LogCoshError::from_config},
      {"MeanMetricWrapper", detail::mean_metric_wrapper_from_config},
      {"Mean",
       [](const Config& c) {
         auto m = std::make_shared<Mean>(detail::read<std::string>(c, "name", "mean"),
                                         detail::read_dtype(c));
         return MetricPtr(m);
       }},
      {"MeanAbsoluteError", MeanAbsoluteError::from_config},
      {"MeanAbsolutePercentageError", MeanAbsolutePercentageError::from_config},
      {"MeanSquaredError", MeanSquaredError::from_config},
      {"MeanSquaredLogarithmicError", MeanSquaredLogarithmicError::from_config},
      {"Poisson", Poisson::from_config},
      {"RootMeanSquaredError", RootMeanSquaredError::from_config},
      {"SparseCategoricalAccuracy", SparseCategoricalAccuracy::from_config},
      {"SparseCategoricalCrossentropy", SparseCategoricalCrossentropy::from_config},
      {"SparseTopKCategoricalAccuracy", SparseTopKCategoricalAccuracy::from_config},
      {"SquaredHinge", SquaredHinge::from_config},
      {"Sum",
       [](const Config& c) {
         return MetricPtr(std::make_shared<Sum>(detail::read<std::string>(c, "name", "sum"),
                                                detail::read_dtype(c)));
       }},
      {"TopKCategoricalAccuracy", TopKCategoricalAccuracy::from_config},
      // confusion_metrics.h
      {"AUC", AUC::from_config},
      {"FalseNegatives", FalseNegatives::from_config},
      {"FalsePositives", FalsePositives::from_config},
      {"Precision", Precision::from_config},
      {"PrecisionAtRecall", PrecisionAtRecall::from_config},
      {"Recall", Recall::from_config},
      {"RecallAtPrecision", RecallAtPrecision::from_config},
      {"SensitivityAtSpecificity", SensitivityAtSpecificity::from_config},
      {"SpecificityAtSensitivity", SpecificityAtSensitivity::from_config},
      {"TrueNegatives", TrueNegatives::from_config},
      {"TruePositives", TruePositives::from_config},
      // iou_metrics.h
      {"BinaryIoU", BinaryIoU::from_config},
      {"IoU", IoU::from_config},
      {"MeanIoU", MeanIoU::from_config},
      {"OneHotIoU", OneHotIoU::from_config},
      {"OneHotMeanIoU", OneHotMeanIoU::from_config},
      // f_score_metrics.h, regression_metrics.h, correlation_metrics.h
      {"ConcordanceCorrelation", ConcordanceCorrelation::from_config},
      {"F1Score", F1Score::from_config},
      {"FBetaScore", FBetaScore::from_config},
      {"PearsonCorrelation", PearsonCorrelation::from_config},
      {"R2Score", R2Score::from_config},
  };
  std::map<std::string, Factory> table = classes;
  for (const auto& [name, factory] : classes) table.emplace(to_snake_case(name), factory);
  for (auto [alias, cls] : std::initializer_list<std::pair<const char*, const char*>>{
           {"bce", "BinaryCrossentropy"},
           {"BCE", "BinaryCrossentropy"},
           {"mse", "MeanSquaredError"},
           {"MSE", "MeanSquaredError"},
           {"mae", "MeanAbsoluteError"},
           {"MAE", "MeanAbsoluteError"},
           {"mape", "MeanAbsolutePercentageError"},
           {"MAPE", "MeanAbsolutePercentageError"},
           {"msle", "MeanSquaredLogarithmicError"},
           {"MSLE", "MeanSquaredLogarithmicError"}})
    table.emplace(alias, classes.at(cls));
  return table;
}

std::mutex& table_mutex() {
  static std::mutex m;
  return m;
}

std::map<std::string, Factory>& table() {
  static std::map<std::string, Factory> t = make_builtin_table();
  return t;
}

MetricPtr build(const std::string& name, const Config& config) {
  Factory factory;
  std::string known;
  {
    std::lock_guard lock(table_mutex());
    auto& t = table();
    if (auto it = t.find(name); it != t.end()) factory = it->second;
    for (const auto& [n, f] : t) known += (known.empty() ? "" : ", ") + n;
  }
  if (!factory)
    throw ValueError("Unknown metric '" + name + "'. Known names: " + known +
                     ". Register a custom metric with keras::metrics::register_metric.");
  return factory(config);
}

}  // namespace

MetricPtr get(const std::string& identifier) {
  return build(identifier, Config::object());
}

void register_metric(const std::string& class_name,
                     std::function<MetricPtr(const Config&)> from_config) {
  check(!class_name.empty() && from_config, "register_metric needs a name and a factory.");
  std::lock_guard lock(table_mutex());
  table()[class_name] = std::move(from_config);
}

Config serialize(const MetricPtr& metric) {
  if (!metric) return nullptr;
  return {{"module", "keras.metrics"},
          {"class_name", metric->class_name()},
          {"config", metric->get_config()},
          {"registered_name", nullptr}};
}

MetricPtr deserialize(const Config& config) {
  if (config.is_null()) return nullptr;
  if (config.is_string()) return get(config.get<std::string>());
  check(config.is_object() && config.contains("class_name"),
        "A serialized metric is a name or an object with 'class_name' and 'config'; got ",
        config.dump(), ".");
  Config inner = config.contains("config") ? config["config"] : Config::object();
  return build(config["class_name"].get<std::string>(), inner);
}

}  // namespace keras::metrics
