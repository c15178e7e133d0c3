// keras.activations, initializers, regularizers and constraints: values against NumPy/PyTorch
// (tools/golden/layer_functions.py) and Keras itself (tests/oracle/fixtures), random initializers against the closed forms of their
// distributions, and configs.

#include <gtest/gtest.h>

#include <cmath>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::json;

// kwargs "fn" names the function; "regularizer" / "constraint", when present, is the Keras
// record {"class_name", "config"} to deserialize instead.
test::GoldenOps function_ops() {
  test::GoldenOps m;
  m["activation"] = [](const TensorList& in, const json& kw) {
    return TensorList{activations::get(kw["fn"].get<std::string>())(in[0])};
  };
  m["regularizer"] = [](const TensorList& in, const json& kw) {
    std::string name = kw["fn"].get<std::string>();
    regularizers::RegularizerPtr r =
        kw.contains("regularizer") ? regularizers::deserialize(kw["regularizer"])
        : kw.contains("mode")      ? std::make_shared<regularizers::OrthogonalRegularizer>(
                                    0.01, kw["mode"].get<std::string>())
                                   : regularizers::get(name);
    return TensorList{(*r)(in[0])};
  };
  m["constraint"] = [](const TensorList& in, const json& kw) {
    auto c = kw.contains("constraint") ? constraints::deserialize(kw["constraint"])
                                       : constraints::get(kw["fn"].get<std::string>());
    return TensorList{(*c)(in[0])};
  };
  return m;
}

TEST(LayerFunctions, MatchNumpyAndTorch) {
  auto ops = test::run_golden("layer_functions", function_ops());
  EXPECT_EQ(ops.size(), 3u);
}

// The same cases computed by Keras 3.15 (tools/keras_oracle/layer_functions.py), plus every
// activation keras-cpp has (edge values, float64), configured regularizers and constraints.
TEST(LayerFunctions, MatchKeras) {
  auto ops = test::run_oracle("layer_functions", function_ops());
  EXPECT_EQ(ops.size(), 3u);
}

TEST(Activations, NamesAndErrors) {
  EXPECT_TRUE(activations::Activation().is_linear());
  EXPECT_EQ(activations::get("relu").name(), "relu");
  EXPECT_EQ(activations::serialize(activations::get("gelu")), "gelu");
  EXPECT_EQ(activations::deserialize(json(nullptr)).name(), "linear");
  try {
    activations::get("rellu");
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("'rellu'"), std::string::npos);
  }
}

double stddev_of(const Tensor& t) {
  auto v = t.to_vector<double>();
  double mean = 0, var = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  for (double x : v) var += (x - mean) * (x - mean);
  return std::sqrt(var / static_cast<double>(v.size() - 1));
}

TEST(Initializers, VarianceScalingMatchesItsFormulas) {
  // keras/src/initializers/random_initializers.py: glorot_uniform limit sqrt(6/(in+out)),
  // he_normal stddev sqrt(2/in) after truncation at 2 sigma, lecun_uniform limit sqrt(3/in).
  const Shape shape{400, 300};
  Tensor g = (*initializers::GlorotUniform(1))(shape, DType::Float32);
  double limit = std::sqrt(6.0 / 700.0);
  EXPECT_LE(ops::max(ops::absolute(g)).item<double>(), limit);
  EXPECT_NEAR(stddev_of(g), limit / std::sqrt(3.0), 0.01 * limit);
  Tensor h = (*initializers::HeNormal(2))(shape, DType::Float32);
  EXPECT_NEAR(stddev_of(h), std::sqrt(2.0 / 400.0), 0.02 * std::sqrt(2.0 / 400.0));
  EXPECT_LE(ops::max(ops::absolute(h)).item<double>(), 2.0 * std::sqrt(2.0 / 400.0) / 0.87962566103423978 + 1e-6);
  Tensor l = (*initializers::LecunUniform(3))(Shape{3, 3, 16, 8}, DType::Float32);
  EXPECT_LE(ops::max(ops::absolute(l)).item<double>(), std::sqrt(3.0 / (3 * 3 * 16)));
  EXPECT_EQ(initializers::compute_fans(Shape{3, 3, 16, 8}), std::make_pair(144.0, 72.0));
  // Keras 3.15's input_axes/output_axes (compute_fans multiplies the sizes of those axes):
  // an EinsumDense-style kernel (in, heads, head_dim) with fans in=in, out=heads*head_dim.
  EXPECT_EQ(initializers::compute_fans(Shape{12, 4, 5}, std::vector<int>{0},
                                       std::vector<int>{1, -1}),
            std::make_pair(12.0, 20.0));
  auto fan_axes = initializers::deserialize(json::parse(
      R"({"class_name": "GlorotUniform", "config": {"seed": 4, "input_axes": [0],
          "output_axes": [1, 2]}})"));
  Tensor e = (*fan_axes)(Shape{12, 4, 5}, DType::Float32);
  EXPECT_LE(ops::max(ops::absolute(e)).item<double>(), std::sqrt(6.0 / 32.0));
  EXPECT_GT(ops::max(ops::absolute(e)).item<double>(), std::sqrt(6.0 / 80.0));  // not 3-D rule
  EXPECT_EQ(initializers::serialize(*fan_axes)["config"]["output_axes"], json::parse("[1, 2]"));
  EXPECT_THROW((*initializers::deserialize(json::parse(
                   R"({"class_name": "HeNormal", "config": {"input_axes": [3],
                       "output_axes": [1]}})")))(Shape{2, 2}, DType::Float32),
               ValueError);
}

