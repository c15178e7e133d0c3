#include "keras/layers/core/lora.h"

#include <algorithm>

#include "keras/autograd/gradient_tape.h"
#include "keras/ops/ops.h"

namespace keras::layers {

LoraLayer::LoraLayer(LayerOptions options, std::string default_name, int64_t lora_rank,
                     std::optional<Scalar> lora_alpha)
    : Layer(std::move(options), std::move(default_name)), lora_rank_(lora_rank) {
  check(lora_rank >= 0, "Layer '", name(), "': lora_rank must be a positive integer (or 0 for "
        "none); got ", lora_rank, ".");
  // Keras: self.lora_alpha = lora_alpha if lora_alpha is not None else lora_rank.
  if (lora_rank > 0) lora_alpha_ = lora_alpha ? *lora_alpha : Scalar(lora_rank);
}

void LoraLayer::enable_lora(int64_t rank, LoraOptions options) {
  add_lora(rank, std::move(options), /*building=*/false);
}

void LoraLayer::add_lora(int64_t rank, LoraOptions options, bool building) {
  const LoraTarget target = lora_target();
  // Keras's checks, in its order.
  check(!target.constrained, "Lora is incompatible with the `", target.constraint_argument,
        "` of layer '", name(), "'. In order to enable lora on it, remove the `",
        target.constraint_argument, "` argument.");
  check(building || built(), "Cannot enable lora on layer '", name(),
        "', which isn't yet built: call it on data (or build it) first.");
  check(!lora_enabled(), "lora is already enabled on layer '", name(),
        "'. This can only be done once per layer.");
  check(rank > 0, "Layer '", name(), "': enable_lora needs a positive rank; got ", rank, ".");
  // Keras 3.15 trains adapters on an int8 or int4 base (QLoRA); its float8 call raises.
  refuse_float8_lora(quantization_mode());
  check(!options.lora_alpha || options.lora_alpha->is_integral() ||
            options.lora_alpha->is_floating(),
        "Layer '", name(), "': lora_alpha must be a number.");
  const Shape& base = target.shape.rank() > 0 ? target.shape : target.base->shape();
  Shape a_shape(base.begin(), base.end() - 1);
  a_shape.push_back(rank);
  // float32 adapters whatever the policy, as Keras (no underflow while fine-tuning).
  lora_a_ = add_weight({.shape = a_shape,
                        .initializer = options.a_initializer,
                        .regularizer = target.regularizer,
                        .dtype = DType::Float32,
                        .name = target.prefix + "_a"});
  lora_b_ = add_weight({.shape = {rank, base.back()},
                        .initializer = options.b_initializer,
                        .regularizer = target.regularizer,
                        .dtype = DType::Float32,
                        .name = target.prefix + "_b"});
  Variable(*target.base).set_trainable(false);
  lora_rank_ = rank;
  lora_alpha_ = options.lora_alpha ? *options.lora_alpha : Scalar(rank);
}

LoraLayer::LoraTarget LoraLayer::kernel_target(
    const Variable& kernel, const regularizers::RegularizerArg& kernel_regularizer,
    const constraints::ConstraintArg& kernel_constraint) {
  return {.base = &kernel,
          .prefix = "lora_kernel",
          .regularizer = kernel_regularizer,
          .constrained = static_cast<bool>(kernel_constraint),
          .constraint_argument = "kernel_constraint"};
}

void LoraLayer::enable_configured_lora(bool pass_alpha) {
  if (lora_rank_ == 0) return;
  LoraOptions options;
  if (pass_alpha) options.lora_alpha = lora_alpha_;
  // Keras sets built = True before this call; keras-cpp marks a layer built after build().
  add_lora(lora_rank_, options, /*building=*/true);
}

Tensor LoraLayer::lora_update() const {
  // Keras: (lora_alpha / lora_rank) * matmul(a, b), the scale a Python float (weakly typed: it
  // takes the adapters' float32).
  const double scale = lora_alpha_->to_double() / static_cast<double>(lora_rank_);
  return ops::multiply(ops::matmul(lora_a_, lora_b_), Scalar(scale));
}

Tensor LoraLayer::lora_merged(const Tensor& base) const {
  if (!lora_enabled()) return base;
  // Keras: cast(kernel + update, compute_dtype); an int kernel (quantized) promotes to float.
  return ops::cast(ops::add(base, lora_update()), compute_dtype());
}

Tensor LoraLayer::add_lora_output(const Tensor& outputs, const Tensor& inputs_a) const {
  if (!lora_enabled()) return outputs;
  const double scale = lora_alpha_->to_double() / static_cast<double>(lora_rank_);
  Tensor update = ops::multiply(ops::matmul(inputs_a, lora_b_), Scalar(scale));
  return ops::cast(ops::add(outputs, update), compute_dtype());
}

std::vector<std::pair<Variable, Tensor>> LoraLayer::lora_requantized() const {
  throw NotImplementedError("Layer '" + name() + "' (" + class_name() +
                            ") cannot merge LoRA into its quantized weights.");
}

void LoraLayer::refuse_float8_lora(const std::string& mode) const {
  if (mode == "float8")
    throw NotImplementedError(
        "Layer '" + name() + "': LoRA on a float8 layer is not supported (Keras's float8 call "
        "doesn't support LoRA either). Use quantize('int8') or quantize('int4') for QLoRA, or "
        "fine-tune the float layer with LoRA and quantize it after saving.");
}

std::vector<Variable> LoraLayer::variables_to_save() const {
  if (!lora_enabled()) return variables_to_load();
  // Keras's save_own_variables: the merged weight in the base's place (a float layer), or the
  // base's quantized variables requantized with the update merged (int8, int4).
  std::vector<std::pair<Variable, Tensor>> merged;
  {
    NoGradScope no_grad;
    if (quantization_mode().empty()) {
      const Variable& base = *lora_target().base;
      merged.emplace_back(base, ops::cast(lora_merged(base), base.dtype()));
    } else {
      merged = lora_requantized();
    }
  }
  std::vector<Variable> out;
  for (const Variable& v : variables_to_load()) {
    auto it = std::find_if(merged.begin(), merged.end(),
                           [&](const auto& m) { return m.first.is_same(v); });
    if (it == merged.end()) {
      out.push_back(v);
      continue;
    }
    // A stand-in holding the merged value, under the variable's name.
    out.emplace_back(it->second,
                     VariableOptions{.trainable = false, .name = v.name(), .path = v.path()});
  }
  return out;
}

std::vector<Variable> LoraLayer::variables_to_load() const {
  std::vector<Variable> out;
  for (const Variable& v : own_weights())
    if (!lora_enabled() || (!v.is_same(lora_a_) && !v.is_same(lora_b_))) out.push_back(v);
  return out;
}

void LoraLayer::variables_loaded() {
  if (!lora_enabled()) return;
  lora_a_.assign(ops::zeros(lora_a_.shape(), lora_a_.dtype()));
  lora_b_.assign(ops::zeros(lora_b_.shape(), lora_b_.dtype()));
}

void LoraLayer::quantize(const std::string& mode, quantizers::QuantizationConfigPtr config) {
  if (lora_enabled()) refuse_float8_lora(mode);
  Layer::quantize(mode, std::move(config));
}

void LoraLayer::add_lora_config(Config& config) const {
  if (lora_rank_ == 0) return;
  config["lora_rank"] = lora_rank_;
  const Scalar& alpha = *lora_alpha_;
  if (alpha.is_integral()) config["lora_alpha"] = alpha.to_int();
  else config["lora_alpha"] = alpha.to_double();
}

void LoraLayer::read_lora_config(const Config& config, int64_t& rank,
                                 std::optional<Scalar>& alpha) {
  rank = 0;
  alpha.reset();
  if (config.contains("lora_rank") && !config["lora_rank"].is_null()) {
    const Config& r = config["lora_rank"];
    check(r.is_number_integer() && r.get<int64_t>() >= 0,
          "from_config: lora_rank must be a non-negative integer or null; got ", r.dump(), ".");
    rank = r.get<int64_t>();
  }
  if (config.contains("lora_alpha") && !config["lora_alpha"].is_null()) {
    const Config& a = config["lora_alpha"];
    check(a.is_number(), "from_config: lora_alpha must be a number or null; got ", a.dump(), ".");
    if (a.is_number_integer()) alpha = Scalar(a.get<int64_t>());
    else alpha = Scalar(a.get<double>());
  }
}

}  // namespace keras::layers
