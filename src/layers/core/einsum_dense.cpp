#include "keras/layers/core/einsum_dense.h"

#include <algorithm>
#include <regex>

#include "keras/ops/ops.h"

namespace keras::layers {
namespace {

// The three equation forms Keras accepts: "ab,bc->ac", "...b,bc->...c" (leading axes elided)
// and "ab...,bc->ac..." (trailing axes elided).
enum class Elision { None, Left, Right };

struct Specs {
  std::string input, weight, output;
  Elision elision = Elision::None;
};

Specs parse_equation(const std::string& layer, const std::string& equation) {
  static const std::regex plain("([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)");
  static const std::regex left("\\.\\.\\.([a-zA-Z]+),([a-zA-Z]+)->\\.\\.\\.([a-zA-Z]+)");
  static const std::regex right("([a-zA-Z]{2,})\\.\\.\\.,([a-zA-Z]+)->([a-zA-Z]+)\\.\\.\\.");
  std::smatch m;
  Specs s;
  if (std::regex_match(equation, m, plain)) s.elision = Elision::None;
  else if (std::regex_match(equation, m, left)) s.elision = Elision::Left;
  else if (std::regex_match(equation, m, right)) s.elision = Elision::Right;
  else
    throw ValueError("EinsumDense '" + layer + "': invalid einsum equation '" + equation +
                     "'. Equations must be in the form [X],[Y]->[Z], ...[X],[Y]->...[Z], or "
                     "[X]...,[Y]->[Z]....");
  s.input = m[1];
  s.weight = m[2];
  s.output = m[3];
  return s;
}

std::string dims_string(const std::vector<int64_t>& dims) {
  std::string out = "(";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) out += ", ";
    out += dims[i] < 0 ? "None" : std::to_string(dims[i]);
  }
  return out + (dims.size() == 1 ? ",)" : ")");
}

struct Analysis {
  Shape kernel, bias, output;
  bool has_bias = false;
};

// The kernel and bias shapes for `input_shape` (Keras's _analyze_einsum_string, with the
// output shape computed in axis order).
Analysis analyze(const std::string& layer, const std::string& equation,
                 const std::string& bias_axes, const Shape& input_shape,
                 const std::vector<int64_t>& partial) {
  const Specs s = parse_equation(layer, equation);
  const int rank = input_shape.rank();
  const int elided = rank - static_cast<int>(s.input.size());
  const std::string where = "EinsumDense '" + layer + "' (equation '" + equation + "')";
  if (s.elision == Elision::None)
    check(elided == 0, where, ": expected inputs of rank ", s.input.size(),
          " (one axis per input label '", s.input, "'); got input shape ",
          shape_string(input_shape), ".");
  else
    check(elided >= 0, where, ": expected inputs of rank >= ", s.input.size(), "; got input shape ",
          shape_string(input_shape), ".");
  // Which output labels output_shape covers: all of them after a leading "...", else all but
  // the first (the batch axis).
  const bool batch_first = s.elision != Elision::Left;
  const size_t expected = s.output.size() - (batch_first ? 1 : 0);
  check(partial.size() == expected, where, ": output_shape ", dims_string(partial), " has ",
        partial.size(), " dimensions but the output labels '", s.output, "' need ", expected,
        batch_first ? " (all but the batch axis)." : ".");

  auto input_dim = [&](char c) -> std::optional<int64_t> {
    size_t i = s.input.find(c);
    if (i == std::string::npos) return std::nullopt;
    return input_shape[s.elision == Elision::Left ? elided + static_cast<int>(i) : i];
  };
  auto output_dim = [&](char c) -> int64_t {
    size_t i = s.output.find(c);
    int64_t d = kNone;
    if (batch_first && i == 0) d = input_shape[0];
    else d = partial[i - (batch_first ? 1 : 0)];
    if (d < 0)
      if (auto in = input_dim(c)) d = *in;
    return d;
  };

  for (size_t i = 0; i < s.output.size(); ++i) {
    const char c = s.output[i];
    check(s.input.find(c) != std::string::npos || s.weight.find(c) != std::string::npos, where,
          ": dimension '", std::string(1, c), "' of the output '", s.output,
          "' has no corresponding dimension in the input spec '", s.input,
          "' or the weight spec '", s.weight, "'.");
    if (batch_first && i == 0) continue;
    const int64_t want = partial[i - (batch_first ? 1 : 0)];
    auto in = input_dim(c);
    check(!in || want < 0 || *in < 0 || want == *in, where,
          ": input shape and output shape do not match at shared dimension '",
          std::string(1, c), "'. Input shape is ", in ? *in : 0, ", and output shape is ", want,
          ".");
  }

  Analysis a;
  for (char c : s.weight) {
    int64_t d;
    if (auto in = input_dim(c)) d = *in;
    else if (s.output.find(c) != std::string::npos) d = output_dim(c);
    else
      throw ValueError(where + ": weight dimension '" + std::string(1, c) +
                       "' did not have a match in either the input spec '" + s.input +
                       "' or the output spec '" + s.output +
                       "'. For this layer, the weight must be fully specified.");
    check(d >= 0, where, ": the kernel dimension '", std::string(1, c),
          "' is unknown (input shape ", shape_string(input_shape), ", output_shape ",
          dims_string(partial), "); give it in output_shape or in the input shape.");
    a.kernel.push_back(d);
  }

  if (!bias_axes.empty()) {
    size_t first = s.output.size();
    for (char c : bias_axes) {
      size_t i = s.output.find(c);
      check(i != std::string::npos, where, ": bias dimension '", std::string(1, c),
            "' was requested, but is not part of the output spec '", s.output, "'.");
      first = std::min(first, i);
    }
    for (size_t i = first; i < s.output.size(); ++i) {
      const char c = s.output[i];
      if (bias_axes.find(c) == std::string::npos) {
        a.bias.push_back(1);
        continue;
      }
      const int64_t d = output_dim(c);
      check(d >= 0, where, ": the bias dimension '", std::string(1, c),
            "' is unknown; give it in output_shape.");
      a.bias.push_back(d);
    }
    if (s.elision != Elision::Left)
      for (int i = 0; i < elided; ++i) a.bias.push_back(1);
    a.has_bias = true;
  }

  if (s.elision == Elision::Left)
    for (int i = 0; i < elided; ++i) a.output.push_back(input_shape[i]);
  for (char c : s.output) a.output.push_back(output_dim(c));
  if (s.elision == Elision::Right)
    for (int i = rank - elided; i < rank; ++i) a.output.push_back(input_shape[i]);
  return a;
}

