#pragma once
// KerasTensor: a symbolic tensor (shape and dtype, no values) for the Functional API. Calling a
// layer on KerasTensors records a Node, so outputs know how they were made, and
// keras::Functional(inputs, outputs) turns that history into a model.
//
// Unknown dimensions (the batch axis of an Input) are -1, printed as None.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "keras/core/dtype.h"
#include "keras/core/shape.h"

#pragma GCC visibility push(default)
namespace keras {

class Layer;
struct Node;

/// -1 in a KerasTensor's shape or a build shape: the dimension is unknown (Keras's None).
inline constexpr int64_t kUnknownDim = -1;

/// "(None, 28, 28, 1)": a shape with unknown dimensions printed as None.
std::string shape_string(const Shape& shape);

/// A symbolic tensor: what Input() and layer calls on symbolic inputs return.
class KerasTensor {
 public:
  /// An undefined tensor (defined() is false).
  KerasTensor() = default;

  /// Whether this handle refers to a symbolic tensor.
  bool defined() const { return static_cast<bool>(state_); }
  /// Shape with -1 for unknown dimensions.
  const Shape& shape() const;
  /// The dtype of the values the tensor stands for.
  DType dtype() const;
  /// The rank, the batch axis included.
  int ndim() const { return shape().rank(); }
  /// The tensor's name ("keras_tensor", "keras_tensor_1", ... unless its producer named it).
  const std::string& name() const;

  /// The call that produced this tensor, and which of its outputs this is.
  const std::shared_ptr<Node>& node() const;
  /// Which output of node() this tensor is (0 for a one-output call).
  int tensor_index() const;
  /// The layer of node() (an InputLayer for Input tensors).
  std::shared_ptr<Layer> producer() const;

  /// True when both handles are the same symbolic tensor.
  bool is_same(const KerasTensor& other) const { return state_ == other.state_; }
  /// A key for maps over tensors of a graph.
  const void* id() const { return state_.get(); }

  /// For Layer: a new tensor produced by output `index` of `node`.
  static KerasTensor make(Shape shape, DType dtype, std::shared_ptr<Node> node, int index,
                          std::string name = {});

 private:
  struct State;
  const State& state() const;
  std::shared_ptr<const State> state_;
};

/// Prints `<KerasTensor shape=(None, 3), dtype=float32, name=keras_tensor>`.
std::ostream& operator<<(std::ostream& out, const KerasTensor& t);

/// One call of a layer on KerasTensors (Keras's Node): its inputs, how it was called, and the
/// specs of its outputs. Outputs point to their node; the node does not point back (no cycle).
struct Node {
  /// The layer that was called.
  std::shared_ptr<Layer> layer;
  /// The call's symbolic inputs, in call order.
  std::vector<KerasTensor> inputs;
  /// The call received a list (Concatenate, MultiHeadAttention, ...) rather than one tensor.
  bool list_call = false;
  /// `training` passed explicitly at this call, if any.
  std::optional<bool> training;
  /// Tensors passed as the call's `mask` keyword (Keras records one when a previous layer
  /// attached a mask, as Embedding(mask_zero) does): one per input, undefined where none. Empty
  /// in keras-cpp's own graphs, where masks travel with the tensors.
  std::vector<KerasTensor> masks;
  /// The shapes of the call's outputs, -1 where unknown.
  std::vector<Shape> output_shapes;
  /// The dtypes of the call's outputs.
  std::vector<DType> output_dtypes;
  /// Position of this node in layer->inbound_nodes().
  int index = 0;
  /// True for the node of an InputLayer (it has no inputs).
  bool is_input() const { return inputs.empty(); }
};

}  // namespace keras

#pragma GCC visibility pop
