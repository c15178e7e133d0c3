// The op classes of keras.src.ops.nn that keras-cpp implements (keras/ops/operation.h).
//
// Not here: CTCDecode's "beam_search" strategy raises (greedy only).

#include "keras/core/config.h"
#include "keras/core/promotion.h"
#include "keras/ops/core.h"
#include "keras/ops/math.h"
#include "keras/ops/nn.h"
#include "keras/ops/numpy.h"
#include "ops/operations/operation_tables.h"

namespace keras::ops::detail {
namespace {

constexpr const char* kModule = "keras.src.ops.nn";

OperationSpec op(std::string name, std::function<Tensor(const OperationCall&)> f) {
  return one_output(std::move(name), kModule, std::move(f));
}

// The activations without arguments: call(x).
OperationSpec unary(std::string name, Tensor (*f)(const Tensor&)) {
  return unary_op(std::move(name), kModule, f);
}

// An activation with one number in the config: Elu(alpha), LeakyRelu(negative_slope), ...
OperationSpec unary(std::string name, Tensor (*f)(const Tensor&, double), std::string arg,
                    double fallback) {
  return op(std::move(name), [f, arg = std::move(arg), fallback](const OperationCall& c) {
    return f(c.tensor(0), c.number(arg, fallback));
  });
}

// Moments' axes have no default.
Axes required_axes(const OperationCall& c, const std::string& name) {
  auto axes = c.axes(name);
  if (!axes) c.fail("the argument " + name + " is required.");
  return Axes(*axes);
}

// An axis argument whose Keras default is -1 (softmax, the normalizations): None means every
// axis, an absent key the default.
Axes axes_or_all(const OperationCall& c, const std::string& name) {
  if (!c.has(name)) return Axes(-1);
  auto axes = c.axes(name);
  return axes ? Axes(*axes) : Axes();
}

// Python's "int or tuple" (pool sizes, strides, rates); required when `fallback` is unset.
IntOrTuple int_or_tuple(const OperationCall& c, const std::string& name,
                        std::optional<IntOrTuple> fallback = std::nullopt) {
  Config v = c.attr(name);
  if (v.is_null() && fallback) return *fallback;
  if (v.is_number_integer()) return IntOrTuple(v.get<int64_t>());
  if (v.is_null()) c.fail("the argument " + name + " is required.");
  return IntOrTuple(c.integers(name));
}

std::optional<IntOrTuple> optional_int_or_tuple(const OperationCall& c, const std::string& name) {
  if (c.attr(name).is_null()) return std::nullopt;
  return int_or_tuple(c, name);
}

std::optional<std::string> optional_string(const OperationCall& c, const std::string& name) {
  if (c.attr(name).is_null()) return std::nullopt;
  return c.string(name, "");
}

std::optional<double> optional_number(const OperationCall& c, const std::string& name,
                                      std::optional<size_t> position = std::nullopt) {
  if (c.attr(name, position).is_null()) return std::nullopt;
  return c.number(name, 0, position);
}

// A Python number of the config as a weakly typed scalar, as Keras passes it to the backend.
Scalar scalar(const OperationCall& c, const std::string& name) {
  Config v = c.attr(name);
  if (v.is_boolean()) return Scalar(v.get<bool>());
  if (v.is_number_integer()) return Scalar(v.get<int64_t>());
  if (v.is_number()) return Scalar(v.get<double>());
  c.fail("the argument " + name + " must be a number; got " + v.dump());
}

int64_t required_integer(const OperationCall& c, const std::string& name) {
  if (c.attr(name).is_null()) c.fail("the argument " + name + " is required.");
  return c.integer(name, 0);
}

// Conv, DepthwiseConv and SeparableConv share their constructor.
ConvOptions conv_options(const OperationCall& c) {
  return {int_or_tuple(c, "strides", 1), c.string("padding", "valid"),
          optional_string(c, "data_format"), int_or_tuple(c, "dilation_rate", 1)};
}

PoolOptions pool_options(const OperationCall& c) {
  return {optional_int_or_tuple(c, "strides"), c.string("padding", "valid"),
          optional_string(c, "data_format")};
}

// The deprecated LayerNorm(rms_scaling=True): x / sqrt(var(x) + epsilon) * gamma, computed in at
// least float32 as Keras's _layer_normalization does (it ignores beta).
Tensor rms_scaled_layer_norm(const Tensor& x, const Tensor& gamma, const Axes& axis,
                             double epsilon) {
  Tensor xf = cast(x, result_type({x.dtype(), DType::Float32}));
  SmallVector<int, 8> dims = axis.is_none() ? SmallVector<int, 8>{} : axis.list();
  for (int& d : dims) d = d < 0 ? d + xf.ndim() : d;
  Tensor out = xf * rsqrt(var(xf, axis, /*keepdims=*/true) + epsilon);
  if (gamma.defined()) {
    Tensor g = cast(gamma, xf.dtype());
    // Keras reshapes gamma to broadcast unless it already has x's rank or axis is the last one.
    bool last_only = dims.size() == 1 && dims[0] == xf.ndim() - 1;
    if (g.ndim() != xf.ndim() && !last_only) {
      Shape b;
      for (int i = 0; i < xf.ndim(); ++i) b.push_back(1);
      for (int d : dims) b[d] = xf.shape()[d];
      g = reshape(g, b);
    }
    out = out * g;
  }
  return cast(out, x.dtype());
}

}  // namespace

void add_nn_operations(OperationTable& table) {
  table.insert(
      table.end(),
      {
          unary("Relu", relu),
          unary("Relu6", relu6),
          unary("Sigmoid", sigmoid),
          unary("SparseSigmoid", sparse_sigmoid),
          unary("Softplus", softplus),
          unary("Softsign", softsign),
          unary("SoftShrink", soft_shrink, "threshold", 0.5),
          unary("SparsePlus", sparse_plus),
          unary("Silu", silu),
          unary("Squareplus", squareplus, "b", 4),
          unary("LogSigmoid", log_sigmoid),
          unary("LeakyRelu", leaky_relu, "negative_slope", 0.2),
          unary("HardSigmoid", hard_sigmoid),
          unary("HardSilu", hard_silu),
          unary("Elu", elu, "alpha", 1.0),
          unary("Selu", selu),
          op("Gelu",
             [](const OperationCall& c) { return gelu(c.tensor(0), c.flag("approximate", true)); }),
          unary("Celu", celu, "alpha", 1.0),
          op("Polar", [](const OperationCall& c) { return polar(c.tensor(0), c.tensor(1)); }),
          op("Glu", [](const OperationCall& c) { return glu(c.tensor(0), c.integer("axis", -1)); }),
          unary("TanhShrink", tanh_shrink),
          unary("HardTanh", hard_tanh),
          unary("HardShrink", hard_shrink, "threshold", 0.5),
          op("Threshold",
             [](const OperationCall& c) {
               return threshold(c.tensor(0), scalar(c, "threshold"), scalar(c, "default_value"));
             }),
          op("Softmax",
             [](const OperationCall& c) { return softmax(c.tensor(0), axes_or_all(c, "axis")); }),
          op("LogSoftmax",
             [](const OperationCall& c) {
               return log_softmax(c.tensor(0), axes_or_all(c, "axis"));
             }),
          op("Sparsemax",
             [](const OperationCall& c) { return sparsemax(c.tensor(0), c.integer("axis", -1)); }),

          op("MaxPool",
             [](const OperationCall& c) {
               return max_pool(c.tensor(0), int_or_tuple(c, "pool_size"), pool_options(c));
             }),
          op("AveragePool",
             [](const OperationCall& c) {
               return average_pool(c.tensor(0), int_or_tuple(c, "pool_size"), pool_options(c));
             }),
          op("AdaptiveMaxPool",
             [](const OperationCall& c) {
               return adaptive_max_pool(c.tensor(0), int_or_tuple(c, "output_size"),
                                        optional_string(c, "data_format"));
             }),
          op("AdaptiveAveragePool",
             [](const OperationCall& c) {
               return adaptive_average_pool(c.tensor(0), int_or_tuple(c, "output_size"),
                                            optional_string(c, "data_format"));
             }),
          op("Conv",
             [](const OperationCall& c) {
               return conv(c.tensor(0), c.tensor(1), conv_options(c));
             }),
          op("DepthwiseConv",
             [](const OperationCall& c) {
               return depthwise_conv(c.tensor(0), c.tensor(1), conv_options(c));
             }),
          op("SeparableConv",
             [](const OperationCall& c) {
               return separable_conv(c.tensor(0), c.tensor(1), c.tensor(2), conv_options(c));
             }),
          op("ConvTranspose",
             [](const OperationCall& c) {
               return conv_transpose(
                   c.tensor(0), c.tensor(1),
                   {int_or_tuple(c, "strides", 1), c.string("padding", "valid"),
                    optional_int_or_tuple(c, "output_padding"), optional_string(c, "data_format"),
                    int_or_tuple(c, "dilation_rate", 1)});
             }),
          op("Unfold",
             [](const OperationCall& c) {
               return unfold(c.tensor(0), int_or_tuple(c, "kernel_size"),
                             int_or_tuple(c, "dilation", 1), int_or_tuple(c, "padding", 0),
                             int_or_tuple(c, "stride", 1));
             }),
          op("Fold",
             [](const OperationCall& c) {
               return fold(c.tensor(0), int_or_tuple(c, "output_size"),
                           int_or_tuple(c, "kernel_size"), int_or_tuple(c, "dilation", 1),
                           int_or_tuple(c, "padding", 0), int_or_tuple(c, "stride", 1));
             }),
          op("DepthToSpace",
             [](const OperationCall& c) {
               return depth_to_space(c.tensor(0), required_integer(c, "block_size"),
                                     c.string("data_format", "channels_last"));
             }),
          op("SpaceToDepth",
             [](const OperationCall& c) {
               return space_to_depth(c.tensor(0), required_integer(c, "block_size"),
                                     c.string("data_format", "channels_last"));
             }),

          op("OneHot",
             [](const OperationCall& c) {
               return one_hot(c.tensor(0), required_integer(c, "num_classes"),
                              c.integer("axis", -1), c.dtype("dtype"), c.flag("sparse", false));
             }),
          op("MultiHot",
             [](const OperationCall& c) {
               // Older files call num_classes num_tokens (Keras still accepts both).
               std::string n = c.attr("num_classes").is_null() ? "num_tokens" : "num_classes";
               return multi_hot(c.tensor(0), required_integer(c, n), c.integer("axis", -1),
                                c.dtype("dtype"), c.flag("sparse", false));
             }),
          op("BinaryCrossentropy",
             [](const OperationCall& c) {
               return binary_crossentropy(c.tensor(0), c.tensor(1), c.flag("from_logits", false));
             }),
          op("CategoricalCrossentropy",
             [](const OperationCall& c) {
               return categorical_crossentropy(c.tensor(0), c.tensor(1),
                                               c.flag("from_logits", false), c.integer("axis", -1));
             }),
          op("SparseCategoricalCrossentropy",
             [](const OperationCall& c) {
               return sparse_categorical_crossentropy(
                   c.tensor(0), c.tensor(1), c.flag("from_logits", false), c.integer("axis", -1));
             }),
          op("PSNR",
             [](const OperationCall& c) {
               return psnr(c.tensor(0), c.tensor(1), Tensor(scalar(c, "max_val")));
             }),

          op("CTCLoss",
             [](const OperationCall& c) {
               return ctc_loss(c.tensor_attr("target", 0), c.tensor_attr("output", 1),
                               c.tensor_attr("target_length", 2),
                               c.tensor_attr("output_length", 3),
                               static_cast<int>(c.integer("mask_index", 0)));
             }),
          {"CTCDecode", kModule,
           [](const OperationCall& c) {
             auto [decoded, scores] = ctc_decode(
                 c.tensor_attr("inputs", 0), c.tensor_attr("sequence_lengths", 1),
                 {.strategy = c.string("strategy", "greedy"),
                  .beam_width = static_cast<int>(c.integer("beam_width", 100)),
                  .top_paths = static_cast<int>(c.integer("top_paths", 1)),
                  .merge_repeated = c.flag("merge_repeated", true),
                  .mask_index = static_cast<int>(c.integer("mask_index", 0))});
             return TensorList{decoded, scores};
           }},
          {"Moments", kModule,
           [](const OperationCall& c) {
             auto [mean, variance] =
                 moments(c.tensor(0), required_axes(c, "axes"), c.flag("keepdims", false),
                         c.flag("synchronized", false));
             return TensorList{mean, variance};
           }},
          // offset and scale are optional call arguments: positional, or keywords.
          op("BatchNorm",
             [](const OperationCall& c) {
               if (c.attr("axis").is_null()) c.fail("the argument axis is required.");
               return batch_normalization(c.tensor(0), c.tensor(1), c.tensor(2),
                                          c.integer("axis", -1), c.tensor_attr("offset", 3),
                                          c.tensor_attr("scale", 4), c.number("epsilon", 1e-3));
             }),
          op("LayerNorm",
             [](const OperationCall& c) {
               Tensor gamma = c.tensor_attr("gamma", 1), beta = c.tensor_attr("beta", 2);
               Axes axis = axes_or_all(c, "axis");
               std::optional<double> epsilon = optional_number(c, "epsilon");
               if (c.flag("rms_scaling", false))
                 return rms_scaled_layer_norm(c.tensor(0), gamma, axis,
                                              epsilon.value_or(config::epsilon()));
               return layer_normalization(c.tensor(0), gamma, beta, axis, epsilon);
             }),
          op("RMSNorm",
             [](const OperationCall& c) {
               return rms_normalization(c.tensor(0), c.tensor_attr("scale", 1),
                                        axes_or_all(c, "axis"), optional_number(c, "epsilon"));
             }),
          op("Normalize",
             [](const OperationCall& c) {
               return normalize(c.tensor(0), axes_or_all(c, "axis"), c.integer("order", 2),
                                optional_number(c, "epsilon"));
             }),
          // bias, mask and scale are call arguments; the rest is the constructor's.
          op("DotProductAttention",
             [](const OperationCall& c) {
               if (!c.attr("attn_logits_soft_cap").is_null())
                 c.fail(
                     "attn_logits_soft_cap is not supported (Keras supports it only with JAX on "
                     "TPU); set it to None.");
               DotProductAttentionOptions o;
               o.bias = c.tensor_attr("bias", 3);
               o.mask = c.tensor_attr("mask", 4);
               o.scale = optional_number(c, "scale", 5);
               o.is_causal = c.flag("is_causal", false);
               if (!c.attr("flash_attention").is_null())
                 o.flash_attention = c.flag("flash_attention", false);
               return dot_product_attention(c.tensor(0), c.tensor(1), c.tensor(2), o);
             }),
      });
}

}  // namespace keras::ops::detail
