#pragma once
// Keras's op classes (keras.src.ops.*: Add, Mean, NotEqual, Reshape, ...) for Functional graphs.
//
// Keras 3 records every keras.ops call made on symbolic tensors as a node of the graph, whose
// record is the op class and the arguments its constructor received:
//
//   {"module": "keras.src.ops.numpy", "class_name": "Mean", "registered_name": "Mean",
//    "config": {"name": "mean", "axis": 1, "keepdims": true},
//    "inbound_nodes": [{"args": [<keras tensor>], "kwargs": {}}]}
//
// The call's positional arguments are tensors of the graph, lists of them (Concatenate), or
// constants (the 0 of not_equal(x, 0)). This registry maps each class name keras-cpp knows to
// the keras::ops function that computes it from an OperationCall; OperationLayer
// (keras/layers/operation_layer.h) is the graph node that holds one call.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "keras/core/json.h"
#include "keras/core/shape.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {

/// One call of a Keras op class: the constructor config, and the call's arguments where each
/// tensor of the graph is {"__tensor__": k}, k indexing `tensors`.
class OperationCall {
 public:
  /// A view of one call: it keeps references to `config`, `args`, `kwargs` and `tensors`, which
  /// must outlive it.
  OperationCall(std::string class_name, const Config& config, const Config& args,
                const Config& kwargs, const TensorList& tensors);

  /// Keras's op class name ("Mean", "NotEqual").
  const std::string& class_name() const { return class_name_; }
  /// Number of positional arguments of the call.
  size_t num_args() const { return args_.size(); }
  /// True when the op received at least `i + 1` positional arguments and argument i is not null.
  bool has_arg(size_t i) const;

  /// Positional argument i as a tensor: a tensor of the graph, or a constant (a number becomes
  /// a weakly typed scalar as a Python literal does; a nested list becomes an array).
  Tensor tensor(size_t i) const;
  /// Positional argument i as a list of tensors (Concatenate's and Stack's xs); a single tensor
  /// gives a list of one.
  TensorList tensors(size_t i) const;

  /// True when the constructor config or the call's keyword arguments hold `name` (even as
  /// null): a null given is Keras's None, an absent key takes the class's default.
  bool has(const std::string& name) const;
  /// The argument `name`: the constructor config's entry, else the call's keyword argument,
  /// else positional argument `position` of the call (when given and present), else null.
  Config attr(const std::string& name, std::optional<size_t> position = std::nullopt) const;
  /// The tensor argument `name`: keyword argument `name` or positional argument `position`;
  /// an undefined Tensor when absent or null.
  Tensor tensor_attr(const std::string& name, std::optional<size_t> position) const;

  // Typed accessors of attr(); `fallback` when absent or null, ValueError naming the op and the
  // argument when the value has another type.
  /// attr() as an integer: `fallback` when absent or null, ValueError naming the op and argument
  /// for another type.
  int64_t integer(const std::string& name, int64_t fallback,
                  std::optional<size_t> position = std::nullopt) const;
  /// attr() as a number: `fallback` when absent or null, ValueError naming the op and argument for
  /// another type.
  double number(const std::string& name, double fallback,
                std::optional<size_t> position = std::nullopt) const;
  /// attr() as a bool: `fallback` when absent or null, ValueError naming the op and argument for
  /// another type.
  bool flag(const std::string& name, bool fallback,
            std::optional<size_t> position = std::nullopt) const;
  /// attr() as a string: `fallback` when absent or null, ValueError naming the op and argument for
  /// another type.
  std::string string(const std::string& name, const std::string& fallback,
                     std::optional<size_t> position = std::nullopt) const;
  /// An axis argument: null gives nullopt; an integer gives {axis}; a list gives the list.
  std::optional<std::vector<int>> axes(const std::string& name,
                                       std::optional<size_t> position = std::nullopt) const;
  /// An optional integer: nullopt when absent or null.
  std::optional<int64_t> optional_integer(const std::string& name,
                                          std::optional<size_t> position = std::nullopt) const;
  /// A list of integers (a shape, a permutation); an integer gives a list of one.
  std::vector<int64_t> integers(const std::string& name,
                                std::optional<size_t> position = std::nullopt) const;
  /// A dtype name ("float32") or nullopt when absent or null.
  std::optional<DType> dtype(const std::string& name,
                             std::optional<size_t> position = std::nullopt) const;

  /// ValueError "<Class>: <message>".
  [[noreturn]] void fail(const std::string& message) const;

 private:
  Tensor resolve(const Config& value, const std::string& what) const;

  std::string class_name_;
  const Config& config_;
  const Config& args_;
  const Config& kwargs_;
  const TensorList& tensors_;
};

/// Computes an op class's outputs from one call.
using OperationFn = std::function<TensorList(const OperationCall&)>;

/// A registered Keras op class: its names and the function that computes a call of it.
struct OperationSpec {
  /// Keras's class name ("NotEqual").
  std::string class_name;
  /// Keras's module ("keras.src.ops.numpy").
  std::string module;
  /// Computes the class's outputs from one call.
  OperationFn fn;
};

/// Adds or replaces an op class (e.g. a custom Operation subclass saved by Python Keras).
void register_operation(OperationSpec spec);
/// The op class named so, or nullptr.
const OperationSpec* find_operation(const std::string& class_name);
/// Every registered class name, sorted.
std::vector<std::string> registered_operations();

}  // namespace keras::ops

#pragma GCC visibility pop
