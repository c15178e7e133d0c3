#pragma once
// LoRA (low-rank adaptation), as Keras 3.15's enable_lora on Dense, EinsumDense, Embedding and
// Conv1D/2D/3D: the layer's base weight W is frozen and two trainable adapters A (W's shape
// with the last axis replaced by `rank`) and B (rank, W's last axis) are added; the layer then
// computes with W + (lora_alpha / rank) * A @ B.
//
//   auto dense = layers::Dense(64);
//   dense(x);                                // built
//   dense->enable_lora(4);                   // kernel frozen; lora_kernel_a/_b trainable
//   dense->enable_lora(4, {.lora_alpha = 8});   // (once per layer: a second call throws)
//
// Saving writes the merged weight only (as Keras's save_own_variables), so a file with LoRA
// loads into a plain layer and computes the same; loading into a layer with LoRA enabled
// (a config with lora_rank) assigns the merged weight to the base and zeroes both adapters,
// as Keras's load_own_variables does.
//
// QLoRA (Keras 3.15): on an int8 or int4 layer the adapters train over the frozen quantized
// base, in either order (quantize() of a layer with LoRA quantizes the base and keeps the
// adapters); the quantized call adds inputs @ A @ B * lora_alpha / rank before the bias.
// Saving dequantizes the base, adds the update and quantizes again (new values, scales and
// zero points). float8 with LoRA is refused (NotImplementedError), which Keras does at call.

#include <optional>
#include <string>

#include "keras/layers/layer.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// enable_lora's keyword arguments after rank (Keras's names and defaults).
struct LoraOptions {
  /// The update is scaled by lora_alpha / rank; unset: rank (a scale of 1). An integer stays an
  /// integer in the config, as in Keras.
  std::optional<Scalar> lora_alpha;
  /// Initializer of the first adapter, A (Keras's `a_initializer`).
  initializers::InitializerArg a_initializer = "he_uniform";
  /// Initializer of the second adapter, B (Keras's `b_initializer`); zeros: the update starts at 0.
  initializers::InitializerArg b_initializer = "zeros";
};

/// The base of the layers that support LoRA: the state Keras keeps on each of them (lora_rank,
/// lora_alpha, lora_enabled, the two adapters) and what saving does with it.
class LoraLayer : public Layer {
 public:
  /// Keras's enable_lora: adds the trainable adapters and freezes the base weight. ValueError
  /// when the layer is not built, LoRA is already enabled, rank is not positive, or the base
  /// weight has a constraint.
  void enable_lora(int64_t rank, LoraOptions options = {});
  /// Whether enable_lora() has added the adapters (Keras's `lora_enabled`).
  bool lora_enabled() const { return lora_a_.defined(); }
  /// 0 while none is set (Keras's None).
  int64_t lora_rank() const { return lora_rank_; }
  /// Unset while lora_rank is.
  const std::optional<Scalar>& lora_alpha() const { return lora_alpha_; }

  /// Keras's save_own_variables: the base weight with the adapters merged in, in the base's
  /// place (an int8 / int4 layer: its quantized variables requantized), and no adapters.
  std::vector<Variable> variables_to_save() const override;
  /// Keras's load_own_variables: the own weights without the adapters.
  std::vector<Variable> variables_to_load() const override;
  /// Zeroes both adapters after a load (the file's weight already holds their update).
  void variables_loaded() override;
  /// Layer::quantize; with LoRA enabled the base is quantized and the adapters kept (Keras's
  /// QLoRA), except for "float8": NotImplementedError (Keras's float8 call has no LoRA).
  void quantize(const std::string& mode,
                quantizers::QuantizationConfigPtr config = nullptr) override;

 protected:
  /// `lora_rank` > 0 enables LoRA when the layer is built (Keras's lora_rank argument).
  LoraLayer(LayerOptions options, std::string default_name, int64_t lora_rank,
            std::optional<Scalar> lora_alpha);

  /// What a subclass adapts.
  struct LoraTarget {
    /// The adapted weight (the kernel or the embeddings matrix).
    const Variable* base = nullptr;
    /// "lora_kernel" or "lora_embeddings": the adapters are \<prefix\>_a and \<prefix\>_b.
    std::string prefix;
    /// The regularizer the adapters get (the base weight's).
    regularizers::RegularizerArg regularizer;
    /// The base's constraint, which LoRA refuses, and its argument's name for the message.
    bool constrained = false;
    /// The constraint's argument name ("kernel_constraint"), for the error message.
    std::string constraint_argument;
    /// The adapted weight's float shape when it is not the base's (int4: the unpacked kernel,
    /// Keras's _orig_input_dim / original_kernel_shape); empty: the base's shape.
    Shape shape;
  };
  /// The weight LoRA adapts and how the adapters are named; each LoRA layer says which.
  virtual LoraTarget lora_target() const = 0;
  /// The target of the kernel layers: "lora_kernel" adapters with the kernel's regularizer.
  static LoraTarget kernel_target(const Variable& kernel,
                                  const regularizers::RegularizerArg& kernel_regularizer,
                                  const constraints::ConstraintArg& kernel_constraint);

  /// Keras's build tail: enable_lora(lora_rank) when a rank was given. Dense and Embedding
  /// pass no alpha there (so it becomes the rank), EinsumDense and the convolutions do.
  void enable_configured_lora(bool pass_alpha);
  /// `base` with the scaled update added, in the compute dtype (Keras's kernel property);
  /// base's value when LoRA is off.
  Tensor lora_merged(const Variable& base) const { return lora_merged(base.value()); }
  /// The same for a base value (a quantized layer's int values, unpacked for int4).
  Tensor lora_merged(const Tensor& base) const;
  /// (lora_alpha / rank) * A @ B, float32 (the update saving merges).
  Tensor lora_update() const;
  /// Keras's quantized calls: outputs + (lora_alpha / rank) * (inputs_a @ B), cast to the
  /// compute dtype, where inputs_a is the inputs times A (matmul, einsum or take); outputs as
  /// they are while LoRA is off.
  Tensor add_lora_output(const Tensor& outputs, const Tensor& inputs_a) const;
  /// A quantized layer's saved variables with the adapters merged (Keras's
  /// _get_kernel_with_merged_lora: dequantize, add lora_update(), quantize again): each
  /// replaced variable with its new value. Only called while LoRA is enabled on an int8 or
  /// int4 layer; the default has none to give.
  virtual std::vector<std::pair<Variable, Tensor>> lora_requantized() const;
  /// The first adapter, A: the base weight's shape with the last axis replaced by the rank.
  const Variable& lora_a() const { return lora_a_; }
  /// The second adapter, B: (rank, the base weight's last axis).
  const Variable& lora_b() const { return lora_b_; }
  /// Adds lora_rank and lora_alpha when a rank is set (Keras's get_config).
  void add_lora_config(Config& config) const;
  /// lora_rank (null or absent: 0) and lora_alpha from a config.
  static void read_lora_config(const Config& config, int64_t& rank,
                               std::optional<Scalar>& alpha);

 private:
  /// NotImplementedError naming the layer when `mode` is "float8" (LoRA cannot join it).
  void refuse_float8_lora(const std::string& mode) const;
  /// enable_lora; `building` skips the "not built" check (the call from build()).
  void add_lora(int64_t rank, LoraOptions options, bool building);

  int64_t lora_rank_ = 0;
  std::optional<Scalar> lora_alpha_;
  Variable lora_a_, lora_b_;
};

}  // namespace keras::layers

#pragma GCC visibility pop
