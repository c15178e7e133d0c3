#pragma once
// keras::Layer: the base of every layer and model. Subclass it, override build() and call(),
// create weights with add_weight(); autograd supplies the backward pass.
//
//   class Scale : public keras::Layer {
//    public:
//     void build(const keras::Shape& input_shape) override {
//       w_ = add_weight({.shape = {input_shape.back()}, .initializer = "ones", .name = "w"});
//     }
//     keras::Tensor call(const keras::Tensor& x, const keras::CallContext&) override {
//       return keras::ops::multiply(x, w_);
//     }
//    private:
//     keras::Variable w_;
//   };
//   auto scale = keras::make_layer<Scale>();
//   keras::Tensor y = scale(x);
//
// Layers are shared by reference, as in Keras: a LayerPtr is a std::shared_ptr that can also be
// called, and a layer called twice (or placed in two models) shares its weights.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "keras/activations/activation.h"
#include "keras/autograd/variable.h"
#include "keras/constraints/constraint.h"
#include "keras/core/json.h"
#include "keras/initializers/initializer.h"
#include "keras/layers/dtype_policy.h"
#include "keras/layers/keras_tensor.h"
#include "keras/quantizers/quantizers.h"
#include "keras/regularizers/regularizer.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras {

/// The keyword arguments of a layer call besides the inputs.
struct CallContext {
  /// Training or inference behaviour (Dropout, BatchNormalization). Unset: inherited from the
  /// enclosing layer call, else inference.
  std::optional<bool> training;
  /// A boolean mask over the timesteps of a single input (Keras's `mask`). Unset: the mask a
  /// previous layer attached to the input (Embedding(mask_zero), Masking), if any.
  Tensor mask;
  /// Per-input masks of a list call.
  TensorList masks;
};

/// Keyword arguments every layer accepts.
struct LayerOptions {
  /// Unique by default: the class name in snake case, then _1, _2, ... (Keras's auto_name).
  std::string name;
  /// Keras's `trainable`: whether the layer's weights are updated in training (false freezes them).
  bool trainable = true;
  /// A DTypePolicy name; empty for the default.
  std::string dtype;
};

/// add_weight's arguments.
struct WeightOptions {
  /// The weight's shape; every dimension must be known (no -1).
  Shape shape;
  /// How the weight's initial value is drawn (Keras's `initializer`; default "glorot_uniform").
  initializers::InitializerArg initializer = "glorot_uniform";
  /// A penalty on the weight added to the layer's losses(); null for none.
  regularizers::RegularizerArg regularizer;
  /// A projection applied to the weight after each optimizer update; null for none.
  constraints::ConstraintArg constraint;
  /// Whether optimizers update the weight (false for statistics such as BatchNormalization's moving
  /// mean); a frozen layer makes every weight non-trainable.
  bool trainable = true;
  /// Defaults to the layer's variable dtype.
  std::optional<DType> dtype;
  /// The weight's name in the layer's path ("kernel"); empty: an automatic "variable",
  /// "variable_1", ...
  std::string name;
  /// Whether calls under a mixed policy read the weight in the compute dtype (Keras's
  /// add_weight autocast; normalization layers keep their statistics in float32).
  bool autocast = true;
  /// Optimizers assign the gradient instead of updating (Keras's overwrite_with_gradient).
  bool overwrite_with_gradient = false;
};

class Layer;

/// A shared reference to a layer of type T that can be called like the layer.
template <typename T = Layer>
class LayerPtr : public std::shared_ptr<T> {
 public:
  using std::shared_ptr<T>::shared_ptr;
  /// A null reference.
  LayerPtr() = default;
  /// Wraps a shared_ptr to a layer so it can be called.
  LayerPtr(std::shared_ptr<T> p) : std::shared_ptr<T>(std::move(p)) {}  // NOLINT

  /// layer(inputs, ...): Keras's __call__ (see Layer::operator()).
  Tensor operator()(const Tensor& x, const CallContext& ctx = {}) const { return (**this)(x, ctx); }
  /// layer(inputs, ...) on a list of inputs (see Layer::operator()).
  TensorList operator()(const TensorList& xs, const CallContext& ctx = {}) const {
    return (**this)(xs, ctx);
  }
  /// A symbolic call on one KerasTensor (Functional API).
  KerasTensor operator()(const KerasTensor& x, const CallContext& ctx = {}) const {
    return (**this)(x, ctx);
  }
  /// A symbolic call on a list of KerasTensors (Functional API).
  std::vector<KerasTensor> operator()(const std::vector<KerasTensor>& xs,
                                      const CallContext& ctx = {}) const {
    return (**this)(xs, ctx);
  }
};

