// CTC (ops::ctc_loss, ops::ctc_decode, losses::CTC) against Keras 3.15 itself
// (tools/keras_oracle/ctc.py -> tests/oracle/fixtures/ctc.npz): loss values and their gradient
// with respect to the logits (jax.grad through Keras's function), greedy and beam-search
// decoding, and the loss class's reductions; plus the gradient against finite differences.

#include <gtest/gtest.h>

#include "golden.h"
#include "gradcheck_helpers.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::GoldenOps;
using test::json;

GoldenOps ctc_ops() {
  GoldenOps ops;
  ops["ctc_loss"] = [](const TensorList& in, const json& kw) {
    Tensor logits = in[1];
    GradientTape tape;
    tape.watch(logits);
    Tensor loss = ops::ctc_loss(in[0], logits, in[2], in[3], kw["mask_index"].get<int>());
    Tensor grad = tape.gradient(ops::sum(loss), logits);
    return TensorList{loss, grad};
  };
  ops["ctc_decode"] = [](const TensorList& in, const json& kw) {
    auto [decoded, scores] = ops::ctc_decode(
        in[0], in[1],
        {.merge_repeated = kw["merge_repeated"].get<bool>(),
         .mask_index = kw["mask_index"].get<int>()});
    return TensorList{decoded, scores};
  };
  ops["ctc_beam_decode"] = [](const TensorList& in, const json& kw) {
    auto [decoded, scores] = ops::ctc_decode(in[0], in[1],
                                             {.strategy = "beam_search",
                                              .beam_width = kw["beam_width"].get<int>(),
                                              .top_paths = kw["top_paths"].get<int>(),
                                              .mask_index = kw["mask_index"].get<int>()});
    return TensorList{decoded, scores};
  };
  ops["CTC"] = [](const TensorList& in, const json& kw) {
    losses::CTC loss({.reduction = kw["reduction"].get<std::string>()});
    return TensorList{loss(in[0], in[1])};
  };
  return ops;
}

TEST(CTC, MatchesKeras) {
  auto exercised = test::run_oracle("ctc", ctc_ops());
  EXPECT_EQ(exercised.size(), 4u);
}

TEST(CTC, GradientMatchesFiniteDifferences) {
  Tensor target = ops::convert_to_tensor(std::vector<int32_t>{1, 2, 2, 3, 1, 0}, Shape{2, 3});
  Tensor target_length = ops::convert_to_tensor(std::vector<int32_t>{3, 1}, Shape{2});
  Tensor output_length = ops::convert_to_tensor(std::vector<int32_t>{7, 5}, Shape{2});
  test::expect_gradcheck(
      "ctc_loss",
      [&](const std::vector<Tensor>& x) {
        return ops::ctc_loss(target, x[0], target_length, output_length);
      },
      {test::randn({2, 7, 4}, 3)});
}

TEST(CTC, ConfigAndErrors) {
  auto loss = losses::get("ctc");
  EXPECT_EQ(loss->class_name(), "CTC");
  EXPECT_EQ(loss->get_config()["name"], "ctc");
  Tensor logits = ops::zeros({2, 5, 3});
  // Labels must be (batch, max_label_length).
  EXPECT_THROW(losses::CTC()(ops::zeros({2}), logits), ValueError);
  EXPECT_THROW(ops::ctc_loss(ops::zeros({2, 2}, DType::Int32), logits, ops::ones({2}),
                             ops::ones({2}), 3),
               ValueError);  // mask_index outside the classes
  EXPECT_THROW(ops::ctc_decode(logits, ops::ones({2}), {.strategy = "beam"}), ValueError);
  EXPECT_THROW(ops::ctc_decode(logits, ops::ones({2}),
                               {.strategy = "beam_search", .beam_width = 2, .top_paths = 5}),
               ValueError);  // more paths than the beam holds
}

}  // namespace
}  // namespace keras
