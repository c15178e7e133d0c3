#include "layers/attention/projection.h"

#include "keras/ops/ops.h"
#include "ops/nn/linear.h"

namespace keras::layers::detail {
namespace {

char letter(int i) { return static_cast<char>('a' + i); }

}  // namespace

std::pair<std::string, std::string> projection_equation(int free_dims, int bound_dims,
                                                        int output_dims) {
  std::string input, kernel, output, bias;
  int next = 0;
  for (int i = 0; i < free_dims; ++i, ++next) {
    input += letter(next);
    output += letter(next);
  }
  for (int i = 0; i < bound_dims; ++i, ++next) {
    input += letter(next);
    kernel += letter(next);
  }
  for (int i = 0; i < output_dims; ++i, ++next) {
    kernel += letter(next);
    output += letter(next);
    bias += letter(next);
  }
  return {input + "," + kernel + "->" + output, bias};
}

AttentionProjection::AttentionProjection(const std::string& name, const std::string& dtype,
                                         Spec spec)
    : Layer(LayerOptions{name, true, dtype}), spec_(std::move(spec)) {
  set_activity_regularizer(spec_.activity_regularizer);
  if (spec_.use_bias) {
    // The output letters of the equation that the bias spans: the trailing out_dims ones.
    const std::string& eq = spec_.equation;
    std::string out = eq.substr(eq.find("->") + 2);
    bias_axes_ = out.substr(out.size() - spec_.out_dims.size());
  }
}

void AttentionProjection::build(const Shape& input_shape) {
  check(input_shape.rank() > spec_.bound_dims, "EinsumDense '", name(), "' (equation '",
        spec_.equation, "'): expected an input of rank > ", spec_.bound_dims, "; got shape ",
        shape_string(input_shape), ".");
  Shape kernel_shape;
  for (int i = input_shape.rank() - spec_.bound_dims; i < input_shape.rank(); ++i) {
    check(input_shape[i] > 0, "EinsumDense '", name(), "': the contracted axes of the input must "
          "be known; got input shape ", shape_string(input_shape), ".");
    kernel_shape.push_back(input_shape[i]);
  }
  for (int64_t d : spec_.out_dims) kernel_shape.push_back(d);
  kernel_ = add_weight({.shape = kernel_shape,
                        .initializer = spec_.kernel_initializer,
                        .regularizer = spec_.kernel_regularizer,
                        .constraint = spec_.kernel_constraint,
                        .name = "kernel"});
  if (spec_.use_bias)
    bias_ = add_weight({.shape = spec_.out_dims,
                        .initializer = spec_.bias_initializer,
                        .regularizer = spec_.bias_regularizer,
                        .constraint = spec_.bias_constraint,
                        .name = "bias"});
}

Tensor AttentionProjection::call(const Tensor& inputs, const CallContext&) {
  const int bound = spec_.bound_dims;
  const Shape& ks = kernel_.shape();
  const int rank = inputs.ndim();
  bool ok = rank > bound;
  for (int i = 0; ok && i < bound; ++i) ok = inputs.shape()[rank - bound + i] == ks[i];
  check(ok, "EinsumDense '", name(), "' (equation '", spec_.equation, "'): expected an input "
        "whose last ", bound, " axes are ", Shape(ks.begin(), ks.begin() + bound), "; got shape ",
        inputs.shape(), ".");
  int64_t contracted = 1, produced = spec_.out_dims.numel();
  for (int i = 0; i < bound; ++i) contracted *= ks[i];
  Shape out_shape(inputs.shape().begin(), inputs.shape().end() - bound);
  int64_t rows = out_shape.numel();
  for (int64_t d : spec_.out_dims) out_shape.push_back(d);

  Tensor x = ops::reshape(ops::cast(inputs, compute_dtype()), {rows, contracted});
  Tensor w = ops::reshape(kernel_.value(), {contracted, produced});
  Tensor b = spec_.use_bias ? ops::reshape(bias_.value(), {produced}) : Tensor();
  Tensor y = ops::detail::linear_bias_activation(x, w, b, spec_.activation);
  return ops::reshape(y, out_shape);
}

Config AttentionProjection::get_config() const {
  Config c = Layer::get_config();
  Config shape = Config::array();
  for (int64_t d : spec_.output_shape) shape.push_back(d < 0 ? Config(nullptr) : Config(d));
  c["output_shape"] = shape;
  c["equation"] = spec_.equation;
  c["activation"] = activations::serialize(spec_.activation);
  c["bias_axes"] = spec_.use_bias ? Config(bias_axes_) : Config(nullptr);
  c["kernel_initializer"] = initializers::serialize(*spec_.kernel_initializer);
  c["bias_initializer"] = initializers::serialize(*spec_.bias_initializer);
  c["kernel_regularizer"] = regularizers::serialize(spec_.kernel_regularizer.get());
  c["bias_regularizer"] = regularizers::serialize(spec_.bias_regularizer.get());
  c["activity_regularizer"] = regularizers::serialize(spec_.activity_regularizer.get());
  c["kernel_constraint"] = constraints::serialize(spec_.kernel_constraint.get());
  c["bias_constraint"] = constraints::serialize(spec_.bias_constraint.get());
  return c;
}

}  // namespace keras::layers::detail
