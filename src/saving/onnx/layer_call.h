#pragma once
// What a converter sees of one layer call of the model being exported (its config, weights,
// the ONNX values of its inputs, the Keras shapes) and the helpers converters share.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "keras/core/json.h"
#include "keras/core/shape.h"
#include "keras/layers/keras_tensor.h"
#include "keras/layers/layer.h"
#include "onnx_graph.h"

namespace keras::onnx {

/// Keras masks of a call's tensors as ONNX bool values, one per tensor, "" where none.
using MaskValues = std::vector<std::string>;

struct LayerCall {
  const Layer& layer;
  Config config;                         // layer.get_config()
  std::vector<std::string> inputs;       // ONNX values, one per input tensor
  std::vector<Shape> input_shapes;       // Keras shapes, -1 for unknown dimensions
  std::vector<Shape> output_shapes;
  Graph& g;
  /// The graph node of this call in a Functional model (its recorded call flags), else null.
  const Node* node = nullptr;
  /// The dtypes of the inputs, where the walk knows them (Functional graphs).
  std::vector<DType> input_dtypes = {};
  /// The Keras masks the call receives (those attached to its inputs when the layer supports
  /// masking, or passed explicitly in a Keras-saved graph); empty or all "" for none.
  MaskValues input_masks = {};
  /// Set by a converter that makes or reads masks: the masks of its outputs (masks.cpp decides
  /// for the others: none, the input's for layers that pass it on, else a refusal).
  std::optional<MaskValues> output_masks = std::nullopt;

  /// True when the call receives at least one mask.
  bool masked() const;

  /// The layer's weight named `name` (Variable::name: "kernel", "bias", ...) as a tensor
  /// (layer_weight: with a LoRA update merged in).
  Tensor weight(const std::string& name) const;
  bool has_weight(const std::string& name) const;
  /// A weight as an initializer of the graph, named "<layer>/<name>".
  std::string weight_value(const std::string& name) const;
  /// `value` (a weight rearranged for ONNX) as a float32 initializer named "<layer>/<name>".
  std::string initializer(const std::string& name, const Tensor& value) const;
  /// Prefix of the values this call makes ("<layer name>").
  const std::string& scope() const { return layer.name(); }
  /// Throws ValueError: the layer (name and class) cannot be exported, and why.
  [[noreturn]] void fail(const std::string& why) const;
  /// Fails for a quantized layer (int8, int4, float8): its inference rounds inputs and weights
  /// onto a quantized grid that a float32 graph would silently drop.
  void refuse_quantized() const;
  /// config[key], failing with a message naming the key when absent.
  const Config& at(const std::string& key) const;
  /// The rank of input 0 (failing when unknown).
  int rank() const;
};

/// `layer`'s weight named `name` (of it or a sublayer) as the layer computes with it: with LoRA
/// enabled, the base plus (lora_alpha / rank) * A @ B. Undefined when it has none.
Tensor layer_weight(const Layer& layer, const std::string& name);

/// The value `x` after Keras activation `name` ("linear" and "" leave it as it is).
std::string apply_activation(LayerCall& c, const std::string& x, const std::string& name);
/// The built-in activation `config` names ("linear" when null or absent); fails on others.
std::string activation_name(const LayerCall& c, const Config& config);
/// `x` after the activation of the converted layer's own config.
inline std::string apply_config_activation(LayerCall& c, const std::string& x) {
  return apply_activation(c, x, activation_name(c, c.config));
}

/// A float32 tensor as an initializer named `base` (export writes float32 models: another
/// dtype fails naming the weight and the fix).
std::string float_initializer(const LayerCall& c, const std::string& base, const Tensor& value);

/// `x` in reverse order along `axis` (a Slice with step -1).
std::string reverse_axis(Graph& g, const std::string& x, int64_t axis, const std::string& base);

/// `x` with its axes permuted.
std::string transpose(Graph& g, const std::string& x, const std::vector<int64_t>& perm,
                      const std::string& base);
/// channels_last (N, spatial..., C) to channels_first (N, C, spatial...) of `rank` axes, and back.
std::vector<int64_t> to_channels_first(int rank);
std::vector<int64_t> to_channels_last(int rank);

/// A reduction node (ReduceMean, ReduceMax, ...) over `axes`, with the axes as an attribute
/// or as an input as the graph's opset wants.
std::string reduce(Graph& g, const std::string& op, const std::string& x,
                   const std::vector<int64_t>& axes, bool keepdims, const std::string& base);

/// config[key] as a list of `n` integers (an integer repeats), as Keras's conv arguments.
std::vector<int64_t> int_tuple(const LayerCall& c, const std::string& key, int n);

/// The masks of the outputs of a converted call: the converter's own (output_masks), none when
/// it received none, the input's for classes whose call ignores the mask and passes it on
/// (Dense, activations, normalization, dropout...); any other class that receives a mask fails
/// naming it, since its converter would drop what the mask changes.
MaskValues resolve_output_masks(const LayerCall& c, size_t outputs);

/// `x` (a boolean mask) as a float32 0/1 tensor.
std::string mask_as_float(Graph& g, const std::string& mask, const std::string& base);

/// A converter: appends the layer's nodes, returns its outputs' values.
using Converter = std::vector<std::string> (*)(LayerCall&);
/// The converter of a Keras class name, or null.
Converter find_converter(const std::string& class_name);
/// The converter of a keras.ops node's class (Functional graphs' OperationLayer), or null.
Converter find_op_converter(const std::string& class_name);

// The converters by family (each file registers its own).
void register_core(std::map<std::string, Converter>& table);
void register_conv(std::map<std::string, Converter>& table);
void register_normalization(std::map<std::string, Converter>& table);
void register_rnn(std::map<std::string, Converter>& table);
void register_attention(std::map<std::string, Converter>& table);
void register_wrappers(std::map<std::string, Converter>& table);
void register_preprocessing(std::map<std::string, Converter>& table);
void register_adaptive_pooling(std::map<std::string, Converter>& table);
void register_masking(std::map<std::string, Converter>& table);
void register_conv_lstm(std::map<std::string, Converter>& table);

}  // namespace keras::onnx
