#pragma once
// Fixtures of tools/keras_oracle/quantize_float8.py and the comparisons the float8 tests share.

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "golden.h"
#include "keras/keras.h"
#include "keras/utils/npy.h"

namespace keras::float8_test {

inline std::string file_of(const std::string& name) {
  return std::string(KERAS_ORACLE_DIR) + "/quantize_float8/" + name + ".keras";
}

inline const std::map<std::string, Tensor>& fixtures() {
  static const auto* f =
      new std::map<std::string, Tensor>(utils::load_npz(test::oracle_path("quantize_float8")));
  return *f;
}

inline const Tensor& fixture(const std::string& key) {
  auto it = fixtures().find(key);
  if (it == fixtures().end()) throw std::runtime_error("quantize_float8.npz has no " + key);
  return it->second;
}

/// |a - b| <= atol + rtol |b| elementwise (nan matches nan); returns the largest relative
/// difference seen (|a - b| / max(|b|, tiny)).
inline double expect_close(const Tensor& actual, const Tensor& expected, double rtol, double atol,
                           const std::string& what) {
  EXPECT_EQ(actual.shape(), expected.shape()) << what;
  if (actual.shape() != expected.shape()) return INFINITY;
  auto a = ops::cast(actual, DType::Float64).to_vector<double>();
  auto e = ops::cast(expected, DType::Float64).to_vector<double>();
  int bad = 0;
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(e[i]) || std::isnan(a[i])) {
      if (std::isnan(e[i]) != std::isnan(a[i]) && bad++ < 5)
        ADD_FAILURE() << what << "[" << i << "]: " << a[i] << " vs Keras " << e[i];
      continue;
    }
    if (a[i] == e[i]) continue;  // infinities too
    const double diff = std::abs(a[i] - e[i]);
    worst = std::max(worst, diff / std::max(std::abs(e[i]), 1e-30));
    if (diff > atol + rtol * std::abs(e[i]) && bad++ < 5)
      ADD_FAILURE() << what << "[" << i << "]: " << a[i] << " vs Keras " << e[i];
  }
  return worst;
}

inline Tensor predict(Model& model, const Tensor& x) {
  return model.predict(TensorStruct(x), {.verbose = 0}).flat().at(0);
}

/// Every variable of `model` against Keras's of the same path under `prefix`.var.; the same
/// set of paths. Returns the largest relative difference.
inline double expect_keras_variables(const Model& model, const std::string& prefix, double rtol,
                                     double atol) {
  size_t checked = 0;
  double worst = 0;
  for (const Variable& v : model.weights()) {
    const std::string key = prefix + ".var." + v.path();
    if (!fixtures().count(key)) {
      ADD_FAILURE() << "Keras has no variable " << key;
      continue;
    }
    worst = std::max(worst, expect_close(v.value(), fixture(key), rtol, atol, key));
    ++checked;
  }
  size_t keras_count = 0;
  for (const auto& [key, value] : fixtures())
    if (key.rfind(prefix + ".var.", 0) == 0) ++keras_count;
  EXPECT_EQ(checked, keras_count) << prefix << ": keras-cpp's variables are not Keras's";
  return worst;
}

}  // namespace keras::float8_test
