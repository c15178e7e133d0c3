#include "trace_call.h"

#include <set>

#include "call_tracer.h"
#include "keras/core/errors.h"
#include "keras/layers/operation_layer.h"
#include "keras/models/functional.h"
#include "keras/models/sequential.h"
#include "keras/ops/numpy/creation.h"
#include "keras/random/random.h"
#include "layer_call.h"
#include "layers/builtin_layers.h"

namespace keras::onnx {

bool traced_by_call(const Layer& layer) {
  if (dynamic_cast<const FunctionalModel*>(&layer) || dynamic_cast<const SequentialModel*>(&layer))
    return false;
  if (dynamic_cast<const Model*>(&layer)) return true;  // a subclassed model
  // keras.ops nodes of Functional graphs have their own converters (convert_ops.cpp).
  if (dynamic_cast<const layers::OperationLayer*>(&layer)) return false;
  static const std::set<std::string> builtin = [] {
    std::set<std::string> names;
    for (const auto& [name, factory] : layers::detail::builtin_layers()) names.insert(name);
    return names;
  }();
  const std::string cls = layer.class_name();
  if (find_converter(cls)) return false;
  // A built-in class with no converter is refused by name (its call may depend on masks or
  // state a graph of its ops would drop); Lambda's call is the user's function.
  return cls == "Lambda" || builtin.count(cls) == 0;
}

std::vector<std::string> trace_layer_call(Graph& g, Layer& layer,
                                          const std::vector<std::string>& inputs,
                                          const std::vector<Shape>& shapes,
                                          const std::vector<DType>& dtypes, bool list_call,
                                          std::vector<Shape>* output_shapes,
                                          std::vector<DType>* output_dtypes) {
  auto fail = [&](const std::string& why) {
    throw ValueError("export: layer \"" + layer.name() + "\" (" + layer.class_name() +
                     ") cannot be exported to ONNX: " + why + ".");
  };
  // Real inputs of the traced shapes (the batch axis kTraceBatch long where it is dynamic).
  bool dynamic_batch = false;
  TensorList xs;
  for (size_t i = 0; i < shapes.size(); ++i) {
    Shape s = shapes[i];
    for (int d = 0; d < s.rank(); ++d) {
      if (s[d] >= 0) continue;
      if (d != 0)
        fail("its call() is traced on inputs of known shape, but input " + std::to_string(i) +
             " has shape " + shape_string(shapes[i]) +
             " (give input_signature with every dimension but the batch axis)");
      s[d] = kTraceBatch;
      dynamic_batch = true;
    }
    const DType dtype = i < dtypes.size() ? dtypes[i] : DType::Float32;
    // A seed of its own: exporting leaves the global random stream as it was.
    xs.push_back(is_floating(dtype) ? random::normal(s, 0.0, 1.0, dtype, uint64_t{i + 1})
                                    : ops::zeros(s, dtype));
  }
  CallTracer tracer(g, layer, dynamic_batch);
  for (size_t i = 0; i < xs.size(); ++i) tracer.bind(xs[i], inputs.at(i));
  TensorList ys = list_call ? layer(xs) : layer.call_all(xs.at(0));
  std::vector<std::string> out;
  for (const Tensor& y : ys) {
    tracer.refuse_mask(y, "an output");
    if (!tracer.traced(y.array()) && y.dtype() != DType::Float32)
      fail("an output does not depend on the inputs");
    out.push_back(tracer.value_of(y.array(), true));
    if (output_shapes) output_shapes->push_back(tracer.keras_shape(y.shape()));
    if (output_dtypes) output_dtypes->push_back(y.dtype());
  }
  return out;
}

}  // namespace keras::onnx
