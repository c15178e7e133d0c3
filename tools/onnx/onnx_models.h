#pragma once
// The models tools/onnx/export_models.cpp exports to ONNX for tools/onnx/check_onnx.py to run
// in ONNX Runtime: together they use every converter of src/saving/onnx, with the options
// where a converter has branches (padding modes, strides, dilation, groups, data formats,
// keepdims, gate orders, initial states, opsets).

#include <keras/keras.h>

#include <string>
#include <vector>

namespace keras::onnx_check {

/// One model of the export check.
struct ModelCase {
  /// The file stem (NAME.onnx, NAME.in<i>.npy, ...).
  std::string name;
  /// Builds the model (weights are randomized afterwards by the caller).
  ModelPtr<Model> (*build)();
  /// The ONNX opset to export with.
  int opset = 18;
  /// True when export_model may refuse the model (a layer with no converter, a mask ONNX
  /// cannot carry): its ValueError is then recorded as expected rather than as a failure. A
  /// file it does write is checked like any other.
  bool expect_export_error = false;
};

/// The models built in C++, in the order they are written.
std::vector<ModelCase> model_cases();

}  // namespace keras::onnx_check
