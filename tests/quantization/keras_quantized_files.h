#pragma once
// The checks the quantization oracle tests share: a fixture set written by a
// tools/keras_oracle/quantize*.py generator (an .npz of inputs, outputs and variables and a
// folder of Keras's .keras files), variables against Keras's, and a keras-cpp .keras file
// against Keras's own (per-layer dtype and quantization_config, the weight datasets).

#include <map>
#include <string>

#include "golden.h"
#include "keras/models/model.h"
#include "keras/tensor/tensor.h"

namespace keras::test {

class KerasQuantizedFiles {
 public:
  /// tests/oracle/fixtures/<name>.npz and the folder tests/oracle/fixtures/<name>/.
  explicit KerasQuantizedFiles(const std::string& name);

  /// The array `key` of the .npz (runtime_error naming it when absent).
  const Tensor& at(const std::string& key) const;
  /// The path of <folder>/<stem>.keras.
  std::string file(const std::string& stem) const;
  /// Every variable of `model` against Keras's `<prefix>.var.<path>`: the same dtype, integers
  /// exactly, floats to 1e-6 relative; and as many variables as Keras's model had.
  void expect_variables(const Model& model, const std::string& prefix) const;

 private:
  std::string name_;
  std::map<std::string, Tensor> arrays_;
};

/// The layer configs of a .keras file's config.json, by layer name.
std::map<std::string, json> layer_configs(const std::string& keras_file);

/// `ours` (saved by keras-cpp) against `keras` (saved by Keras): each layer's "dtype" and
/// "quantization_config" entries equal (Keras's "shared_object_id" marks left out), and model.weights.h5 has the same datasets in the same
/// order with the same dtypes and values (1e-6 relative for floats).
void expect_same_quantized_file(const std::string& ours, const std::string& keras,
                                const std::string& what);

}  // namespace keras::test
