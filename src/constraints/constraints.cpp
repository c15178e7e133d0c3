// keras.constraints: the built-in projections, their names and their configs.

#include "keras/constraints/constraints.h"

#include "keras/core/config.h"
#include "keras/ops/ops.h"

namespace keras::constraints {
namespace {

Config axis_config(const ops::Axes& axis) {
  if (axis.is_none()) return nullptr;
  if (axis.list().size() == 1) return axis.list()[0];
  return std::vector<int>(axis.list().begin(), axis.list().end());
}

ops::Axes axis_of(const Config& c) {
  if (!c.contains("axis")) return 0;
  const Config& a = c["axis"];
  if (a.is_null()) return {};
  if (a.is_array()) return a.get<std::vector<int>>();
  return a.get<int>();
}

double number(const Config& c, const char* key, double fallback) {
  return c.contains(key) && !c[key].is_null() ? c[key].get<double>() : fallback;
}

Tensor norms(const Tensor& w, const ops::Axes& axis) {
  return ops::sqrt(ops::sum(ops::square(w), axis, true));
}

ConstraintPtr from_config(const std::string& name, const Config& c) {
  if (name == "MaxNorm" || name == "max_norm")
    return std::make_shared<MaxNorm>(number(c, "max_value", 2.0), axis_of(c));
  if (name == "MinMaxNorm" || name == "min_max_norm")
    return std::make_shared<MinMaxNorm>(number(c, "min_value", 0.0), number(c, "max_value", 1.0),
                                        number(c, "rate", 1.0), axis_of(c));
  if (name == "NonNeg" || name == "non_neg") return std::make_shared<NonNeg>();
  if (name == "UnitNorm" || name == "unit_norm") return std::make_shared<UnitNorm>(axis_of(c));
  throw ValueError("Unknown constraint '" + name +
                   "'. Known: max_norm, min_max_norm, non_neg, unit_norm (or their class names).");
}

}  // namespace

MaxNorm::MaxNorm(double max_value, ops::Axes axis) : max_value_(max_value), axis_(std::move(axis)) {}
Tensor MaxNorm::operator()(const Tensor& w) const {
  Tensor n = norms(w, axis_);
  Tensor desired = ops::clip(n, 0.0, max_value_);
  return ops::multiply(w, ops::divide(desired, ops::add(n, config::epsilon())));
}
Config MaxNorm::get_config() const { return {{"max_value", max_value_}, {"axis", axis_config(axis_)}}; }

MinMaxNorm::MinMaxNorm(double min_value, double max_value, double rate, ops::Axes axis)
    : min_value_(min_value), max_value_(max_value), rate_(rate), axis_(std::move(axis)) {}
Tensor MinMaxNorm::operator()(const Tensor& w) const {
  Tensor n = norms(w, axis_);
  Tensor desired = ops::add(ops::multiply(ops::clip(n, min_value_, max_value_), rate_),
                            ops::multiply(n, 1.0 - rate_));
  return ops::multiply(w, ops::divide(desired, ops::add(n, config::epsilon())));
}
Config MinMaxNorm::get_config() const {
  return {{"min_value", min_value_}, {"max_value", max_value_}, {"rate", rate_},
          {"axis", axis_config(axis_)}};
}

Tensor NonNeg::operator()(const Tensor& w) const { return ops::maximum(w, 0.0); }

UnitNorm::UnitNorm(ops::Axes axis) : axis_(std::move(axis)) {}
Tensor UnitNorm::operator()(const Tensor& w) const {
  return ops::divide(w, ops::add(norms(w, axis_), config::epsilon()));
}
Config UnitNorm::get_config() const { return {{"axis", axis_config(axis_)}}; }

ConstraintPtr get(const std::string& identifier) { return from_config(identifier, Config::object()); }

Config serialize(const ConstraintPtr& constraint) {
  if (!constraint) return nullptr;
  return {{"module", "keras.constraints"},
          {"class_name", constraint->class_name()},
          {"config", constraint->get_config()},
          {"registered_name", nullptr}};
}

ConstraintPtr deserialize(const Config& config) {
  if (config.is_null()) return nullptr;
  if (config.is_string()) return get(config.get<std::string>());
  check(config.is_object() && config.contains("class_name"),
        "Cannot read a constraint from config ", config.dump(), ".");
  return from_config(config["class_name"].get<std::string>(),
                     config.value("config", Config::object()));
}

}  // namespace keras::constraints
