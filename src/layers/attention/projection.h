#pragma once
// The projections of the multi-head attention layers: Keras builds them as EinsumDense
// sublayers with equations such as "abc,cde->abde"; this computes the same products as one
// matrix product (the contracted input axes flattened against the kernel's leading axes), so
// the weights keep EinsumDense's shapes and names ("kernel", "bias") and saved files load.

#include <string>

#include "keras/layers/options.h"

namespace keras::layers::detail {

/// Projects the last `bound_dims` axes of its input onto `out_dims` (kernel
/// (*bound extents, *out_dims), bias out_dims), then applies `activation`.
class AttentionProjection : public Layer {
 public:
  struct Spec {
    /// Keras's einsum equation and partial output shape (-1 for None), for get_config.
    std::string equation;
    Shape output_shape;
    int bound_dims = 1;
    Shape out_dims;
    bool use_bias = true;
    activations::Activation activation;
    initializers::InitializerArg kernel_initializer = "glorot_uniform";
    initializers::InitializerArg bias_initializer = "zeros";
    regularizers::RegularizerArg kernel_regularizer;
    regularizers::RegularizerArg bias_regularizer;
    regularizers::RegularizerArg activity_regularizer;
    constraints::ConstraintArg kernel_constraint;
    constraints::ConstraintArg bias_constraint;
  };

  AttentionProjection(const std::string& name, const std::string& dtype, Spec spec);
  std::string class_name() const override { return "EinsumDense"; }
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;

  const Variable& kernel() const { return kernel_; }
  const Variable& bias() const { return bias_; }

 private:
  Spec spec_;
  std::string bias_axes_;
  Variable kernel_, bias_;
};

/// Keras's _build_proj_equation: (equation, bias axes) for `free_dims` kept axes, `bound_dims`
/// contracted ones and `output_dims` new ones.
std::pair<std::string, std::string> projection_equation(int free_dims, int bound_dims,
                                                        int output_dims);

}  // namespace keras::layers::detail