TEST(Initializers, SeedsRepeatAndConfigsRoundTrip) {
  auto a = initializers::GlorotUniform(7), b = initializers::GlorotUniform(7);
  EXPECT_TENSOR_EQ((*a)({4, 5}, DType::Float32), (*b)({4, 5}, DType::Float32));
  // An unseeded instance keeps the seed it drew, as Keras 3's do; two instances differ.
  auto c = initializers::get("glorot_uniform"), d = initializers::get("glorot_uniform");
  EXPECT_TENSOR_EQ((*c)({3, 3}, DType::Float32), (*c)({3, 3}, DType::Float32));
  EXPECT_NE((*c)({3, 3}, DType::Float32).to_vector<float>(), (*d)({3, 3}, DType::Float32).to_vector<float>());
  for (std::string name : {"zeros", "ones", "random_normal", "random_uniform", "truncated_normal",
                           "glorot_normal", "he_uniform", "lecun_normal", "orthogonal", "identity",
                           "variance_scaling", "constant"}) {
    auto init = initializers::get(name);
    json record = initializers::serialize(*init);
    EXPECT_EQ(initializers::serialize(*initializers::deserialize(record)), record) << name;
  }
  // Keras 3.15's config of a preset: the seed and the fan axes.
  EXPECT_EQ(initializers::serialize(*initializers::GlorotUniform())["config"],
            json({{"seed", nullptr}, {"input_axes", nullptr}, {"output_axes", nullptr}}));
  EXPECT_THROW(initializers::get("glorot"), ValueError);
}

TEST(Initializers, OrthogonalAndIdentity) {
  Tensor q = (*std::make_shared<initializers::Orthogonal>(2.0, 5))({6, 4}, DType::Float64);
  // q^T q = gain^2 I for a tall matrix.
  EXPECT_TENSOR_NEAR(ops::matmul(ops::transpose(q), q), ops::multiply(ops::eye(4, std::nullopt, 0, DType::Float64), 4.0), 1e-12, 1e-12);
  Tensor w = (*std::make_shared<initializers::Orthogonal>(1.0, 6))({3, 7}, DType::Float64);
  EXPECT_TENSOR_NEAR(ops::matmul(w, ops::transpose(w)), ops::eye(3, std::nullopt, 0, DType::Float64), 1e-12, 1e-12);
  EXPECT_TENSOR_EQ((*initializers::get("identity"))({2, 3}, DType::Float32), ops::eye(2, 3));
}

TEST(RegularizersAndConstraints, ConfigsAndErrors) {
  EXPECT_EQ(regularizers::serialize(regularizers::get("l1_l2"))["config"],
            json({{"l1", 0.01}, {"l2", 0.01}}));
  EXPECT_EQ(regularizers::serialize(std::make_shared<regularizers::L1L2>())["config"],
            json({{"l1", 0.0}, {"l2", 0.0}}));
  EXPECT_THROW(regularizers::L1(-1.0), ValueError);
  EXPECT_THROW(regularizers::get("l3"), ValueError);
  auto c = constraints::get("max_norm");
  EXPECT_EQ(constraints::serialize(c)["config"], json({{"max_value", 2.0}, {"axis", 0}}));
  EXPECT_EQ(constraints::serialize(constraints::deserialize(constraints::serialize(c))),
            constraints::serialize(c));
  EXPECT_THROW(constraints::get("positive"), ValueError);
}

}  // namespace
}  // namespace keras
