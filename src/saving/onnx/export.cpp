// export_model: walks a Sequential or Functional model's graph (nested models inlined) and has
// each layer call converted by its class's converter (layer_call.h) into ONNX nodes.

#include "keras/saving/export.h"

#include <iostream>
#include <map>
#include <set>

#include "keras/core/errors.h"
#include "keras/layers/input_layer.h"
#include "keras/layers/operation_layer.h"
#include "keras/models/functional.h"
#include "keras/models/sequential.h"
#include "keras/saving/atomic_file.h"
#include "layer_call.h"
#include "trace_call.h"

#ifndef KERAS_CPP_VERSION
#define KERAS_CPP_VERSION "unknown"
#endif

namespace keras::saving {
namespace {

using onnx::Graph;
using onnx::LayerCall;

// A tensor of a graph: the node that made it and which of its outputs it is.
using TensorKey = std::pair<const Node*, int>;
TensorKey key_of(const KerasTensor& t) { return {t.node().get(), t.tensor_index()}; }

// A layer call's masks as the layer receives them (Layer::operator()): those a Keras-saved graph
// passes explicitly as `mask`, else those attached to its inputs when the layer supports
// masking. A nested model passes the attached ones on to its own layers.
onnx::MaskValues received_masks(const Layer& layer, const onnx::MaskValues& attached,
                                const onnx::MaskValues& explicit_masks) {
  for (const std::string& m : explicit_masks)
    if (!m.empty()) return explicit_masks;
  if (layer.supports_masking() || dynamic_cast<const Model*>(&layer)) return attached;
  return {};
}

class Walker {
 public:
  explicit Walker(Graph& g) : g_(g) {}

  void bind(const KerasTensor& t, const std::string& value, const std::string& mask = {}) {
    values_[key_of(t)] = value;
    masks_[key_of(t)] = mask;
  }

  const std::string& value_of(const KerasTensor& t) const {
    auto it = values_.find(key_of(t));
    if (it == values_.end())
      throw ValueError("export: the graph uses tensor \"" + t.name() +
                       "\" before any layer made it (a graph this exporter cannot order).");
    return it->second;
  }

  std::string mask_of(const KerasTensor& t) const {
    auto it = masks_.find(key_of(t));
    return it == masks_.end() ? std::string() : it->second;
  }

  // The ONNX values of `model`'s outputs for inputs already bound to `inputs` (with the Keras
  // masks `masks` attached, "" or none for unmasked inputs).
  std::vector<std::string> run_model(const Model& model, const std::vector<std::string>& inputs,
                                     const onnx::MaskValues& masks = {}) {
    const auto mask_at = [&](size_t i) { return i < masks.size() ? masks[i] : std::string(); };
    if (const auto* f = dynamic_cast<const FunctionalModel*>(&model)) {
      check_count(model, f->inputs().size(), inputs.size());
      for (size_t i = 0; i < inputs.size(); ++i) bind(f->inputs()[i], inputs[i], mask_at(i));
      for (const auto& node : f->nodes()) {
        if (node->is_input()) continue;
        std::vector<std::string> in;
        std::vector<Shape> shapes;
        std::vector<DType> dtypes;
        onnx::MaskValues attached, explicit_masks;
        for (const KerasTensor& t : node->inputs) {
          in.push_back(value_of(t));
          shapes.push_back(t.shape());
          dtypes.push_back(t.dtype());
          attached.push_back(mask_of(t));
        }
        for (const KerasTensor& m : node->masks)
          explicit_masks.push_back(m.defined() ? value_of(m) : std::string());
        onnx::MaskValues out_masks;
        const std::vector<std::string> out = run_layer(
            node->layer, in, shapes, node->output_shapes, node.get(), dtypes, node->list_call,
            received_masks(*node->layer, attached, explicit_masks), &out_masks);
        for (size_t i = 0; i < out.size(); ++i) {
          values_[{node.get(), static_cast<int>(i)}] = out[i];
          masks_[{node.get(), static_cast<int>(i)}] = i < out_masks.size() ? out_masks[i] : "";
        }
      }
      std::vector<std::string> out;
      for (const KerasTensor& t : f->outputs()) out.push_back(value_of(t));
      return out;
    }
    if (const auto* s = dynamic_cast<const SequentialModel*>(&model)) {
      check_count(model, 1, inputs.size());
      if (!s->input_tensor().defined())
        throw ValueError("export: Sequential model \"" + model.name() +
                         "\" is not built; give it a keras::Input first or call it on data.");
      std::string x = inputs[0], mask = mask_at(0);
      KerasTensor previous = s->input_tensor();
      const auto layers = s->layers();
      for (size_t i = 0; i < layers.size(); ++i) {
        const KerasTensor& out = s->layer_outputs().at(i);
        onnx::MaskValues out_masks;
        x = run_layer(layers[i], {x}, {previous.shape()}, {out.shape()}, nullptr, {}, false,
                      received_masks(*layers[i], {mask}, {}), &out_masks)
                .at(0);
        mask = out_masks.empty() ? "" : out_masks[0];
        previous = out;
      }
      return {x};
    }
    throw ValueError("export: model \"" + model.name() + "\" (" + model.class_name() +
                     ") is a subclassed model; export handles Sequential and Functional models " +
                     "(nested ones included). Rebuild it as a Functional model to export it.");
  }

