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
/// True for a model that is neither Functional nor Sequential.
inline bool is_subclassed(const Model& model) {
  return !dynamic_cast<const FunctionalModel*>(&model) &&
         !dynamic_cast<const SequentialModel*>(&model);
}
/// The subclassed models and custom layers (subclassed_models.cpp), whose call() export traces.
std::vector<ModelCase> subclassed_model_cases();

}  // namespace keras::onnx_check
