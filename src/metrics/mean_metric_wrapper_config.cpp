// MeanMetricWrapper rebuilt from the record Keras writes for it: {"name", "dtype", "fn"}, where
// "fn" names one of Keras's loss functions ({"class_name": "function", "config":
// "mean_squared_error", "module": "builtins", ...}, or the bare name in older files). keras-cpp
// runs no code from a file: the name is looked up among its own loss functions.

#include "metrics/mean_metric_wrapper_config.h"

#include "keras/core/errors.h"
#include "keras/losses/loss.h"
#include "metrics/config_read.h"

namespace keras::metrics::detail {
namespace {

// A MeanMetricWrapper that remembers the name of its function, so that its config records it
// as Keras does.
class NamedMeanMetricWrapper final : public MeanMetricWrapper {
 public:
  NamedMeanMetricWrapper(std::string fn_name, losses::LossPtr fn, std::string name,
                         std::optional<DType> dtype)
      : MeanMetricWrapper([fn](const Tensor& y_true,
                               const Tensor& y_pred) { return fn->call(y_true, y_pred); },
                          std::move(name), dtype),
        fn_name_(std::move(fn_name)) {}

  Config get_config() const override {
    Config c = MeanMetricWrapper::get_config();
    c["fn"] = {{"module", "builtins"},
               {"class_name", "function"},
               {"config", fn_name_},
               {"registered_name", "function"}};
    return c;
  }

 private:
  std::string fn_name_;
};

std::string function_name(const Config& c) {
  check(c.contains("fn"), "MeanMetricWrapper.from_config: the config has no 'fn': ",
        c.dump().substr(0, 200), ".");
  const Config& fn = c["fn"];
  if (fn.is_string()) return fn.get<std::string>();
  check(fn.is_object() && fn.value("class_name", Config()) == "function" &&
            fn.contains("config") && fn["config"].is_string(),
        "MeanMetricWrapper.from_config: 'fn' must name a function ({\"class_name\": "
        "\"function\", \"config\": name}); got ", fn.dump().substr(0, 200), ".");
  return fn["config"].get<std::string>();
}

}  // namespace

MetricPtr mean_metric_wrapper_from_config(const Config& c) {
  const std::string fn_name = function_name(c);
  losses::LossPtr fn;
  try {
    fn = losses::get(fn_name);
  } catch (const ValueError&) {
    throw ValueError("MeanMetricWrapper: '" + fn_name +
                     "' is not one of Keras's loss functions that keras-cpp has, and keras-cpp "
                     "runs no Python code from a file. Build the metric in C++ "
                     "(keras::metrics::MeanMetricWrapper with your function) instead.");
  }
  return std::make_shared<NamedMeanMetricWrapper>(fn_name, fn, read<std::string>(c, "name", fn_name),
                                                  read_dtype(c));
}

}  // namespace keras::metrics::detail
