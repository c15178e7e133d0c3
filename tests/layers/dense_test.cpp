// Dense against PyTorch (tools/golden/layers_dense.py), on the fused Linear kernel and on the
// plain matmul path, plus its config and bad inputs.

#include <gtest/gtest.h>

#include "assertions.h"
#include "golden.h"
#include "golden_args.h"
#include "keras/keras.h"
#include "layer_harness.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers

GoldenOps dense_ops() {
  GoldenOps m;
  m["dense"] = [](const TensorList& in, const json& kw) {
    auto layer = layers::Dense(kw["units"].get<int64_t>(),
                               {.activation = kw["activation"].get<std::string>(),
                                .use_bias = kw["use_bias"].get<bool>(),
                                .dtype = std::string(dtype_name(in[0].dtype()))});
    return run_layer_fixture(*layer, in, kw);
  };
  return m;
}

TEST(DenseGolden, FusedKernelMatchesTorch) { run_golden("layers_dense", dense_ops()); }

TEST(DenseGolden, DecomposedMatchesTorch) {
  backend::DecomposeScope decompose;
  run_golden("layers_dense", dense_ops());
}

TEST(Dense, WeightsShapesAndNames) {
  backend::clear_session();
  auto d = layers::Dense(3);
  EXPECT_EQ(d->name(), "dense");
  EXPECT_EQ(layers::Dense(2)->name(), "dense_1");
  EXPECT_FALSE(d->built());
  Tensor y = d(ops::ones({4, 5}));
  EXPECT_EQ(y.shape(), Shape({4, 3}));
  ASSERT_EQ(d->weights().size(), 2u);
  EXPECT_EQ(d->kernel().shape(), Shape({5, 3}));
  EXPECT_EQ(d->kernel_variable().path(), "dense/kernel");
  EXPECT_EQ(d->count_params(), 18);
  // Bias starts at zero (bias_initializer="zeros"); glorot_uniform keeps the kernel within
  // sqrt(6 / (5 + 3)).
  EXPECT_EQ(ops::sum(ops::absolute(d->bias())).item<float>(), 0.0f);
  EXPECT_LE(ops::max(ops::absolute(d->kernel())).item<float>(), std::sqrt(6.0f / 8.0f));
}

TEST(Dense, ConfigRoundTrips) {
  auto d = layers::Dense(7, {.activation = "relu",
                             .kernel_initializer = initializers::HeNormal(3),
                             .kernel_regularizer = "l2",
                             .bias_constraint = "non_neg",
                             .name = "hidden"});
  Config c = d->get_config();
  EXPECT_EQ(c["name"], "hidden");
  EXPECT_EQ(c["units"], 7);
  EXPECT_EQ(c["activation"], "relu");
  EXPECT_EQ(c["kernel_initializer"]["class_name"], "HeNormal");
  EXPECT_EQ(c["kernel_initializer"]["config"]["seed"], 3);
  EXPECT_EQ(c["kernel_regularizer"]["config"]["l2"], 0.01);
  EXPECT_EQ(c["dtype"]["config"]["name"], "float32");
  auto again = layers::from_config("Dense", c);
  EXPECT_EQ(again->get_config(), c);
  EXPECT_THROW(layers::from_config("NoSuchLayer", c), ValueError);
}

TEST(Dense, BadInputsAreNamed) {
  EXPECT_THROW(layers::Dense(0), ValueError);
  auto d = layers::Dense(2);
  d(ops::ones({3, 4}));
  try {
    d(ops::ones({3, 5}));
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("(3, 5)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace keras