 private:
  static void check_count(const Model& model, size_t want, size_t got) {
    if (want != got)
      throw ValueError("export: model \"" + model.name() + "\" takes " + std::to_string(want) +
                       " inputs; it was called with " + std::to_string(got) + ".");
  }

  std::vector<std::string> run_layer(const std::shared_ptr<Layer>& layer,
                                     const std::vector<std::string>& in,
                                     const std::vector<Shape>& in_shapes,
                                     const std::vector<Shape>& out_shapes, const Node* node,
                                     const std::vector<DType>& dtypes, bool list_call,
                                     const onnx::MaskValues& masks,
                                     onnx::MaskValues* out_masks) {
    return onnx::convert_layer_call(g_, layer, in, in_shapes, out_shapes, node, dtypes,
                                    list_call, masks, out_masks);
  }

  Graph& g_;
  std::map<TensorKey, std::string> values_;
  std::map<TensorKey, std::string> masks_;  // "" for none
};

// The model's input tensors (Functional: its inputs; Sequential: its Input).
std::vector<KerasTensor> model_inputs(const Model& model) {
  if (const auto* f = dynamic_cast<const FunctionalModel*>(&model)) return f->inputs();
  if (const auto* s = dynamic_cast<const SequentialModel*>(&model)) {
    if (!s->input_tensor().defined())
      throw ValueError("export: Sequential model \"" + model.name() +
                       "\" is not built; give it a keras::Input first or call it on data.");
    return {s->input_tensor()};
  }
  return {};
}

std::vector<KerasTensor> model_outputs(const Model& model) {
  if (const auto* f = dynamic_cast<const FunctionalModel*>(&model)) return f->outputs();
  if (const auto* s = dynamic_cast<const SequentialModel*>(&model))
    if (!s->layer_outputs().empty()) return {s->layer_outputs().back()};
  return {};
}

// The shape of input `i` under the signature (-1: dynamic), checked against the model's.
Shape signature_shape(const ExportOptions& options, size_t i, const KerasTensor& input) {
  if (options.input_signature.empty()) return input.shape();
  const Shape& want = options.input_signature[i];
  const Shape& have = input.shape();
  bool ok = want.rank() == have.rank();
  for (int d = 0; ok && d < want.rank(); ++d)
    ok = want[d] == -1 || have[d] == -1 || want[d] == have[d];
  if (!ok)
    throw ValueError("export: input_signature[" + std::to_string(i) + "] is " +
                     shape_string(want) + ", but the model's input \"" + input.name() +
                     "\" has shape " + shape_string(have) +
                     "; give a shape of the same rank, -1 for dynamic dimensions.");
  return want;
}

std::vector<std::string> dim_names(const Shape& shape, const std::string& input) {
  std::vector<std::string> names;
  for (int d = 0; d < shape.rank(); ++d)
    names.push_back(d == 0 ? "batch" : input + "_d" + std::to_string(d));
  return names;
}

// A subclassed model: its call() traced on inputs of the signature's shapes, or of the shapes
// it was built for with the batch axis dynamic. Inputs are float32 (no signature says more).
void export_subclassed(const Model& model, const std::string& filepath,
                       const ExportOptions& options, int opset) {
  std::vector<Shape> shapes = options.input_signature;
  if (shapes.empty()) {
    shapes = model.build_input_shapes();
    for (Shape& s : shapes)
      if (s.rank() > 0) s[0] = -1;
  }
  if (shapes.empty())
    throw ValueError("export: subclassed model \"" + model.name() + "\" (" + model.class_name() +
                     ") was never called or built, so the shapes of its inputs are unknown; " +
                     "pass ExportOptions::input_signature (one shape per input, -1 for the " +
                     "batch axis) or call the model on data first.");
  Graph g(model.name(), opset);
  std::vector<std::string> in_values;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const std::string name = shapes.size() == 1 ? "inputs" : "inputs_" + std::to_string(i);
    g.add_input(name, DType::Float32, shapes[i], dim_names(shapes[i], name));
    in_values.push_back(name);
  }
  std::vector<Shape> out_shapes;
  std::vector<DType> out_dtypes;
  // Tracing runs call(), which is not const; the model's weights are only read.
  const std::vector<std::string> out_values = onnx::trace_layer_call(
      g, const_cast<Model&>(model), in_values, shapes,
      std::vector<DType>(shapes.size(), DType::Float32), shapes.size() > 1, &out_shapes,
      &out_dtypes);
  for (size_t i = 0; i < out_values.size(); ++i) {
    const std::string name = "output_" + std::to_string(i);
    g.add_output(out_values[i], name, out_dtypes[i], out_shapes[i], dim_names(out_shapes[i], name));
  }
  const std::string bytes = g.serialize(KERAS_CPP_VERSION);
  write_file_atomically(filepath, std::vector<uint8_t>(bytes.begin(), bytes.end()));
  if (options.verbose) {
    std::cout << "Saved ONNX model (opset " << opset << ", call() traced) to " << filepath << "\n";
    for (size_t i = 0; i < shapes.size(); ++i)
      std::cout << "  input  " << in_values[i] << " " << shape_string(shapes[i]) << " float32\n";
    for (size_t i = 0; i < out_values.size(); ++i)
      std::cout << "  output output_" << i << " " << shape_string(out_shapes[i]) << " "
                << dtype_name(out_dtypes[i]) << "\n";
  }
}

}  // namespace

