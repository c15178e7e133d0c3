// float8 numerics against Keras 3.15 and ml_dtypes (tools/keras_oracle/quantize_float8.py):
// the rounding onto the e4m3fn and e5m2 grids, quantize_and_dequantize, compute_float8_scale,
// compute_float8_amax_history; and the optimizers' overwrite_with_gradient path against
// Keras's optimizers applied by hand.

#include <cstring>

#include "float8_support.h"
#include "keras/quantizers/float8.h"

namespace keras {
namespace {

using float8_test::expect_close;
using float8_test::fixture;

// The float32 bits, with every nan as one pattern (payloads are not part of the contract).
std::vector<uint32_t> bits_of(const Tensor& t) {
  std::vector<uint32_t> out;
  for (float f : ops::cast(t, DType::Float32).to_vector<float>()) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    out.push_back(std::isnan(f) ? 0x7fc00000u : b);
  }
  return out;
}

TEST(Float8Numerics, RoundingIsMlDtypesCastBitForBit) {
  // Every float8 value, every midpoint (ties) and its float32 neighbours, random values over
  // 38 binades, subnormals, the largest values and past them, +-inf, nan, -0.
  const Tensor& x = fixture("round.x");
  for (const char* format : {"float8_e4m3fn", "float8_e5m2"}) {
    auto got = bits_of(quantizers::round_to_float8(x, format));
    auto want = bits_of(fixture(std::string("round.") + format));
    auto xs = x.to_vector<float>();
    ASSERT_EQ(got.size(), want.size());
    int bad = 0;
    for (size_t i = 0; i < got.size(); ++i)
      if (got[i] != want[i] && bad++ < 10)
        ADD_FAILURE() << format << ": x = " << xs[i] << " (index " << i << ")";
    EXPECT_EQ(bad, 0) << format << ": " << bad << " of " << got.size() << " differ";
  }
}

TEST(Float8Numerics, RoundingKeepsTheInputDtype) {
  Tensor x = ops::convert_to_tensor(std::vector<float>{0.3f, 17.f, -500.f}, {3});
  for (DType d : {DType::BFloat16, DType::Float16, DType::Float64}) {
    Tensor y = quantizers::round_to_float8(ops::cast(x, d), "float8_e5m2");
    EXPECT_EQ(y.dtype(), d);
    expect_close(y, quantizers::round_to_float8(x, "float8_e5m2"), 0, 0, std::string(dtype_name(d)));
  }
}

TEST(Float8Numerics, QuantizeAndDequantizeAsKeras) {
  const Tensor& x = fixture("qdq.x");
  for (const char* format : {"float8_e4m3fn", "float8_e5m2"})
    expect_close(quantizers::quantize_and_dequantize(x, fixture("qdq.scale"), format,
                                                     DType::Float32),
                 fixture(std::string("qdq.") + format), 0, 0, format);
}

TEST(Float8Numerics, ScaleAndAmaxHistoryAsKeras) {
  // amax 0, inf and nan keep the old scale; the others give amax / 448.
  expect_close(quantizers::compute_float8_scale(fixture("scale.amax"), fixture("scale.scale"),
                                                ops::full({}, 448.0, DType::Float32)),
               fixture("scale.out"), 0, 0, "compute_float8_scale");
  // Keras's roll-then-overwrite: [amax, h2, h3, h0] from [h0, h1, h2, h3].
  expect_close(quantizers::compute_float8_amax_history(fixture("amax.x"), fixture("amax.history")),
               fixture("amax.out"), 0, 0, "compute_float8_amax_history");
}

TEST(Float8Numerics, UnknownFormatIsAValueError) {
  EXPECT_THROW(quantizers::round_to_float8(ops::ones({2}), "float8_e4m3"), ValueError);
  EXPECT_THROW(quantizers::float8_max("int8"), ValueError);
}

// ---- the optimizers' overwrite path -----------------------------------------------------------

// t[i] along the first axis.
Tensor row(const Tensor& t, int64_t i) {
  return ops::take(t, Tensor(Scalar::typed_int(i, DType::Int64)), 0);
}

optimizers::OptimizerPtr make_optimizer(const std::string& run) {
  using namespace optimizers;
  if (run == "sgd") return SGD({.learning_rate = 0.1, .momentum = 0.9});
  if (run == "adam_scaled") return Adam({.learning_rate = 0.1, .loss_scale_factor = 4.0});
  if (run == "sgd_accum") return SGD({.learning_rate = 0.1, .gradient_accumulation_steps = 2});
  return Adam({.learning_rate = 0.1, .use_ema = true});
}

TEST(Float8Optimizers, OverwriteWithGradientAsKeras) {
  // w is trained; s (overwrite_with_gradient) takes its gradient as its value: unscaled by
  // loss_scale_factor, never clipped or decayed, no slots or EMA average; with gradient
  // accumulation the running maximum on the update step.
  const Tensor& grads = fixture("overwrite.grads");
  for (const std::string run : {"sgd", "adam_scaled", "sgd_accum", "adam_ema"}) {
    SCOPED_TRACE(run);
    Variable w(fixture("overwrite.w0"), {.name = "w"});
    Variable s(fixture("overwrite.s0"), {.name = "s", .overwrite_with_gradient = true});
    auto opt = make_optimizer(run);
    std::vector<Tensor> values;
    for (int64_t step = 0; step < grads.shape()[0]; ++step) {
      Tensor g = row(grads, step);
      opt->apply({row(g, 0), row(g, 1)}, {w, s});
      values.push_back(ops::stack({w.value(), s.value()}));
    }
    expect_close(ops::stack(values), fixture("overwrite." + run), 1e-6, 1e-7, run);
    EXPECT_EQ(static_cast<int64_t>(opt->variables().size()),
              fixture("overwrite." + run + ".num_variables").item<int64_t>());
  }
}

TEST(Float8Optimizers, StatelessApplyOverwritesAsApply) {
  // Keras's stateless_apply runs apply on the given values: the first step of the "sgd" run.
  Variable w(fixture("overwrite.w0"), {.name = "w"});
  Variable s(fixture("overwrite.s0"), {.name = "s", .overwrite_with_gradient = true});
  auto opt = make_optimizer("sgd");
  opt->build({w, s});
  Tensor g = row(fixture("overwrite.grads"), 0);
  std::vector<Tensor> opt_values;
  for (const Variable& v : opt->variables()) opt_values.push_back(v.value());
  auto [trained, state] = opt->stateless_apply(
      opt_values, {row(g, 0), row(g, 1)}, {w.value(), s.value()});
  Tensor first = row(fixture("overwrite.sgd"), 0);
  expect_close(ops::stack(trained), first, 1e-6, 1e-7, "stateless_apply");
  expect_close(s.value(), fixture("overwrite.s0"), 0, 0, "s after stateless_apply");
}

TEST(Float8Optimizers, OnlyOverwrittenVariablesStillCountTheStep) {
  Variable s(ops::zeros({2}), {.name = "s", .overwrite_with_gradient = true});
  optimizers::SGD opt(0.1);
  optimizers::Optimizer& base = opt;
  base.apply({ops::ones({2})}, {s});
  EXPECT_EQ(s.value().to_vector<float>(), (std::vector<float>{1, 1}));
  EXPECT_EQ(base.iterations().value().item<int64_t>(), 1);
}

}  // namespace
}  // namespace keras
