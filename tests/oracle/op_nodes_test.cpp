// keras.ops calls recorded as Functional graph nodes, against Keras 3.15 itself
// (tools/keras_oracle/op_nodes.py -> tests/oracle/fixtures/op_nodes.json). Keras builds a model
// from each case's ops and writes its config; keras-cpp rebuilds the model from that config
// through the op-class registry (keras/ops/operation.h), must give Keras's outputs (dtype
// exactly, shape, values within tolerance), and must write Keras's config back key for key.
// Every registered op class must be checked by at least one case.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <set>
#include <string>

#include "assertions.h"
#include "json_diff.h"
#include "keras/keras.h"

namespace keras {
namespace {

using json = nlohmann::json;

const json& fixture() {
  static const json all = [] {
    std::ifstream in(std::string(KERAS_ORACLE_DIR) + "/op_nodes.json");
    EXPECT_TRUE(in.good())
        << "tests/oracle/fixtures/op_nodes.json is missing (./scripts/oracle.sh op_nodes)";
    return in.good() ? json::parse(in) : json{{"cases", json::array()}};
  }();
  return all;
}

// A tensor of the fixture: {"dtype", "shape", "values"} with values flat, row-major.
Tensor tensor_of(const json& t) {
  DType dtype = dtype_from_string(t.at("dtype").get<std::string>());
  Shape shape(t.at("shape").get<std::vector<int64_t>>());
  if (is_integer(dtype)) {
    return ops::convert_to_tensor(t.at("values").get<std::vector<int64_t>>(), shape, dtype);
  }
  std::vector<double> values;
  for (const json& v : t.at("values")) {
    if (v.is_string()) {
      std::string s = v.get<std::string>();
      values.push_back(s == "nan" ? std::nan("") : s == "inf" ? INFINITY : -INFINITY);
    } else if (v.is_boolean()) {
      values.push_back(v.get<bool>() ? 1.0 : 0.0);
    } else {
      values.push_back(v.get<double>());
    }
  }
  return ops::convert_to_tensor(values, shape, dtype);
}

std::string case_label(const json& c) {
  return "op_nodes/" + c.at("name").get<std::string>();
}

double default_tolerance(DType t) {
  return t == DType::Float64 ? 1e-12 : is_floating(t) ? 1e-6 : 0.0;
}

// The largest |actual - expected| over the finite values of a floating output.
double largest_difference(const Tensor& actual, const Tensor& expected) {
  if (!is_floating(expected.dtype()) || actual.shape() != expected.shape()) return 0;
  std::vector<double> a = actual.to_vector<double>(), e = expected.to_vector<double>();
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::isfinite(a[i]) && std::isfinite(e[i])) worst = std::max(worst, std::abs(a[i] - e[i]));
  return worst;
}

// Compares one case's outputs; returns the largest difference.
double compare_outputs(const json& c, const TensorList& actual) {
  const json& outputs = c.at("outputs");
  if (actual.size() != outputs.size()) {
    ADD_FAILURE() << case_label(c) << ": " << actual.size() << " outputs, Keras gives "
                  << outputs.size();
    return 0;
  }
  double worst = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    Tensor expected = tensor_of(outputs[i]);
    std::string what = case_label(c) + " output " + std::to_string(i);
    if (!actual[i].defined()) {
      ADD_FAILURE() << what << ": undefined";
      continue;
    }
    // Where jax_enable_x64 alone makes Keras's value 64-bit (indices, counts), the dtype Keras
    // means (its symbolic output's) is the one keras-cpp gives.
    // The values then compare at the tolerance of the dtype keras-cpp computes in.
    DType dtype = actual[i].dtype();
    bool symbolic = outputs[i].contains("symbolic_dtype") &&
                    dtype == dtype_from_string(outputs[i]["symbolic_dtype"].get<std::string>());
    EXPECT_TRUE(dtype == expected.dtype() || symbolic)
        << what << ": dtype " << dtype << ", Keras gives " << expected.dtype();
    if (!c.value("check_values", true)) {
      EXPECT_EQ(actual[i].shape(), expected.shape()) << what;
      continue;
    }
    DType tolerance_dtype = symbolic ? dtype : expected.dtype();
    double rtol = c.value("rtol", default_tolerance(tolerance_dtype));
    double atol = c.value("atol", default_tolerance(tolerance_dtype));
    EXPECT_TRUE(test::tensors_near(actual[i], expected, rtol, atol, /*check_dtype=*/false)) << what;
    worst = std::max(worst, largest_difference(actual[i], expected));
  }
  return worst;
}

