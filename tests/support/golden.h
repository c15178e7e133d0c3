#pragma once
// Replays golden fixtures (tools/golden/fixture.py) against keras-cpp.
//
//   GoldenOps ops = {{"add", [](const TensorList& in, const json& kw) { ... }}, ...};
//   run_golden("numpy_elementwise", ops);
//
// Every case in the file must have an entry; each output is compared by dtype, shape and
// values (see expect_tensor_near). A summary line per file lists ops and cases checked.

#include <functional>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <string>

#include "keras/tensor/tensor.h"

namespace keras::test {

using json = nlohmann::json;
using GoldenFn = std::function<TensorList(const TensorList& inputs, const json& kwargs)>;
using GoldenOps = std::map<std::string, GoldenFn>;

/// Path of a fixture in tests/golden.
std::string golden_path(const std::string& name);
/// Path of a fixture written by real Keras (tools/keras_oracle) in tests/oracle/fixtures.
std::string oracle_path(const std::string& name);

/// Runs every case of tests/golden/<name>.npz through `ops`, with gtest expectations.
/// Returns the set of op names exercised.
std::set<std::string> run_golden(const std::string& name, const GoldenOps& ops);

/// The same for tests/oracle/fixtures/<name>.npz, whose outputs come from Keras 3.15 itself.
/// A case whose kwargs hold "keras_cpp_differs" (the reason, listed in docs/saving-and-interop.md)
/// is reported and not compared: a difference kept on purpose or not yet fixed, never silent.
std::set<std::string> run_oracle(const std::string& name, const GoldenOps& ops);

/// Runs the cases of the .npz at `path`; `label` names it in messages.
std::set<std::string> run_fixture_file(const std::string& path, const std::string& label,
                                       const GoldenOps& ops);

}  // namespace keras::test
