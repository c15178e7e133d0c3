#include "keras/layers/core/dense.h"

#include "keras/ops/ops.h"
#include "ops/nn/linear.h"

namespace keras::layers {

DenseLayer::DenseLayer(int64_t units, DenseOptions options)
    : LoraLayer(base_options(options), "dense", options.lora_rank, options.lora_alpha),
      units_(units),
      options_(std::move(options)) {
  check(units > 0, "Dense: units must be a positive integer; got ", units, ".");
  set_activity_regularizer(options_.activity_regularizer);
  set_supports_masking(true);
}

void DenseLayer::build(const Shape& input_shape) {
  check(input_shape.rank() >= 1 && input_shape.back() > 0, "Dense '", name(),
        "': the last axis of the input must be known; got input shape ",
        shape_string(input_shape), ".");
  const int64_t input_dim = input_shape.back();
  if (!quantization_mode().empty()) quantized_build({input_dim, units_});
  if (quantization_mode().empty() || quantization_mode() == "float8")  // float8 keeps it
    kernel_ = add_weight({.shape = {input_dim, units_},
                          .initializer = options_.kernel_initializer,
                          .regularizer = options_.kernel_regularizer,
                          .constraint = options_.kernel_constraint,
                          .name = "kernel"});
  if (options_.use_bias)
    bias_ = add_weight({.shape = {units_},
                        .initializer = options_.bias_initializer,
                        .regularizer = options_.bias_regularizer,
                        .constraint = options_.bias_constraint,
                        .name = "bias"});
  enable_configured_lora(/*pass_alpha=*/false);  // Keras's Dense.build: enable_lora(lora_rank)
}

LoraLayer::LoraTarget DenseLayer::lora_target() const {
  LoraTarget target =
      kernel_target(kernel_, options_.kernel_regularizer, options_.kernel_constraint);
  if (kernel_.defined()) target.shape = {kernel_.shape()[0], units_};  // int4: packed
  return target;
}

Tensor DenseLayer::call(const Tensor& inputs, const CallContext& ctx) {
  if (quantization_mode() == "gptq" || quantization_mode() == "awq") return calibrated_call(inputs);
  check(inputs.ndim() >= 1 && inputs.shape().back() == kernel_.shape()[0], "Dense '", name(),
        "': expected inputs with last axis ", kernel_.shape()[0], "; got shape ", inputs.shape(),
        ".");
  if (quantization_mode() == "float8") return float8_call(inputs, ctx.training.value_or(false));
  if (!quantization_mode().empty()) return quantized_call(inputs);
  // As Keras's matmul: complex inputs stay complex (a real kernel promotes to their dtype).
  Tensor x = is_complex(inputs.dtype()) ? inputs : ops::cast(inputs, compute_dtype());
  return ops::detail::linear_bias_activation(x, kernel(),
                                             options_.use_bias ? bias_.value() : Tensor(),
                                             options_.activation);
}

Config DenseLayer::get_config() const {
  Config c = Layer::get_config();
  c["units"] = units_;
  c["activation"] = activations::serialize(options_.activation);
  c["use_bias"] = options_.use_bias;
  c["kernel_initializer"] = initializers::serialize(*options_.kernel_initializer);
  c["bias_initializer"] = initializers::serialize(*options_.bias_initializer);
  c["kernel_regularizer"] = regularizers::serialize(options_.kernel_regularizer.get());
  c["bias_regularizer"] = regularizers::serialize(options_.bias_regularizer.get());
  c["kernel_constraint"] = constraints::serialize(options_.kernel_constraint.get());
  c["bias_constraint"] = constraints::serialize(options_.bias_constraint.get());
  c["quantization_config"] =
      options_.quantization_config ? options_.quantization_config->serialize() : Config();
  add_lora_config(c);
  return c;
}

std::shared_ptr<Layer> DenseLayer::from_config(const Config& c) {
  DenseOptions o;
  read_base_config(c, o);
  if (c.contains("activation")) o.activation = activations::deserialize(c["activation"]);
  o.use_bias = c.value("use_bias", true);
  if (c.contains("kernel_initializer")) o.kernel_initializer = initializers::deserialize(c["kernel_initializer"]);
  if (c.contains("bias_initializer")) o.bias_initializer = initializers::deserialize(c["bias_initializer"]);
  if (c.contains("kernel_regularizer")) o.kernel_regularizer = regularizers::deserialize(c["kernel_regularizer"]);
  if (c.contains("bias_regularizer")) o.bias_regularizer = regularizers::deserialize(c["bias_regularizer"]);
  if (c.contains("activity_regularizer")) o.activity_regularizer = regularizers::deserialize(c["activity_regularizer"]);
  if (c.contains("kernel_constraint")) o.kernel_constraint = constraints::deserialize(c["kernel_constraint"]);
  if (c.contains("bias_constraint")) o.bias_constraint = constraints::deserialize(c["bias_constraint"]);
  read_lora_config(c, o.lora_rank, o.lora_alpha);
  if (c.contains("quantization_config"))
    o.quantization_config = quantizers::QuantizationConfig::deserialize(c["quantization_config"]);
  auto layer = std::make_shared<DenseLayer>(c.at("units").get<int64_t>(), o);
  // The policy itself, not only its name: a float8 one carries its amax_history_length.
  if (!o.dtype.empty()) layer->set_dtype_policy(DTypePolicy::deserialize(c["dtype"]));
  return layer;
}

LayerPtr<DenseLayer> Dense(int64_t units, DenseOptions options) {
  return make_layer<DenseLayer>(units, std::move(options));
}

}  // namespace keras::layers