/// A new layer of type T (a custom layer, usually) owned by a LayerPtr.
template <typename T, typename... Args>
LayerPtr<T> make_layer(Args&&... args) {
  return LayerPtr<T>(std::make_shared<T>(std::forward<Args>(args)...));
}

/// The base of every layer and model.
class Layer : public std::enable_shared_from_this<Layer> {
 public:
  /// `default_name` is the prefix of the automatic name ("dense" for Dense); without it the
  /// name comes from class_name() when first asked for.
  explicit Layer(LayerOptions options = {}, std::string default_name = {});
  /// Virtual: layers are owned and deleted through Layer pointers.
  virtual ~Layer();
  /// Not copyable: layers are shared by reference (LayerPtr).
  Layer(const Layer&) = delete;
  /// Not copy-assignable: layers are shared by reference (LayerPtr).
  Layer& operator=(const Layer&) = delete;

  /// The Keras class name ("Dense"); configs and summaries show it. Subclasses override it;
  /// the default is the C++ class name.
  virtual std::string class_name() const;

  // ---- what a subclass implements ------------------------------------------------------------
  /// Creates the weights for an input of `input_shape` (-1 for unknown dimensions).
  virtual void build(const Shape& input_shape);
  /// build for layers that take a list of inputs (default: build(input_shapes[0]) for one).
  virtual void build_list(const std::vector<Shape>& input_shapes);
  /// The forward pass on one input.
  virtual Tensor call(const Tensor& inputs, const CallContext& ctx);
  /// The forward pass on a list of inputs, or with several outputs (default: call() on one).
  virtual TensorList call_list(const TensorList& inputs, const CallContext& ctx);
  /// The mask of the output, given the input's (default: passed through when the layer
  /// supports masking, else none).
  virtual Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const;
  /// compute_mask for a list call: one output mask per input (default: compute_mask() of each input
  /// with its mask).
  virtual TensorList compute_mask_list(const TensorList& inputs, const TensorList& masks) const;
  /// The layer's constructor arguments (Keras's get_config): name, trainable, dtype, plus what
  /// the subclass adds.
  virtual Config get_config() const;

  // ---- calling -----------------------------------------------------------------------------
  /// Builds on first use, resolves training and masks, and calls call().
  Tensor operator()(const Tensor& inputs, const CallContext& ctx = {});
  /// Builds on first use and calls call_list() on a list of inputs; returns every output.
  TensorList operator()(const TensorList& inputs, const CallContext& ctx = {});
  /// A symbolic call (Functional API): builds from the shape and records a Node.
  KerasTensor operator()(const KerasTensor& inputs, const CallContext& ctx = {});
  /// A symbolic call on a list of inputs (Functional API): one KerasTensor per output.
  std::vector<KerasTensor> operator()(const std::vector<KerasTensor>& inputs,
                                      const CallContext& ctx = {});

  /// layer(x) on one input (not a list), with every output: Keras's call of a layer that
  /// returns a list for one tensor (an RNN with return_state); one element otherwise.
  TensorList call_all(const Tensor& inputs, const CallContext& ctx = {});
  /// A symbolic call_all: every output of a one-input symbolic call.
  std::vector<KerasTensor> call_all(const KerasTensor& inputs, const CallContext& ctx = {});

  /// Builds the layer for `input_shapes` if it is not built yet (once, even when threads race):
  /// build_list(input_shapes) when the layer was called on a list (`list_input`), else
  /// build(input_shapes[0]).
  void ensure_built(const std::vector<Shape>& input_shapes, bool list_input);
  /// Whether build() has run (Keras's `built`).
  bool built() const { return built_; }
  /// The shapes build() received (for summaries and the saved build_config).
  const std::vector<Shape>& build_input_shapes() const { return build_shapes_; }

  // ---- weights -----------------------------------------------------------------------------
  /// Creates a weight owned by this layer (Keras's add_weight).
  Variable add_weight(WeightOptions options);
  /// Own weights then every tracked sublayer's, trainable first (Keras's order).
  std::vector<Variable> weights() const;
  /// The weights() that optimizers update; none when the layer is frozen (trainable() false).
  std::vector<Variable> trainable_weights() const;
  /// The weights() that optimizers leave alone; all of them when the layer is frozen.
  std::vector<Variable> non_trainable_weights() const;
  /// This layer's own weights, trainable then non-trainable (what its saved `vars` hold).
  std::vector<Variable> own_weights() const;
  /// The values of weights(), in order.
  std::vector<Tensor> get_weights() const;
  /// Assigns weights() in order; ValueError naming the weight on a count or shape mismatch.
  void set_weights(const std::vector<Tensor>& values);