void export_model(const Model& model, const std::string& filepath, const ExportOptions& options) {
  if (options.format != "onnx")
    throw ValueError("export: format \"" + options.format +
                     "\" is not one keras-cpp writes; use format \"onnx\" (tf_saved_model, " +
                     "openvino and litert need TensorFlow or OpenVINO to write).");
  const int opset = options.opset_version.value_or(kDefaultOnnxOpset);
  if (opset < kMinOnnxOpset || opset > kMaxOnnxOpset)
    throw ValueError("export: opset_version " + std::to_string(opset) + " is outside the " +
                     "opsets keras-cpp writes (" + std::to_string(kMinOnnxOpset) + " to " +
                     std::to_string(kMaxOnnxOpset) + ").");
  if (onnx::traced_by_call(model)) return export_subclassed(model, filepath, options, opset);
  const std::vector<KerasTensor> inputs = model_inputs(model);
  const std::vector<KerasTensor> outputs = model_outputs(model);
  if (!options.input_signature.empty() && options.input_signature.size() != inputs.size())
    throw ValueError("export: input_signature has " +
                     std::to_string(options.input_signature.size()) + " shapes; the model has " +
                     std::to_string(inputs.size()) + " inputs.");

  Graph g(model.name(), opset);
  std::vector<std::string> in_values;
  std::set<std::string> names;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string name = inputs[i].producer()->name();
    const Shape shape = signature_shape(options, i, inputs[i]);
    g.add_input(name, inputs[i].dtype(), shape, dim_names(shape, name));
    in_values.push_back(name);
    names.insert(name);
  }
  Walker walker(g);
  const std::vector<std::string> out_values = walker.run_model(model, in_values);
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::string name = outputs[i].producer()->name();
    for (int k = 1; names.count(name); ++k) name = outputs[i].producer()->name() + "_" + std::to_string(k);
    names.insert(name);
    Shape shape = outputs[i].shape();
    g.add_output(out_values[i], name, outputs[i].dtype(), shape, dim_names(shape, name));
  }
  const std::string bytes = g.serialize(KERAS_CPP_VERSION);
  write_file_atomically(filepath, std::vector<uint8_t>(bytes.begin(), bytes.end()));
  if (options.verbose) {
    std::cout << "Saved ONNX model (opset " << opset << ") to " << filepath << "\n";
    for (size_t i = 0; i < inputs.size(); ++i)
      std::cout << "  input  " << inputs[i].producer()->name() << " "
                << shape_string(signature_shape(options, i, inputs[i])) << " "
                << dtype_name(inputs[i].dtype()) << "\n";
    for (const KerasTensor& t : outputs)
      std::cout << "  output " << t.producer()->name() << " " << shape_string(t.shape()) << " "
                << dtype_name(t.dtype()) << "\n";
  }
}

}  // namespace keras::saving

