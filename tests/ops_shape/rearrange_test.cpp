// ops::rearrange (keras.ops.rearrange, einops-style) against Keras 3.15 itself
// (tools/keras_oracle/einops.py -> tests/oracle/fixtures/einops.npz): Keras's docstring
// patterns (transpose, merges, splits with an inferred length, space-to-depth) and more, and a
// Keras Functional file with a Rearrange op node; the gradient by finite differences; errors.

#include <gtest/gtest.h>

#include "golden.h"
#include "gradcheck_helpers.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::json;

TEST(Rearrange, MatchesKeras) {
  test::GoldenOps ops;
  ops["rearrange"] = [](const TensorList& in, const json& kw) {
    std::map<std::string, int64_t> lengths;
    for (const auto& [name, value] : kw["axes_lengths"].items())
      lengths[name] = value.get<int64_t>();
    return TensorList{ops::rearrange(in[0], kw["pattern"].get<std::string>(), lengths)};
  };
  // Keras's Functional model with a Rearrange op node (the lengths as call kwargs), its file
  // loaded by keras-cpp.
  ops["rearrange_model"] = [](const TensorList& in, const json&) {
    auto model = saving::load_model(std::string(KERAS_ORACLE_DIR) + "/einops_model.keras");
    return TensorList{(*model)(in[0])};
  };
  EXPECT_EQ(test::run_oracle("einops", ops).size(), 2u);
}

TEST(Rearrange, GradientMatchesFiniteDifferences) {
  test::expect_gradcheck(
      "rearrange",
      [](const std::vector<Tensor>& x) {
        return ops::rearrange(x[0], "b (h h1) w -> b h (w h1)", {{"h1", 2}});
      },
      {test::randn({2, 4, 3}, 7)});
}

TEST(Rearrange, BadPatternsNameTheProblem) {
  Tensor x = ops::zeros({2, 6, 4});
  EXPECT_THROW(ops::rearrange(x, "a b c"), ValueError);                 // no arrow
  EXPECT_THROW(ops::rearrange(x, "a b -> b a"), ValueError);            // rank 3, two axes
  EXPECT_THROW(ops::rearrange(x, "a b c -> a b d"), ValueError);        // d is not an input
  EXPECT_THROW(ops::rearrange(x, "a b c -> a b"), ValueError);          // c dropped
  EXPECT_THROW(ops::rearrange(x, "a (b b1) c -> a b b1 c", {{"b1", 4}}), ValueError);  // 6 % 4
  EXPECT_THROW(ops::rearrange(x, "a (b b1) c -> a b b1 c"), ValueError);  // two unknowns
  EXPECT_THROW(ops::rearrange(x, "a (b c -> a b c"), ValueError);        // unclosed group
}

}  // namespace
}  // namespace keras