Config output_shape_config(const std::vector<int64_t>& dims) {
  Config out = Config::array();
  for (int64_t d : dims) out.push_back(d < 0 ? Config(nullptr) : Config(d));
  return out;
}

}  // namespace

EinsumDenseLayer::EinsumDenseLayer(std::string equation, std::vector<int64_t> output_shape,
                                   EinsumDenseOptions options)
    : LoraLayer(base_options(options), "einsum_dense", options.lora_rank, options.lora_alpha),
      equation_(std::move(equation)),
      partial_output_shape_(std::move(output_shape)),
      options_(std::move(options)) {
  parse_equation(name(), equation_);  // Rejects a malformed equation now rather than at build.
  for (int64_t d : partial_output_shape_)
    check(d > 0 || d == kNone, "EinsumDense '", name(), "': output_shape ",
          dims_string(partial_output_shape_),
          " must hold positive dimensions or kNone (unknown); got ", d, ".");
  set_activity_regularizer(options_.activity_regularizer);
}

void EinsumDenseLayer::build(const Shape& input_shape) {
  Analysis a = analyze(name(), equation_, options_.bias_axes, input_shape, partial_output_shape_);
  full_output_shape_ = a.output;
  input_rank_ = input_shape.rank();
  if (!quantization_mode().empty()) quantized_build(a.kernel);
  if (quantization_mode().empty() || quantization_mode() == "float8")  // float8 keeps it
    kernel_ = add_weight({.shape = a.kernel,
                          .initializer = options_.kernel_initializer,
                          .regularizer = options_.kernel_regularizer,
                          .constraint = options_.kernel_constraint,
                          .name = "kernel"});
  if (a.has_bias)
    bias_ = add_weight({.shape = a.bias,
                        .initializer = options_.bias_initializer,
                        .regularizer = options_.bias_regularizer,
                        .constraint = options_.bias_constraint,
                        .name = "bias"});
  enable_configured_lora(/*pass_alpha=*/true);
}

LoraLayer::LoraTarget EinsumDenseLayer::lora_target() const {
  LoraTarget target =
      kernel_target(kernel_, options_.kernel_regularizer, options_.kernel_constraint);
  // int4 stores the kernel flattened and packed: the adapters follow its float shape.
  if (quantization_mode() == "int4") target.shape = int4_kernel_shape_;
  return target;
}

Tensor EinsumDenseLayer::call(const Tensor& inputs, const CallContext& ctx) {
  check(inputs.ndim() == input_rank_, "EinsumDense '", name(), "': expected inputs of rank ",
        input_rank_, " (the rank it was built for); got shape ", inputs.shape(), ".");
  if (quantization_mode() == "float8") return float8_call(inputs, ctx.training.value_or(false));
  if (quantization_mode() == "gptq" || quantization_mode() == "awq") return calibrated_call(inputs);
  if (!quantization_mode().empty()) return quantized_call(inputs);
  Tensor y = ops::einsum(equation_, ops::cast(inputs, compute_dtype()), kernel());
  if (bias_.defined()) y = ops::add(y, bias_);
  return options_.activation(y);
}

