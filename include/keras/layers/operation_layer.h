#pragma once
// OperationLayer: one call of a Keras op class (keras/ops/operation.h) as a node of a
// Functional graph, as Keras 3 records keras.ops calls on symbolic tensors. Reading a Keras
// file creates one for each op record; keras::ops' KerasTensor overloads
// (keras/ops/symbolic.h) create one per call in C++:
//
//   auto x = keras::Input({5});
//   auto y = keras::ops::mean(keras::layers::Dense(3)(x), 1, /*keepdims=*/true);  // a Mean node
//
// The node's tensors are the layer's inputs in the order they appear in the call's arguments;
// the arguments themselves (constants included) are kept as Keras writes them.

#include <string>

#include "keras/layers/layer.h"
#include "keras/ops/operation.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// A Keras op (keras.ops.mean, ...) called on symbolic tensors, as a layer of a Functional graph
/// (Keras 3 records these ops as nodes).
class OperationLayer : public Layer {
 public:
  /// `class_name` must be registered (ops::find_operation); `config` is the constructor config
  /// Keras writes (its "name" names the layer); `call_args`/`call_kwargs` are the call's
  /// arguments with tensor k written {"__tensor__": k}.
  OperationLayer(std::string class_name, Config config, Config call_args = Config::array(),
                 Config call_kwargs = Config::object());

  std::string class_name() const override { return class_name_; }
  /// Keras's module of the class ("keras.src.ops.numpy").
  const std::string& module() const { return spec_->module; }
  /// The constructor config (with the layer's name).
  Config get_config() const override;

  /// The call's arguments with tensor k replaced by `tensor_record(k)` (how a Functional
  /// config writes the node).
  Config call_args(const std::function<Config(size_t)>& tensor_record) const;
  /// The call's keyword arguments with tensor k replaced by `tensor_record(k)`.
  Config call_kwargs(const std::function<Config(size_t)>& tensor_record) const;
  /// Sets the call's arguments (from a node of a file); the number of tensors they hold.
  size_t set_call(Config call_args, Config call_kwargs);
  /// How many tensors the call reads.
  size_t num_tensors() const { return num_tensors_; }

  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  TensorList call_list(const TensorList& inputs, const CallContext& ctx) override;

  /// The record of a file (module keras.src.ops.*) as a layer; NotImplementedError naming the
  /// class when keras-cpp does not implement it.
  static std::shared_ptr<Layer> from_record(const Config& record);
  /// True for records of Keras op classes ("module" keras.src.ops.*).
  static bool is_operation_record(const Config& record);

 protected:
  bool returns_list_for_one_input() const override { return true; }

 private:
  std::string class_name_;
  const ops::OperationSpec* spec_;
  Config config_, args_, kwargs_;
  size_t num_tensors_ = 0;
};

}  // namespace keras::layers

#pragma GCC visibility pop
