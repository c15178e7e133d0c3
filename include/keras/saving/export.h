#pragma once
// Exporting a model for inference elsewhere (Keras's model.export): keras-cpp writes ONNX, which
// ONNX Runtime, TensorRT, OpenVINO and most serving stacks load.
//
//   model->export_("model.onnx");                                   // dynamic batch axis
//   keras::saving::export_model(*model, "model.onnx", {.opset_version = 17});
//
// The graph is the inference one: dropout and noise layers vanish, BatchNormalization uses its
// moving statistics. Keras's other formats (tf_saved_model, openvino, litert) need TensorFlow or
// OpenVINO to write, so keras-cpp does not offer them; `format` defaults to "onnx" for that
// reason (Keras's default is "tf_saved_model").

#include <optional>
#include <string>
#include <vector>

#include "keras/core/shape.h"

#pragma GCC visibility push(default)
namespace keras {
class Model;
}

namespace keras::saving {

/// The ONNX opsets export_model writes (of the default "ai.onnx" domain).
inline constexpr int kMinOnnxOpset = 17, kMaxOnnxOpset = 21, kDefaultOnnxOpset = 18;
/// \var kMaxOnnxOpset
/// The newest opset export_model writes.
/// \var kDefaultOnnxOpset
/// The opset export_model writes unless ExportOptions asks for another.

/// Keras's export arguments.
struct ExportOptions {
  /// "onnx", the one format keras-cpp writes.
  std::string format = "onnx";
  /// The ONNX opset (kMinOnnxOpset to kMaxOnnxOpset); unset: kDefaultOnnxOpset.
  std::optional<int> opset_version;
  /// One shape per model input, -1 for a dimension left dynamic; empty: the inputs' shapes
  /// with a dynamic batch axis (Keras's default).
  std::vector<Shape> input_signature;
  /// Prints the file written and its inputs and outputs.
  bool verbose = true;
};

/// Writes `model` (Sequential, Functional, nested models, or a subclassed model whose call()
/// is traced: docs/deployment.md) to `filepath` atomically. Throws ValueError naming the first layer that has no ONNX form and why, or a
/// bad option; IOError when the file cannot be written (the previous file stays as it was).
void export_model(const Model& model, const std::string& filepath,
                  const ExportOptions& options = {});

}  // namespace keras::saving

#pragma GCC visibility pop
