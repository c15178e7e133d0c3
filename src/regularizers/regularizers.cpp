// keras.regularizers: the built-in penalties, their names and their configs.

#include "keras/regularizers/regularizers.h"

#include <cmath>

#include "keras/ops/ops.h"

namespace keras::regularizers {
namespace {

void check_factor(const char* what, double v) {
  check(std::isfinite(v) && v >= 0, what, " must be a non-negative number; got ", v, ".");
}

double number(const Config& c, const char* key, double fallback) {
  return c.contains(key) && !c[key].is_null() ? c[key].get<double>() : fallback;
}

RegularizerPtr from_config(const std::string& name, const Config& c) {
  if (name == "L1" || name == "l1") return std::make_shared<L1>(number(c, "l1", 0.01));
  if (name == "L2" || name == "l2") return std::make_shared<L2>(number(c, "l2", 0.01));
  if (name == "L1L2" || name == "l1l2" || name == "l1_l2") {
    // Keras 3 names the class "l1l2" (its snake case): L1L2() with both factors 0. "l1_l2" is
    // Keras 2's name for L1L2(l1=0.01, l2=0.01), which Keras 3 no longer accepts; keras-cpp
    // still reads it (configs of Keras 2 files).
    double d = c.empty() && name == "l1_l2" ? 0.01 : 0.0;
    return std::make_shared<L1L2>(number(c, "l1", d), number(c, "l2", d));
  }
  if (name == "OrthogonalRegularizer" || name == "orthogonal_regularizer")
    return std::make_shared<OrthogonalRegularizer>(
        number(c, "factor", 0.01), c.contains("mode") ? c["mode"].get<std::string>() : "rows");
  throw ValueError("Unknown regularizer '" + name +
                   "'. Known: l1, l2, l1l2, orthogonal_regularizer (or their class names).");
}

}  // namespace

L1::L1(double l1) : l1_(l1) { check_factor("L1: l1", l1); }
Tensor L1::operator()(const Tensor& x) const {
  return ops::multiply(ops::sum(ops::absolute(x)), l1_);
}

L2::L2(double l2) : l2_(l2) { check_factor("L2: l2", l2); }
Tensor L2::operator()(const Tensor& x) const { return ops::multiply(ops::sum(ops::square(x)), l2_); }

L1L2::L1L2(double l1, double l2) : l1_(l1), l2_(l2) {
  check_factor("L1L2: l1", l1);
  check_factor("L1L2: l2", l2);
}
Tensor L1L2::operator()(const Tensor& x) const {
  Tensor out = ops::zeros({}, x.dtype());
  if (l1_ != 0) out = ops::add(out, ops::multiply(ops::sum(ops::absolute(x)), l1_));
  if (l2_ != 0) out = ops::add(out, ops::multiply(ops::sum(ops::square(x)), l2_));
  return out;
}

OrthogonalRegularizer::OrthogonalRegularizer(double factor, std::string mode)
    : factor_(factor), mode_(std::move(mode)) {
  check_factor("OrthogonalRegularizer: factor", factor);
  check(mode_ == "rows" || mode_ == "columns",
        "OrthogonalRegularizer: mode must be 'rows' or 'columns'; got '", mode_, "'.");
}

Tensor OrthogonalRegularizer::operator()(const Tensor& x) const {
  check(x.ndim() == 2, "OrthogonalRegularizer: the weight must be 2-d; got shape ", x.shape(),
        ".");
  const bool rows = mode_ == "rows";
  Tensor n = ops::normalize(x, rows ? 1 : 0);
  Tensor product = rows ? ops::matmul(n, ops::transpose(n)) : ops::matmul(ops::transpose(n), n);
  const int64_t size = rows ? x.shape()[0] : x.shape()[1];
  Tensor off_diagonal = ops::multiply(product, ops::subtract(1.0, ops::eye(size, std::nullopt, 0, x.dtype())));
  const double pairs = static_cast<double>(size) * (static_cast<double>(size) - 1.0) / 2.0;
  return ops::divide(ops::multiply(ops::sum(ops::absolute(off_diagonal)), factor_ * 0.5), pairs);
}

RegularizerPtr get(const std::string& identifier) { return from_config(identifier, Config::object()); }

Config serialize(const RegularizerPtr& regularizer) {
  if (!regularizer) return nullptr;
  return {{"module", "keras.regularizers"},
          {"class_name", regularizer->class_name()},
          {"config", regularizer->get_config()},
          {"registered_name", nullptr}};
}

RegularizerPtr deserialize(const Config& config) {
  if (config.is_null()) return nullptr;
  if (config.is_string()) return get(config.get<std::string>());
  check(config.is_object() && config.contains("class_name"),
        "Cannot read a regularizer from config ", config.dump(), ".");
  return from_config(config["class_name"].get<std::string>(),
                     config.value("config", Config::object()));
}

}  // namespace keras::regularizers
