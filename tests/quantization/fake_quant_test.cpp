// keras.quantizers.fake_quant_with_min_max_vars, Quantizer and get against Keras 3.15
// (tools/keras_oracle/multi_optimizer.py): values and the custom gradients by the inputs, the
// minimum and the maximum, per tensor and per channel, 2 to 8 bits, narrow range or not; and
// what get() returns for names and serialized objects.

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "assertions.h"
#include "oracle_fixture.h"
#include "keras/keras.h"
#include "keras/quantizers/quantizer.h"

namespace keras {
namespace {

using json = nlohmann::json;
namespace q = keras::quantizers;

const Tensor& fixture(const std::string& key) {
  return test::oracle_array("multi_optimizer", key);
}

const json& doc() { return test::oracle_json("multi_optimizer"); }

double expect_close(const Tensor& actual, const Tensor& expected, double atol,
                    const std::string& what) {
  EXPECT_EQ(actual.shape(), expected.shape()) << what;
  EXPECT_EQ(actual.dtype(), expected.dtype()) << what;
  if (actual.shape() != expected.shape()) return INFINITY;
  auto a = ops::cast(actual, DType::Float64).to_vector<double>();
  auto e = ops::cast(expected, DType::Float64).to_vector<double>();
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - e[i]));
  EXPECT_LE(worst, atol) << what;
  return worst;
}

TEST(FakeQuantOracle, ValuesAndGradientsAreKeras) {
  double worst_value = 0, worst_grad = 0;
  int cases = 0;
  for (const auto& [c, meta] : doc()["fake_quant"].items()) {
    SCOPED_TRACE(c);
    const std::string p = "fq." + c + ".";
    const int bits = meta["num_bits"];
    const bool narrow = meta["narrow_range"];
    std::optional<int> axis;
    if (!meta["axis"].is_null()) axis = meta["axis"].get<int>();
    auto f = [&](const std::vector<Tensor>& in) {
      return q::fake_quant_with_min_max_vars(in[0], in[1], in[2], bits, narrow, axis);
    };
    std::vector<Tensor> in = {fixture(p + "x"), fixture(p + "min"), fixture(p + "max")};
    worst_value = std::max(worst_value, expect_close(f(in), fixture(p + "out"), 1e-6, "values"));
    auto grads = keras::grad(
        [&](const std::vector<Tensor>& xs) {
          return ops::sum(ops::multiply(f(xs), fixture(p + "r")));
        },
        in);
    ASSERT_EQ(grads.size(), 3u);
    worst_grad = std::max(worst_grad, expect_close(grads[0], fixture(p + "grad_x"), 1e-5, "dx"));
    worst_grad =
        std::max(worst_grad, expect_close(grads[1], fixture(p + "grad_min"), 1e-5, "dmin"));
    worst_grad =
        std::max(worst_grad, expect_close(grads[2], fixture(p + "grad_max"), 1e-5, "dmax"));
    ++cases;
  }
  EXPECT_EQ(cases, 7);
  std::cout << "[ fake_quant ] largest difference from Keras: values " << worst_value
            << ", gradients " << worst_grad << "\n";
}

TEST(FakeQuant, BadArguments) {
  Tensor x = ops::ones({2, 3});
  EXPECT_THROW(q::fake_quant_with_min_max_vars(x, ops::zeros({3}), ops::ones({3})), ValueError);
  EXPECT_THROW(q::fake_quant_with_min_max_vars(x, Tensor(0.0), Tensor(1.0), 1), ValueError);
  EXPECT_THROW(q::fake_quant_with_min_max_vars(x, ops::zeros({3}), ops::ones({3}), 8, false, 2),
               ValueError);
  EXPECT_THROW(q::fake_quant_with_min_max_vars(ops::ones({2}, DType::Int32), Tensor(0.0),
                                               Tensor(1.0)),
               ValueError);
}

TEST(QuantizersGet, MatchesKeras) {
  const json& expected = doc()["quantizers_get"];
  for (const auto& [ident, want] : expected.items()) {
    SCOPED_TRACE(ident);
    const json id = want.contains("record") ? want["record"] : json(ident);
    if (want.contains("error")) {
      // Keras raises ValueError, or AttributeError for a configuration named by string.
      EXPECT_THROW(q::get(id), ValueError);
      continue;
    }
    q::QuantizerPtr obj = q::get(id);
    ASSERT_NE(obj, nullptr);
    EXPECT_EQ(obj->class_name(), want["class"].get<std::string>());
    if (want.contains("config")) {
      json config = obj->get_config();
      for (const auto& [k, v] : want["config"].items()) EXPECT_EQ(config[k], v) << k;
    }
  }
  EXPECT_EQ(q::get(json()), nullptr);
  // The base class returns its input and has no config, as Keras's.
  q::Quantizer base;
  Tensor x = ops::ones({2});
  EXPECT_EQ(base(x).size(), 1u);
  EXPECT_THROW(base.get_config(), NotImplementedError);
  // AbsMaxQuantizer through get: {values, scale} as abs_max_quantize.
  auto absmax = q::get(json("abs_max_quantizer"));
  Tensor v = ops::convert_to_tensor(std::vector<float>{-2, 1, 0.5, 4}, {2, 2});
  TensorList out = (*absmax)(v);
  ASSERT_EQ(out.size(), 2u);
  q::Quantized direct = q::abs_max_quantize(v, -1);
  EXPECT_TENSOR_EQ(out[0], direct.values);
  EXPECT_TENSOR_EQ(out[1], direct.scale);
  EXPECT_EQ(q::serialize(*absmax)["class_name"], "AbsMaxQuantizer");
}

}  // namespace
}  // namespace keras