namespace keras::onnx {

std::vector<std::string> convert_layer_call(Graph& g, const std::shared_ptr<Layer>& layer,
                                            const std::vector<std::string>& in,
                                            const std::vector<Shape>& in_shapes,
                                            const std::vector<Shape>& out_shapes,
                                            const Node* node, const std::vector<DType>& dtypes,
                                            bool list_call, const MaskValues& masks,
                                            MaskValues* out_masks) {
  if (out_masks) out_masks->clear();  // none unless a converter says otherwise
  if (traced_by_call(*layer)) {
    for (const std::string& m : masks)
      if (!m.empty())
        throw ValueError("export: layer \"" + layer->name() + "\" (" + layer->class_name() +
                         ") cannot be exported to ONNX: a Keras mask (from "
                         "Embedding(mask_zero=True) or Masking) reaches its call, which export "
                         "traces, and traced calls carry no masks.");
    return trace_layer_call(g, *layer, in, in_shapes, dtypes, list_call);
  }
  if (const auto* model = dynamic_cast<const Model*>(layer.get())) {
    // Its layers see the masks; its outputs carry none (a model does not support masking).
    saving::Walker inner(g);
    return inner.run_model(*model, in, masks);
  }
  LayerCall call{*layer, layer->get_config(), in, in_shapes, out_shapes, g, node, dtypes};
  call.input_masks = masks;
  call.refuse_quantized();
  // A keras.ops node may share its class name with a layer (Add, Concatenate, Softmax) but
  // not its config or call arguments: it has converters of its own.
  const bool op_node = dynamic_cast<const layers::OperationLayer*>(layer.get()) != nullptr;
  const Converter convert =
      op_node ? find_op_converter(layer->class_name()) : find_converter(layer->class_name());
  if (!convert && op_node)
    call.fail("the keras.ops node class " + layer->class_name() + " has no ONNX converter " +
              "(docs/deployment.md lists the ops that export)");
  if (!convert)
    call.fail("no ONNX converter for class " + layer->class_name() +
              " (docs/deployment.md lists the exportable layers)");
  std::vector<std::string> out = convert(call);
  if (out.size() != out_shapes.size() && !out_shapes.empty())
    call.fail("the converter made " + std::to_string(out.size()) + " outputs for " +
              std::to_string(out_shapes.size()));
  const MaskValues resolved = resolve_output_masks(call, out.size());
  if (out_masks) *out_masks = resolved;
  return out;
}

}  // namespace keras::onnx

namespace keras {

void Model::export_(const std::string& filepath) const { saving::export_model(*this, filepath); }

void Model::export_(const std::string& filepath, const saving::ExportOptions& options) const {
  saving::export_model(*this, filepath, options);
}

}  // namespace keras
