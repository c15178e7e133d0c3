// The merging and reshaping layers against PyTorch and NumPy (tools/golden/layers_merging.py):
// outputs and input gradients, and Keras's mask rules for the merge layers.

#include <gtest/gtest.h>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"
#include "layer_harness.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the fixture helpers

// A layer made from the case's Keras config (so the configs Keras writes are what is read),
// computing in the inputs' floating dtype.
std::shared_ptr<Layer> layer_from_case(const std::string& cls, const TensorList& in,
                                       const json& kw) {
  Config c = kw.at("config");
  if (is_floating(in[0].dtype())) c["dtype"] = std::string(dtype_name(in[0].dtype()));
  return layers::from_config(cls, c);
}

GoldenOps layer_ops(const std::vector<std::string>& classes) {
  GoldenOps ops;
  for (const std::string& cls : classes)
    ops[cls] = [cls](const TensorList& in, const json& kw) {
      auto layer = layer_from_case(cls, in, kw);
      return run_layer_fixture(*layer, in, kw);
    };
  return ops;
}

// Inputs then one (batch, steps) mask per input ("has_mask" says which are real); the output
// and, when there is one, the output mask.
TensorList run_masked(const TensorList& in, const json& kw) {
  const size_t n = kw.at("n_inputs").get<size_t>();
  auto layer = layers::from_config(kw.at("cls").get<std::string>(), kw.at("config"));
  TensorList xs(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(n));
  CallContext ctx;
  std::vector<bool> present = kw.at("has_mask").get<std::vector<bool>>();
  for (size_t i = 0; i < n; ++i) ctx.masks.push_back(present[i] ? in[n + i] : Tensor());
  Tensor y = (*layer)(xs, ctx).at(0);
  TensorList out{y};
  if (y.impl()->keras_mask) out.push_back(Tensor(y.impl()->keras_mask));
  return out;
}

const std::vector<std::string> kMerging = {"Add",     "Average",  "Concatenate", "Dot",
                                           "Maximum", "Minimum",  "Multiply",    "Subtract"};
const std::vector<std::string> kReshaping = {
    "Cropping1D",   "Cropping2D",   "Cropping3D",    "Flatten",       "Permute",
    "RepeatVector", "Reshape",      "UpSampling1D",  "UpSampling2D",  "UpSampling3D",
    "ZeroPadding1D", "ZeroPadding2D", "ZeroPadding3D"};

TEST(MergingGolden, MatchesTorch) {
  GoldenOps ops = layer_ops(kMerging);
  ops["masked"] = run_masked;
  auto exercised = run_golden("layers_merging", ops);
  for (const auto& cls : kMerging) EXPECT_TRUE(exercised.count(cls)) << cls;
  EXPECT_TRUE(exercised.count("masked"));
}

TEST(ReshapingGolden, MatchesTorch) {
  auto exercised = run_golden("layers_reshaping", layer_ops(kReshaping));
  for (const auto& cls : kReshaping) EXPECT_TRUE(exercised.count(cls)) << cls;
}

// The masks a previous layer attached reach the merge layers, as in a Keras model. This one
// masks the steps with no positive feature.
class MaskPositive : public Layer {
 public:
  MaskPositive() { set_supports_masking(true); }
  Tensor call(const Tensor& x, const CallContext&) override { return x; }
  Tensor compute_mask(const Tensor& x, const Tensor&) const override {
    return ops::any(ops::greater(x, 0.0), -1);
  }
};

TEST(MergingMasks, AttachedMasksAreCombined) {
  Tensor a = make({0, 0, 1, 2, 0, 0, 3, 4}, {1, 4, 2});
  Tensor b = make({0, 0, 0, 0, 1, 2, 3, 4}, {1, 4, 2});
  auto masker = make_layer<MaskPositive>();
  Tensor ma = masker(a), mb = masker(b);
  // Concatenate along the steps: the masks side by side.
  Tensor c = layers::Concatenate(1)(TensorList{ma, mb}).at(0);
  ASSERT_TRUE(c.impl()->keras_mask);
  EXPECT_EQ(Tensor(c.impl()->keras_mask).to_vector<bool>(),
            (std::vector<bool>{false, true, false, true, false, false, true, true}));
  // Add: the OR of the masks.
  Tensor s = layers::add(TensorList{ma, mb});
  ASSERT_TRUE(s.impl()->keras_mask);
  EXPECT_EQ(Tensor(s.impl()->keras_mask).to_vector<bool>(),
            (std::vector<bool>{false, true, true, true}));
  // An unmasked input: Add has no output mask; Concatenate treats it as all true.
  EXPECT_FALSE(layers::add(TensorList{ma, b}).impl()->keras_mask);
  Tensor c2 = layers::concatenate(TensorList{ma, b}, 1);
  EXPECT_EQ(Tensor(c2.impl()->keras_mask).to_vector<bool>(),
            (std::vector<bool>{false, true, false, true, true, true, true, true}));
  // Dot outputs no mask.
  EXPECT_FALSE(layers::dot(TensorList{ma, mb}, {2, 2}).impl()->keras_mask);
  // Maximum: masked entries defer to the other input.
  Tensor mx = layers::maximum(TensorList{ma, mb});
  EXPECT_TENSOR_EQ(mx, make({0, 0, 1, 2, 1, 2, 3, 4}, {1, 4, 2}));
}

// Zeroes the masked steps of its input (a mask consumer, like an RNN).
class ZeroMasked : public Layer {
 public:
  ZeroMasked() { set_supports_masking(true); }
  Tensor call(const Tensor& x, const CallContext& ctx) override {
    if (!ctx.mask.defined()) return x;
    return ops::where(ops::expand_dims(ctx.mask, -1), x, 0.0);
  }
  Tensor compute_mask(const Tensor&, const Tensor&) const override { return Tensor(); }
};

TEST(MergingMasks, FunctionalModelPropagatesMasks) {
  // Keras's test_concatenate_with_mask_symbolic: the mask Concatenate computes from a masked
  // and an unmasked input reaches the next layer of the model.
  auto in1 = Input({4, 2}), in2 = Input({4, 2});
  auto masked = make_layer<MaskPositive>()(in1);
  auto joined = layers::Concatenate(1)(std::vector<KerasTensor>{masked, in2}).at(0);
  auto out = make_layer<ZeroMasked>()(joined);
  auto model = Functional({in1, in2}, {out});
  Tensor x1 = make({-1, -1, 1, 2, -3, -3, 3, 4}, {1, 4, 2});
  Tensor x2 = make({-5, -5, 6, 6, 1, 2, 3, 4}, {1, 4, 2});
  Tensor y = (*model)(TensorList{x1, x2}).at(0);
  // Mask (0, 1, 0, 1, 1, 1, 1, 1): x1's negative steps are masked, every x2 step is kept.
  EXPECT_TENSOR_EQ(y, make({0, 0, 1, 2, 0, 0, 3, 4, -5, -5, 6, 6, 1, 2, 3, 4}, {1, 8, 2}));
  // Add of the masked input with itself keeps x1's mask; masked steps are zeroed downstream.
  auto summed = layers::add({masked, masked});
  auto model2 = Functional({in1}, {make_layer<ZeroMasked>()(summed)});
  Tensor x3 = make({-7, -1, 1, 2, -2, -2, 3, 4}, {1, 4, 2});
  EXPECT_TENSOR_EQ((*model2)(TensorList{x3}).at(0), make({0, 0, 2, 4, 0, 0, 6, 8}, {1, 4, 2}));
}

}  // namespace
}  // namespace keras
