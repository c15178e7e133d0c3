#include "onnx_graph.h"

#include <stdexcept>

#include "keras/core/errors.h"
#include "protobuf.h"

namespace keras::onnx {
namespace {

// Field numbers of onnx.proto (ONNX 1.x; stable across versions).
namespace model_f { enum { ir_version = 1, producer_name = 2, producer_version = 3, graph = 7, opset_import = 8 }; }
namespace opset_f { enum { domain = 1, version = 2 }; }
namespace graph_f { enum { node = 1, name = 2, initializer = 5, input = 11, output = 12 }; }
namespace node_f { enum { input = 1, output = 2, name = 3, op_type = 4, attribute = 5 }; }
namespace attr_f { enum { name = 1, f = 2, i = 3, s = 4, g = 6, floats = 7, ints = 8, strings = 9, type = 20 }; }
namespace attr_type { enum { FLOAT = 1, INT = 2, STRING = 3, GRAPH = 5, FLOATS = 6, INTS = 7, STRINGS = 8 }; }
namespace tensor_f { enum { dims = 1, data_type = 2, name = 8, raw_data = 9 }; }
namespace value_f { enum { name = 1, type = 2 }; }
namespace type_f { enum { tensor_type = 1 }; }
namespace tensor_type_f { enum { elem_type = 1, shape = 2 }; }
namespace shape_f { enum { dim = 1 }; }
namespace dim_f { enum { dim_value = 1, dim_param = 2 }; }

// The IR version each opset was released with (onnx/helper.py's VERSION_TABLE).
int ir_version_for(int opset) {
  if (opset <= 8) return 3;
  if (opset <= 10) return 5;
  if (opset <= 11) return 6;
  if (opset <= 14) return 7;
  if (opset <= 18) return 8;
  if (opset <= 20) return 9;
  return 10;
}

ProtoWriter attribute(const Attribute& a) {
  ProtoWriter w;
  w.bytes(attr_f::name, a.name);
  std::visit(
      [&](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, int64_t>) {
          w.varint(attr_f::i, v);
          w.varint(attr_f::type, attr_type::INT);
        } else if constexpr (std::is_same_v<V, float>) {
          w.float32(attr_f::f, v);
          w.varint(attr_f::type, attr_type::FLOAT);
        } else if constexpr (std::is_same_v<V, std::string>) {
          w.bytes(attr_f::s, v);
          w.varint(attr_f::type, attr_type::STRING);
        } else if constexpr (std::is_same_v<V, std::vector<int64_t>>) {
          for (int64_t x : v) w.varint(attr_f::ints, x);
          w.varint(attr_f::type, attr_type::INTS);
        } else if constexpr (std::is_same_v<V, std::vector<float>>) {
          for (float x : v) w.float32(attr_f::floats, x);
          w.varint(attr_f::type, attr_type::FLOATS);
        } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
          for (const std::string& x : v) w.bytes(attr_f::strings, x);
          w.varint(attr_f::type, attr_type::STRINGS);
        } else {
          w.bytes(attr_f::g, v->graph_bytes());  // a GraphProto message
          w.varint(attr_f::type, attr_type::GRAPH);
        }
      },
      a.value);
  return w;
}

ProtoWriter value_info(const std::string& name, DType dtype, const Shape& shape,
                       const std::vector<std::string>& dim_names) {
  ProtoWriter shape_w;
  for (int i = 0; i < shape.rank(); ++i) {
    ProtoWriter dim;
    if (shape[i] >= 0)
      dim.varint(dim_f::dim_value, shape[i]);
    else
      dim.bytes(dim_f::dim_param, static_cast<size_t>(i) < dim_names.size() && !dim_names[i].empty()
                                      ? dim_names[i]
                                      : "d" + std::to_string(i));
    shape_w.message(shape_f::dim, dim);
  }
  ProtoWriter tensor_type;
  tensor_type.varint(tensor_type_f::elem_type, onnx_type(dtype));
  tensor_type.message(tensor_type_f::shape, shape_w);
  ProtoWriter type;
  type.message(type_f::tensor_type, tensor_type);
  ProtoWriter w;
  w.bytes(value_f::name, name);
  w.message(value_f::type, type);
  return w;
}

}  // namespace

int onnx_type(DType dtype) {
  switch (dtype) {
    case DType::Float32: return 1;
    case DType::UInt8: return 2;
    case DType::Int8: return 3;
    case DType::Int16: return 5;
    case DType::Int32: return 6;
    case DType::Int64: return 7;
    case DType::Bool: return 9;
    case DType::Float16: return 10;
    case DType::Float64: return 11;
    case DType::BFloat16: return 16;
    case DType::Complex64: return 14;
    case DType::Complex128: return 15;
    case DType::String: return 8;
  }
  throw std::logic_error("onnx_type: unknown dtype");
}

std::string Graph::unique(const std::string& base) {
  std::string name = base.empty() ? "value" : base;
  for (int i = 1; used_.count(name); ++i) name = base + "_" + std::to_string(i);
  used_.insert(name);
  return name;
}