  // ---- quantization (keras/quantizers) ----------------------------------------------------
  /// Keras's Layer.quantize(mode, config): checks that the layer is built and not quantized
  /// and that `mode` is valid, resolves a null config to the mode's default, then replaces the
  /// float weights by quantized ones and sets the policy to "<mode>_from_<policy>".
  /// NotImplementedError for a layer that cannot be quantized (Model::quantize skips those).
  virtual void quantize(const std::string& mode,
                        quantizers::QuantizationConfigPtr config = nullptr);
  /// Number of scalars in weights().
  int64_t count_params() const;

  /// The variables written under this layer's "vars" group of a saved file, in order (Keras's
  /// save_own_variables): variables_to_load() unless the saved form differs (a LoRA layer writes
  /// its kernel with the adapters merged in, and not the adapters).
  virtual std::vector<Variable> variables_to_save() const { return variables_to_load(); }
  /// The variables a saved "vars" group is read into, in order (Keras's load_own_variables):
  /// own_weights() unless the file's order differs (a quantized Dense: kernel, bias,
  /// kernel_scale).
  virtual std::vector<Variable> variables_to_load() const { return own_weights(); }
  /// Runs after a load assigned variables_to_load() (a LoRA layer zeroes its adapters).
  virtual void variables_loaded() {}

  /// Keras 3's stateless call: runs the layer with its trainable and non-trainable weights
  /// replaced by these values (in trainable_weights()/non_trainable_weights() order) and
  /// returns the outputs and the non-trainable values after the call (e.g. updated
  /// BatchNormalization statistics). The layer's own variables are left unchanged; gradients
  /// flow to the values passed in.
  struct StatelessResult {
    /// The layer's outputs.
    TensorList outputs;
    /// The non-trainable values after the call, in non_trainable_weights() order.
    TensorList non_trainable_variables;
  };
  /// Runs the layer on `inputs` with these weight values (see StatelessResult); ValueError when
  /// the layer is not built or a value count differs from the layer's.
  StatelessResult stateless_call(const TensorList& trainable_variables,
                                 const TensorList& non_trainable_variables,
                                 const TensorList& inputs, const CallContext& ctx = {});

  /// Whether the layer is trainable (Keras's `trainable`); false freezes every weight.
  bool trainable() const { return trainable_; }
  /// Freezes or unfreezes this layer and every sublayer.
  virtual void set_trainable(bool trainable);

  // ---- sublayers ---------------------------------------------------------------------------
  /// Registers a sublayer under an attribute name (as Keras tracks `self.name = layer`), so
  /// its weights belong to this layer; returns it.
  template <typename T>
  LayerPtr<T> track(const std::string& attribute, LayerPtr<T> layer) {
    track_layer(attribute, layer);
    return layer;
  }
  /// The untyped form of track(): registers `layer` under `attribute`, replacing a sublayer already
  /// tracked under that name.
  void track_layer(const std::string& attribute, std::shared_ptr<Layer> layer);
  /// Tracked sublayers and their attribute names, in tracking order.
  const std::vector<std::pair<std::string, std::shared_ptr<Layer>>>& tracked_layers() const {
    return sublayers_;
  }

  // ---- losses ------------------------------------------------------------------------------
  /// Adds a loss tensor from the current call (activity regularization).
  void add_loss(const Tensor& loss);
  /// This layer's and its sublayers' losses: weight regularization penalties and the losses
  /// added during the last call.
  TensorList losses() const;
  /// Regularizes this layer's outputs (Keras's activity_regularizer).
  void set_activity_regularizer(regularizers::RegularizerArg regularizer);
  /// The activity regularizer, or null.
  const regularizers::RegularizerPtr& activity_regularizer() const {
    return activity_regularizer_;
  }

  // ---- masking -----------------------------------------------------------------------------
  /// Whether the layer propagates masks to its outputs (Keras's `supports_masking`).
  bool supports_masking() const { return supports_masking_; }