Config EinsumDenseLayer::get_config() const {
  Config c = Layer::get_config();
  c["output_shape"] = output_shape_config(partial_output_shape_);
  c["equation"] = equation_;
  c["activation"] = activations::serialize(options_.activation);
  c["bias_axes"] = options_.bias_axes.empty() ? Config(nullptr) : Config(options_.bias_axes);
  c["kernel_initializer"] = initializers::serialize(*options_.kernel_initializer);
  c["bias_initializer"] = initializers::serialize(*options_.bias_initializer);
  c["kernel_regularizer"] = regularizers::serialize(options_.kernel_regularizer.get());
  c["bias_regularizer"] = regularizers::serialize(options_.bias_regularizer.get());
  c["activity_regularizer"] = regularizers::serialize(options_.activity_regularizer.get());
  c["kernel_constraint"] = constraints::serialize(options_.kernel_constraint.get());
  c["bias_constraint"] = constraints::serialize(options_.bias_constraint.get());
  c["quantization_config"] =
      options_.quantization_config ? options_.quantization_config->serialize() : Config();
  add_lora_config(c);
  // Keras writes the unpacked column count of a GPTQ kernel (from_config reads it back; here
  // build derives it from the kernel's shape).
  if (quantization_mode() == "gptq" && calibrated_columns_ > 0)
    c["gptq_unpacked_column_size"] = calibrated_columns_;
  return c;
}

std::shared_ptr<Layer> EinsumDenseLayer::from_config(const Config& c) {
  EinsumDenseOptions o;
  read_base_config(c, o);
  if (c.contains("activation")) o.activation = activations::deserialize(c["activation"]);
  if (c.contains("bias_axes") && c["bias_axes"].is_string()) o.bias_axes = c["bias_axes"];
  if (c.contains("kernel_initializer")) o.kernel_initializer = initializers::deserialize(c["kernel_initializer"]);
  if (c.contains("bias_initializer")) o.bias_initializer = initializers::deserialize(c["bias_initializer"]);
  if (c.contains("kernel_regularizer")) o.kernel_regularizer = regularizers::deserialize(c["kernel_regularizer"]);
  if (c.contains("bias_regularizer")) o.bias_regularizer = regularizers::deserialize(c["bias_regularizer"]);
  if (c.contains("activity_regularizer")) o.activity_regularizer = regularizers::deserialize(c["activity_regularizer"]);
  if (c.contains("kernel_constraint")) o.kernel_constraint = constraints::deserialize(c["kernel_constraint"]);
  if (c.contains("bias_constraint")) o.bias_constraint = constraints::deserialize(c["bias_constraint"]);
  check(c.contains("equation") && c["equation"].is_string(),
        "EinsumDense.from_config: the config has no 'equation' string: ", c.dump(), ".");
  check(c.contains("output_shape"), "EinsumDense.from_config: the config has no 'output_shape': ",
        c.dump(), ".");
  read_lora_config(c, o.lora_rank, o.lora_alpha);
  if (c.contains("quantization_config"))
    o.quantization_config = quantizers::QuantizationConfig::deserialize(c["quantization_config"]);
  std::vector<int64_t> shape;
  const Config& s = c["output_shape"];
  if (s.is_number_integer()) shape.push_back(s.get<int64_t>());
  else {
    check(s.is_array(), "EinsumDense.from_config: output_shape must be an integer or a list; got ",
          s.dump(), ".");
    for (const Config& d : s) shape.push_back(d.is_null() ? kNone : d.get<int64_t>());
  }
  auto layer = std::make_shared<EinsumDenseLayer>(c["equation"].get<std::string>(), shape, o);
  // The policy itself, not only its name: a float8 one carries its amax_history_length.
  if (!o.dtype.empty()) layer->set_dtype_policy(DTypePolicy::deserialize(c["dtype"]));
  return layer;
}

LayerPtr<EinsumDenseLayer> EinsumDense(std::string equation, std::vector<int64_t> output_shape,
                                       EinsumDenseOptions options) {
  return make_layer<EinsumDenseLayer>(std::move(equation), std::move(output_shape),
                                      std::move(options));
}

LayerPtr<EinsumDenseLayer> EinsumDense(std::string equation, int64_t output_shape,
                                       EinsumDenseOptions options) {
  return make_layer<EinsumDenseLayer>(std::move(equation), std::vector<int64_t>{output_shape},
                                      std::move(options));
}

}  // namespace keras::layers