std::string Graph::initializer(const std::string& base, const Tensor& value) {
  Initializer init{unique(base), onnx_type(value.dtype()), value.shape().to_vector(), {}};
  init.raw.resize(static_cast<size_t>(value.shape().numel()) * itemsize(value.dtype()));
  if (!init.raw.empty()) value.copy_to_host(init.raw.data(), value.dtype());
  initializers_.push_back(std::move(init));
  return initializers_.back().name;
}

std::string Graph::constant_i64(const std::string& base, const std::vector<int64_t>& values) {
  Initializer init{unique(base), onnx_type(DType::Int64),
                   {static_cast<int64_t>(values.size())}, {}};
  init.raw.assign(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(int64_t));
  initializers_.push_back(std::move(init));
  return initializers_.back().name;
}

std::string Graph::constant_f32(const std::string& base, const std::vector<float>& values,
                                const Shape& shape) {
  if (shape.numel() != static_cast<int64_t>(values.size()))
    throw std::logic_error("constant_f32: " + std::to_string(values.size()) +
                           " values for shape " + shape.to_string());
  Initializer init{unique(base), onnx_type(DType::Float32), shape.to_vector(), {}};
  init.raw.assign(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
  initializers_.push_back(std::move(init));
  return initializers_.back().name;
}

std::string Graph::node(const std::string& op_type, const std::vector<std::string>& inputs,
                        const std::vector<Attribute>& attributes, const std::string& base) {
  return node_n(op_type, inputs, 1, attributes, base)[0];
}

std::vector<std::string> Graph::node_n(const std::string& op_type,
                                       const std::vector<std::string>& inputs, int outputs,
                                       const std::vector<Attribute>& attributes,
                                       const std::string& base) {
  // Values are named "<layer>/<op_type>" (":<i>" for further outputs), so they never take the
  // plain layer names that graph inputs and outputs carry; a node is named after its first
  // output (ONNX keeps node and value names apart).
  const std::string stem = (base.empty() ? "" : base + "/") + op_type;
  NodeRecord n{op_type, {}, inputs, {}, attributes};
  for (int i = 0; i < outputs; ++i)
    n.outputs.push_back(unique(i == 0 ? stem : stem + ":" + std::to_string(i)));
  n.name = n.outputs[0];
  nodes_.push_back(std::move(n));
  return nodes_.back().outputs;
}

void Graph::add_input(const std::string& name, DType dtype, const Shape& shape,
                      const std::vector<std::string>& dim_names) {
  used_.insert(name);
  inputs_.push_back({name, dtype, shape, dim_names});
}

void Graph::add_output(const std::string& value, const std::string& name, DType dtype,
                       const Shape& shape, const std::vector<std::string>& dim_names) {
  std::string out = value;
  if (value != name) {
    if (used_.count(name))
      throw ValueError("export: the output name \"" + name + "\" is already used by another " +
                       "value of the graph; rename the model's output layer.");
    used_.insert(name);
    nodes_.push_back({"Identity", name + "/Identity", {value}, {name}, {}});
    out = name;
  }
  outputs_.push_back({out, dtype, shape, dim_names});
}

std::shared_ptr<Graph> Graph::body(const std::string& name) const {
  auto g = std::make_shared<Graph>(name, opset_);
  g->used_ = used_;
  return g;
}

std::string Graph::graph_bytes() const {
  ProtoWriter graph;
  for (const NodeRecord& n : nodes_) {
    ProtoWriter w;
    for (const std::string& in : n.inputs) w.bytes(node_f::input, in);
    for (const std::string& out : n.outputs) w.bytes(node_f::output, out);
    w.bytes(node_f::name, n.name);
    w.bytes(node_f::op_type, n.op_type);
    for (const Attribute& a : n.attributes) w.message(node_f::attribute, attribute(a));
    graph.message(graph_f::node, w);
  }
  graph.bytes(graph_f::name, name_);
  for (const Initializer& init : initializers_) {
    ProtoWriter w;
    for (int64_t d : init.dims) w.varint(tensor_f::dims, d);
    w.varint(tensor_f::data_type, init.data_type);
    w.bytes(tensor_f::name, init.name);
    w.bytes(tensor_f::raw_data, init.raw);
    graph.message(graph_f::initializer, w);
  }
  for (const ValueInfo& v : inputs_)
    graph.message(graph_f::input, value_info(v.name, v.dtype, v.shape, v.dim_names));
  for (const ValueInfo& v : outputs_)
    graph.message(graph_f::output, value_info(v.name, v.dtype, v.shape, v.dim_names));
  return graph.data();
}

std::string Graph::serialize(const std::string& producer_version) const {
  ProtoWriter opset;
  opset.bytes(opset_f::domain, "");
  opset.varint(opset_f::version, opset_);
  ProtoWriter model;
  model.varint(model_f::ir_version, ir_version_for(opset_));
  model.bytes(model_f::producer_name, "keras-cpp");
  model.bytes(model_f::producer_version, producer_version);
  model.bytes(model_f::graph, graph_bytes());
  model.message(model_f::opset_import, opset);
  return model.data();
}

}  // namespace keras::onnx
