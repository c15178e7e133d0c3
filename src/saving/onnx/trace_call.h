#pragma once
// Export of layers whose call() is C++ code (subclassed models, custom layers, Lambda): the
// call runs once on real inputs while every backend primitive it reaches is watched, and each
// primitive that reads a traced value becomes the ONNX operator computing the same thing
// (Add, MatMul, ReduceMean, ...). Sublayers that have an ONNX form of their own (a converter, a
// Functional or Sequential model) are not looked into: their call becomes their converter's
// nodes. Weights and other tensors the call reads that do not depend on the inputs are
// constants (initializers; a weight is named by its variable path).

#include <memory>
#include <string>
#include <vector>

#include "keras/core/shape.h"
#include "keras/layers/keras_tensor.h"
#include "keras/layers/layer.h"
#include "layer_call.h"
#include "onnx_graph.h"

namespace keras::onnx {

/// The batch size a traced call runs with when the batch axis is dynamic: a dimension of this
/// extent in a reshape target is written as the batch axis (0 or -1).
inline constexpr int64_t kTraceBatch = 83;

/// True for layers export traces through: subclassed models and classes keras-cpp does not
/// define (custom layers), and Lambda. Built-in classes are converted or refused by name.
bool traced_by_call(const Layer& layer);

/// The ONNX values of one call of `layer` (see traced_by_call) on `inputs` (ONNX values of the
/// Keras shapes `shapes`, -1 only for the batch axis, and dtypes `dtypes`). Throws ValueError
/// naming the primitive and the layer whose call() used it when one has no ONNX form.
/// `output_shapes` receives the Keras shapes of the outputs.
std::vector<std::string> trace_layer_call(Graph& g, Layer& layer,
                                          const std::vector<std::string>& inputs,
                                          const std::vector<Shape>& shapes,
                                          const std::vector<DType>& dtypes, bool list_call,
                                          std::vector<Shape>* output_shapes = nullptr,
                                          std::vector<DType>* output_dtypes = nullptr);

/// The ONNX values of one call of `layer` (converted, walked when it is a Functional or
/// Sequential model, or traced), defined in export.cpp. `masks`: the Keras masks the call
/// receives (layer_call.h); `output_masks` receives those of its outputs.
std::vector<std::string> convert_layer_call(Graph& g, const std::shared_ptr<Layer>& layer,
                                            const std::vector<std::string>& inputs,
                                            const std::vector<Shape>& input_shapes,
                                            const std::vector<Shape>& output_shapes,
                                            const Node* node, const std::vector<DType>& dtypes,
                                            bool list_call, const MaskValues& masks = {},
                                            MaskValues* output_masks = nullptr);

}  // namespace keras::onnx
