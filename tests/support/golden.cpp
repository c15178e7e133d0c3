#include "golden.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <set>

#include "assertions.h"
#include "keras/utils/npy.h"


namespace keras::test {
namespace {

// The largest absolute and relative differences of `actual` from `expected` over finite
// expected values (relative where |expected| >= 1e-3, so values near zero do not dominate).
void track_difference(const Tensor& actual, const Tensor& expected, double& worst_abs,
                      double& worst_rel) {
  if (!actual.defined() || actual.shape() != expected.shape()) return;
  std::vector<double> a = actual.to_vector<double>(), e = expected.to_vector<double>();
  for (size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(e[i]) || !std::isfinite(a[i])) continue;
    double d = std::abs(a[i] - e[i]);
    worst_abs = std::max(worst_abs, d);
    if (std::abs(e[i]) >= 1e-3) worst_rel = std::max(worst_rel, d / std::abs(e[i]));
  }
}

std::string text_of(const Tensor& bytes) {
  std::vector<uint8_t> v = bytes.to_vector<uint8_t>();
  return std::string(v.begin(), v.end());
}

}  // namespace

std::string golden_path(const std::string& name) {
  return std::string(KERAS_GOLDEN_DIR) + "/" + name + ".npz";
}

std::string oracle_path(const std::string& name) {
  return std::string(KERAS_ORACLE_DIR) + "/" + name + ".npz";
}

std::set<std::string> run_golden(const std::string& name, const GoldenOps& ops) {
  return run_fixture_file(golden_path(name), name, ops);
}

std::set<std::string> run_oracle(const std::string& name, const GoldenOps& ops) {
  return run_fixture_file(oracle_path(name), "oracle/" + name, ops);
}

std::set<std::string> run_fixture_file(const std::string& path, const std::string& name,
                                       const GoldenOps& ops) {
  auto arrays = utils::load_npz(path);
  // Group "<case>.<field>" keys by case.
  std::map<std::string, std::map<std::string, Tensor>> cases;
  for (auto& [key, value] : arrays) {
    size_t dot = key.rfind('.');
    cases[key.substr(0, dot)][key.substr(dot + 1)] = value;
  }
  std::set<std::string> exercised;
  int checked = 0, differs = 0;
  double worst_abs = 0, worst_rel = 0;
  for (auto& [case_name, fields] : cases) {
    std::string op = text_of(fields.at("op"));
    json kwargs = json::parse(text_of(fields.at("kwargs")));
    auto it = ops.find(op);
    if (it == ops.end()) {
      ADD_FAILURE() << name << ": case '" << case_name << "' uses op '" << op
                    << "', which the test does not map to keras-cpp";
      continue;
    }
    TensorList inputs, expected;
    for (int i = 0; fields.count("in" + std::to_string(i)); ++i)
      inputs.push_back(fields.at("in" + std::to_string(i)));
    for (int i = 0; fields.count("out" + std::to_string(i)); ++i)
      expected.push_back(fields.at("out" + std::to_string(i)));
    TensorList actual;
    if (kwargs.contains("keras_cpp_differs")) {
      std::cout << "[differs] " << name << "/" << case_name << " (" << op
                << "): " << kwargs["keras_cpp_differs"].get<std::string>() << "\n";
      ++differs;
      continue;
    }
    if (kwargs.value("raises", std::string()) != "") {
      // The case expects an error of the named kind.
      bool raised = false;
      try {
        it->second(inputs, kwargs);
      } catch (const Error&) {
        raised = true;
      }
      EXPECT_TRUE(raised) << name << "/" << case_name << " (" << op << "): expected an error";
      exercised.insert(op);
      ++checked;
      continue;
    }
    try {
      actual = it->second(inputs, kwargs);
    } catch (const std::exception& e) {
      ADD_FAILURE() << name << "/" << case_name << " (" << op << "): threw " << e.what();
      continue;
    }
    if (actual.size() != expected.size()) {
      ADD_FAILURE() << name << "/" << case_name << ": " << actual.size() << " outputs, expected "
                    << expected.size();
      continue;
    }
    for (size_t i = 0; i < expected.size(); ++i) {
      DType t = expected[i].dtype();
      double rtol = kwargs.value("rtol", default_rtol(t));
      double atol = kwargs.value("atol", is_floating(t) ? rtol * 0.1 : 0.0);
      bool check_dtype = kwargs.value("check_dtype", true);
      EXPECT_TRUE(tensors_near(actual[i], expected[i], rtol, atol, check_dtype))
          << name << "/" << case_name << " (" << op << ") output " << i;
      track_difference(actual[i], expected[i], worst_abs, worst_rel);
    }
    exercised.insert(op);
    ++checked;
  }
  std::cout << "[golden] " << name << ": " << checked << " cases, " << exercised.size()
            << " ops";
  if (differs) std::cout << ", " << differs << " documented differences";
  std::cout << "; largest difference " << worst_abs << " absolute, " << worst_rel << " relative";
  std::cout << "\n";
  return exercised;
}

}  // namespace keras::test
