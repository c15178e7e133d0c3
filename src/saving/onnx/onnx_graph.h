#pragma once
// An ONNX graph under construction (nodes, initializers, graph inputs and outputs) and its
// serialization as an ONNX ModelProto. Names are ONNX value names; every helper returns the
// name of the value it made, so converters chain calls:
//
//   std::string y = g.node("MatMul", {x, g.initializer("dense/kernel", kernel)});

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <variant>
#include <vector>

#include "keras/core/dtype.h"
#include "keras/core/shape.h"
#include "keras/tensor/tensor.h"

namespace keras::onnx {

class Graph;

/// An attribute of a node: INT, FLOAT, STRING, INTS, FLOATS, STRINGS or GRAPH (the body of a
/// Scan) by the value held.
struct Attribute {
  std::string name;
  std::variant<int64_t, float, std::string, std::vector<int64_t>, std::vector<float>,
               std::vector<std::string>, std::shared_ptr<const Graph>>
      value;
};

/// ONNX's TensorProto.DataType of a keras-cpp dtype (FLOAT = 1, ...).
int onnx_type(DType dtype);

class Graph {
 public:
  /// opset: the version of the default ("ai.onnx") domain the nodes are written for.
  Graph(std::string name, int opset) : name_(std::move(name)), opset_(opset) {}
  int opset() const { return opset_; }

  /// `base` if no value has that name yet, else base_1, base_2, ...
  std::string unique(const std::string& base);

  /// A constant of the graph (an initializer) holding `value`'s data, named after `base`.
  std::string initializer(const std::string& base, const Tensor& value);
  std::string constant_i64(const std::string& base, const std::vector<int64_t>& values);
  std::string constant_f32(const std::string& base, const std::vector<float>& values,
                           const Shape& shape);
  std::string scalar_f32(const std::string& base, float value) {
    return constant_f32(base, {value}, Shape{});
  }

  /// A node with one output, named "<base>/<op_type>" (made unique).
  std::string node(const std::string& op_type, const std::vector<std::string>& inputs,
                   const std::vector<Attribute>& attributes = {}, const std::string& base = {});
  /// A node with `outputs` outputs ("" in `inputs`: an omitted optional input).
  std::vector<std::string> node_n(const std::string& op_type,
                                  const std::vector<std::string>& inputs, int outputs,
                                  const std::vector<Attribute>& attributes = {},
                                  const std::string& base = {});

  /// A graph input / output with this dtype and shape (-1: a dimension named by `dim_names`
  /// at its position, or "d<i>").
  void add_input(const std::string& name, DType dtype, const Shape& shape,
                 const std::vector<std::string>& dim_names = {});
  /// Makes value `value` a graph output named `name` (through an Identity when they differ).
  void add_output(const std::string& value, const std::string& name, DType dtype,
                  const Shape& shape, const std::vector<std::string>& dim_names = {});

  /// The ModelProto: IR version for the opset, opset import, producer, the graph.
  std::string serialize(const std::string& producer_version) const;
  /// The GraphProto alone (a body graph's attribute).
  std::string graph_bytes() const;

  /// An empty graph for the body of a control-flow node (Scan): this opset, and value names
  /// that avoid this graph's (ONNX names are unique across nested graphs). Once the body is
  /// built, adopt_names(body) keeps this graph's later names off the body's.
  std::shared_ptr<Graph> body(const std::string& name) const;
  void adopt_names(const Graph& body) { used_.insert(body.used_.begin(), body.used_.end()); }

 private:
  struct NodeRecord {
    std::string op_type, name;
    std::vector<std::string> inputs, outputs;
    std::vector<Attribute> attributes;
  };
  struct ValueInfo {
    std::string name;
    DType dtype;
    Shape shape;
    std::vector<std::string> dim_names;
  };
  struct Initializer {
    std::string name;
    int data_type;
    std::vector<int64_t> dims;
    std::string raw;
  };
  std::string name_;
  int opset_;
  std::unordered_set<std::string> used_;
  std::vector<NodeRecord> nodes_;
  std::vector<Initializer> initializers_;
  std::vector<ValueInfo> inputs_, outputs_;
};

}  // namespace keras::onnx