  // ---- identity ----------------------------------------------------------------------------
  /// The layer's name (Keras's `name`), unique per session; an unnamed layer gets its automatic
  /// name on the first call.
  const std::string& name() const;
  /// The dtype policy: the variable and compute dtypes, and the quantization mode (Keras's
  /// `dtype_policy`).
  const DTypePolicy& dtype_policy() const { return policy_; }
  /// The quantization mode of the dtype policy ("int8", "int4", "float8"), empty when the
  /// layer is not quantized (Keras's quantization_mode).
  const std::string& quantization_mode() const { return policy_.quantization_mode; }
  /// The dtype the layer computes in (Keras's `compute_dtype`; "float16" under "mixed_float16").
  DType compute_dtype() const { return policy_.compute_dtype; }
  /// `x` in the compute dtype when it is a float of another width (Keras's input autocast);
  /// integer and bool inputs are returned as they are.
  Tensor autocast(const Tensor& x) const;
  /// Whether calls cast floating inputs to the compute dtype and read weights in it (Keras's
  /// `layer.autocast`; LayerNormalization and Embedding turn it off).
  bool autocasts() const { return autocast_; }
  /// The dtype the layer's weights are stored in (Keras's `variable_dtype`; "float32" under
  /// "mixed_float16").
  DType variable_dtype() const { return policy_.variable_dtype; }

  // ---- the Functional graph ----------------------------------------------------------------
  /// The symbolic calls of this layer, oldest first.
  std::vector<std::shared_ptr<Node>> inbound_nodes() const;
  /// The output of this layer's single symbolic call (Keras's layer.output); ValueError when it
  /// was called zero or several times.
  KerasTensor output() const;
  /// The input of this layer's single symbolic call.
  KerasTensor input() const;

 protected:
  /// The quantize() of a subclass, with `config` resolved (never null); the default throws
  /// NotImplementedError.
  virtual void quantize_weights(const std::string& mode,
                                const quantizers::QuantizationConfigPtr& config);
  /// Replaces the dtype policy (quantize() sets "<mode>_from_<source>").
  void set_dtype_policy(DTypePolicy policy) { policy_ = std::move(policy); }
  /// Stops tracking a weight (Keras's `del self._kernel` before a quantized build).
  void remove_weight(const Variable& weight);
  /// True for layers that return several outputs for one input through call_list() (an RNN
  /// with return_state): a single-input call then runs call_list({x}) and keeps them all.
  virtual bool returns_list_for_one_input() const { return false; }
  /// Records the node an InputLayer starts with (it has no symbolic call).
  void register_input_node(const std::shared_ptr<Node>& node) { inbound_nodes_.push_back(node); }
  /// Marks the layer as propagating masks (Keras's self.supports_masking = True).
  void set_supports_masking(bool supports) { supports_masking_ = supports; }
  /// Marks the layer built without calling build() (layers with no weights that need none).
  void set_built(bool built) { built_ = built; }
  /// Keras's `self.autocast = False`: inputs keep their dtype and weights are read as stored.
  void set_autocast(bool autocast) { autocast_ = autocast; }
  /// Keras's `self._convert_input_args = False`: the layer (a model, a lookup layer) converts
  /// its inputs itself; the call leaves them as they are.
  void set_convert_input_args(bool convert) { convert_input_args_ = convert; }

 private:
  /// call() on one input, or call_list({x}) where returns_list_for_one_input().
  TensorList call_one(const Tensor& x, const CallContext& ctx);
  TensorList call_eager(const TensorList& inputs, bool list_call, const CallContext& ctx);
  /// call_list/call_one with Keras's input conversion and AutocastScope around the call.
  TensorList call_autocast(const TensorList& inputs, bool list_call, const CallContext& ctx);
  std::vector<KerasTensor> call_symbolic(const std::vector<KerasTensor>& inputs,
                                         bool list_call, const CallContext& ctx);

  mutable std::string name_;
  bool trainable_ = true;
  DTypePolicy policy_;
  bool built_ = false;
  bool supports_masking_ = false;
  bool autocast_ = true;
  bool convert_input_args_ = true;
  std::vector<Shape> build_shapes_;
  std::vector<Variable> trainable_vars_, non_trainable_vars_;
  std::vector<std::pair<Variable, regularizers::RegularizerPtr>> regularized_;
  std::vector<std::pair<std::string, std::shared_ptr<Layer>>> sublayers_;
  regularizers::RegularizerPtr activity_regularizer_;
  TensorList call_losses_;
  std::vector<std::weak_ptr<Node>> inbound_nodes_;
};

/// The snake-case form Keras names layers and saved objects by ("Conv2D" -> "conv2d",
/// "BatchNormalization" -> "batch_normalization").
std::string to_snake_case(const std::string& class_name);
/// A unique name for a new object with this prefix: "dense", "dense_1", ... (Keras's auto_name;
/// the counters are per process, reset by keras::backend::clear_session()).
std::string unique_name(const std::string& prefix);

namespace backend {
/// Resets the automatic name counters (keras.backend.clear_session).
void clear_session();
}  // namespace backend

}  // namespace keras

#pragma GCC visibility pop
