#pragma once
// Arrays and JSON documents that real Keras wrote (tools/keras_oracle) into
// tests/oracle/fixtures, read once per process, for tests that look values up by key rather
// than replay a file's cases (run_oracle, golden.h).

#include <nlohmann/json.hpp>
#include <string>

#include "keras/tensor/tensor.h"

namespace keras::test {

/// Array `key` of tests/oracle/fixtures/<name>.npz; throws naming the file and key when absent.
const Tensor& oracle_array(const std::string& name, const std::string& key);

/// tests/oracle/fixtures/<name>.json, parsed.
const nlohmann::json& oracle_json(const std::string& name);

}  // namespace keras::test
