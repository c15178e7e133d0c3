// keras.ops.nn against NumPy and torch.nn.functional (tools/golden/nn_ops.py), once with the
// backend's fused kernels and once with every op decomposed into primitives.

#include <gtest/gtest.h>

#include "golden.h"
#include "golden_args.h"
#include "keras/backend/backend.h"
#include "keras/keras.h"

namespace keras {
namespace {

using namespace test;  // the fixture helpers

using test::GoldenOps;
using test::json;

// The `axis` keyword: absent gives `fallback`, null gives None, else an int or a list.
Tensor input_or_undefined(const TensorList& in, size_t i) { return i < in.size() ? in[i] : Tensor(); }

GoldenOps nn_ops() {
  GoldenOps m;
  m["relu"] = unary<ops::relu>();
  m["relu6"] = unary<ops::relu6>();
  m["sigmoid"] = unary<ops::sigmoid>();
  m["sparse_sigmoid"] = unary<ops::sparse_sigmoid>();
  m["softplus"] = unary<ops::softplus>();
  m["softsign"] = unary<ops::softsign>();
  m["sparse_plus"] = unary<ops::sparse_plus>();
  m["silu"] = unary<ops::silu>();
  m["swish"] = unary<ops::swish>();
  m["log_sigmoid"] = unary<ops::log_sigmoid>();
  m["hard_sigmoid"] = unary<ops::hard_sigmoid>();
  m["hard_silu"] = unary<ops::hard_silu>();
  m["hard_swish"] = unary<ops::hard_swish>();
  m["selu"] = unary<ops::selu>();
  m["tanh_shrink"] = unary<ops::tanh_shrink>();
  m["hard_tanh"] = unary<ops::hard_tanh>();
  m["soft_shrink"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::soft_shrink(in[0], kw.value("threshold", 0.5))};
  };
  m["hard_shrink"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::hard_shrink(in[0], kw.value("threshold", 0.5))};
  };
  m["squareplus"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::squareplus(in[0], kw.value("b", 4.0))};
  };
  m["leaky_relu"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::leaky_relu(in[0], kw.value("negative_slope", 0.2))};
  };
  m["elu"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::elu(in[0], kw.value("alpha", 1.0))};
  };
  m["celu"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::celu(in[0], kw.value("alpha", 1.0))};
  };
  m["gelu"] = [](const TensorList& in, const json&) { return TensorList{ops::gelu(in[0])}; };
  m["gelu_exact"] = [](const TensorList& in, const json&) {
    return TensorList{ops::gelu(in[0], /*approximate=*/false)};
  };
  m["glu"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::glu(in[0], kw.value("axis", -1))};
  };
  m["threshold"] = [](const TensorList& in, const json& kw) {
    return TensorList{
        ops::threshold(in[0], scalar_of(kw["threshold"]), scalar_of(kw["default_value"]))};
  };
  m["softmax"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::softmax(in[0], axes_of(kw, "axis", -1))};
  };
  m["log_softmax"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::log_softmax(in[0], axes_of(kw, "axis", -1))};
  };
  m["softmax_of_transpose"] = [](const TensorList& in, const json&) {
    return TensorList{ops::softmax(ops::transpose(in[0]), -1)};
  };
  m["log_softmax_of_transpose"] = [](const TensorList& in, const json&) {
    return TensorList{ops::log_softmax(ops::transpose(in[0]), -1)};
  };
  m["sparsemax"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::sparsemax(in[0], kw.value("axis", -1))};
  };
  m["binary_crossentropy"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::binary_crossentropy(in[0], in[1], kw.value("from_logits", false))};
  };
  m["categorical_crossentropy"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::categorical_crossentropy(in[0], in[1], kw.value("from_logits", false),
                                                    kw.value("axis", -1))};
  };
  m["sparse_categorical_crossentropy"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::sparse_categorical_crossentropy(
        in[0], in[1], kw.value("from_logits", false), kw.value("axis", -1))};
  };
  m["psnr"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::psnr(in[0], in[1], kw["max_val"].get<double>())};
  };
  m["moments"] = [](const TensorList& in, const json& kw) {
    auto [mean, var] = ops::moments(in[0], axes_of(kw, "axes", {}), kw.value("keepdims", false));
    return TensorList{mean, var};
  };
  m["batch_normalization"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::batch_normalization(in[0], in[1], in[2], kw["axis"].get<int>(),
                                               input_or_undefined(in, 3),
                                               input_or_undefined(in, 4),
                                               kw.value("epsilon", 1e-3))};
  };
  m["layer_normalization"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::layer_normalization(in[0], input_or_undefined(in, 1),
                                               input_or_undefined(in, 2),
                                               axes_of(kw, "axis", -1), opt_double(kw, "epsilon"))};
  };
  m["rms_normalization"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::rms_normalization(in[0], input_or_undefined(in, 1),
                                             axes_of(kw, "axis", -1), opt_double(kw, "epsilon"))};
  };
  m["normalize"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::normalize(in[0], axes_of(kw, "axis", -1), kw.value("order", 2),
                                     opt_double(kw, "epsilon"))};
  };
  m["one_hot"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::one_hot(in[0], kw["num_classes"].get<int64_t>(), kw.value("axis", -1),
                                   dtype_arg(kw), kw.value("sparse", false))};
  };
  m["multi_hot"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::multi_hot(in[0], kw["num_classes"].get<int64_t>(),
                                     kw.value("axis", -1), dtype_arg(kw), kw.value("sparse", false))};
  };
  auto attention_options = [](const json& kw) {
    ops::DotProductAttentionOptions o;
    o.scale = opt_double(kw, "scale");
    o.is_causal = kw.value("is_causal", false);
    return o;
  };
  m["dot_product_attention"] = [attention_options](const TensorList& in, const json& kw) {
    ops::DotProductAttentionOptions o = attention_options(kw);
    o.bias = input_or_undefined(in, 3);
    return TensorList{ops::dot_product_attention(in[0], in[1], in[2], o)};
  };
  m["dot_product_attention_mask"] = [attention_options](const TensorList& in, const json& kw) {
    ops::DotProductAttentionOptions o = attention_options(kw);
    o.mask = in[3];
    o.bias = input_or_undefined(in, 4);
    return TensorList{ops::dot_product_attention(in[0], in[1], in[2], o)};
  };
  m["cpu_linear"] = [](const TensorList& in, const json&) {
    // The fused dense primitive, called directly: no op routes to it yet.
    using backend::Activation;
    TensorList outs;
    for (Activation act : {Activation::None, Activation::Relu, Activation::Sigmoid,
                           Activation::Tanh, Activation::Gelu, Activation::Silu}) {
      Tensor out = ops::zeros({in[0].shape()[0], in[1].shape()[1]}, in[0].dtype());
      in[0].backend().linear(out.array(), in[0].array(), in[1].array(), in[2].array(), act);
      outs.push_back(out);
    }
    return outs;
  };
  return m;
}

TEST(NnOpsGolden, MatchReference) { test::run_golden("nn_ops", nn_ops()); }

TEST(NnOpsGolden, DecomposedMatchReference) {
  // The same cases with the fused kernels (softmax) replaced by their decompositions.
  backend::DecomposeScope decompose;
  test::run_golden("nn_ops", nn_ops());
}

// The same cases with the outputs of real Keras 3.15 (tools/keras_oracle/ops.py); cpu_linear
// (a keras-cpp kernel) is left out there.
TEST(NnOpsOracle, MatchKeras) { test::run_oracle("ops_nn_ops", nn_ops()); }

}  // namespace
}  // namespace keras