std::shared_ptr<Layer> model_of(const json& c) {
  return FunctionalModel::from_config(c.at("config"));
}

TEST(OpNodes, OutputsMatchKeras) {
  const json& cases = fixture().at("cases");
  ASSERT_FALSE(cases.empty());
  std::set<std::string> classes;
  int compared = 0, differs = 0;
  double worst = 0;
  for (const json& c : cases) {
    if (c.contains("keras_cpp_differs")) {
      std::cout << "[differs] " << case_label(c) << ": "
                << c["keras_cpp_differs"].get<std::string>() << "\n";
      ++differs;
      continue;
    }
    if (c.contains("x64_dtype"))
      std::cout << "[x64] " << case_label(c) << ": " << c["x64_dtype"].get<std::string>() << "\n";
    TensorList inputs;
    for (const json& t : c.at("inputs")) inputs.push_back(tensor_of(t));
    TensorList actual;
    try {
      actual = model_of(c)->call_list(inputs, {});
    } catch (const std::exception& e) {
      ADD_FAILURE() << case_label(c) << ": threw " << e.what();
      continue;
    }
    worst = std::max(worst, compare_outputs(c, actual));
    for (const json& name : c.at("classes")) classes.insert(name.get<std::string>());
    ++compared;
  }
  std::cout << "op_nodes: " << compared << " cases against Keras " << fixture()["keras_version"]
            << " (" << differs << " differ, printed), " << classes.size()
            << " op classes, largest difference " << worst << "\n";
}

TEST(OpNodes, ConfigsMatchKeras) {
  int compared = 0;
  for (const json& c : fixture().at("cases")) {
    if (c.contains("keras_cpp_differs")) continue;
    if (c.contains("keras_config_differs")) {
      std::cout << "[differs] " << case_label(c)
                << " config: " << c["keras_config_differs"].get<std::string>() << "\n";
      continue;
    }
    json ours;
    try {
      ours = model_of(c)->get_config();
    } catch (const std::exception& e) {
      ADD_FAILURE() << case_label(c) << ": threw " << e.what();
      continue;
    }
    ++compared;
    for (const std::string& d :
         test::json_differences(ours, test::comparable_keras_config(c.at("config"))))
      ADD_FAILURE() << case_label(c) << " config: " << d;
  }
  std::cout << "op_nodes: " << compared << " configs compared key for key\n";
}

// A table entry that no case runs would never have been checked against Keras. A class run only
// by cases that differ (each with its reason) is printed.
TEST(OpNodes, EveryRegisteredClassIsChecked) {
  std::set<std::string> checked, differing;
  for (const json& c : fixture().at("cases"))
    for (const json& name : c.at("classes"))
      (c.contains("keras_cpp_differs") ? differing : checked).insert(name.get<std::string>());
  // Classes checked against a Keras file by their own test instead: Keras 3.15 cannot build
  // a Rearrange node with an unknown batch size (nor run one under jit), which op_nodes' cases
  // use; tests/ops_shape/rearrange_test.cpp loads Keras's einops_model.keras.
  const std::set<std::string> checked_elsewhere = {"Rearrange"};
  for (const std::string& name : ops::registered_operations()) {
    if (checked_elsewhere.count(name)) continue;
    if (!checked.count(name) && differing.count(name)) {
      std::cout << "[differs] op class " << name << ": only in cases that differ from Keras\n";
      continue;
    }
    EXPECT_TRUE(checked.count(name)) << name << " is registered but no op_nodes case runs it "
                                     << "(add one to tools/keras_oracle/op_nodes_*.py)";
  }
}

TEST(OpNodes, UnknownClassIsAnError) {
  EXPECT_EQ(ops::find_operation("NoSuchOperation"), nullptr);
  const json& cases = fixture().at("cases");
  auto sin_case =
      std::find_if(cases.begin(), cases.end(), [](const json& c) { return c.at("name") == "sin"; });
  ASSERT_NE(sin_case, cases.end());
  json config = sin_case->at("config");
  bool renamed = false;
  for (json& layer : config.at("layers")) {
    if (layer.value("class_name", "") == "Sin") {
      layer["class_name"] = "NoSuchOperation";
      layer["registered_name"] = "NoSuchOperation";
      renamed = true;
    }
  }
  ASSERT_TRUE(renamed);
  try {
    FunctionalModel::from_config(config);
    ADD_FAILURE() << "an unknown op class was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("NoSuchOperation"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace keras
