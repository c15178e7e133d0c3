// The Layer and Model machinery: custom layers, Sequential, Functional (several inputs and
// outputs, shared layers, nested models, intermediate outputs), subclassed models, freezing,
// masks and names. Numbers are checked against the same computation written with ops.

#include <gtest/gtest.h>

#include "assertions.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::make;

// A custom layer: y = x * w + b, with its own weights (as in docs/models-and-layers.md).
class Affine : public Layer {
 public:
  void build(const Shape& input_shape) override {
    w_ = add_weight({.shape = {input_shape.back()}, .initializer = "ones", .name = "w"});
    b_ = add_weight({.shape = {input_shape.back()}, .initializer = "zeros", .name = "b"});
  }
  Tensor call(const Tensor& x, const CallContext&) override {
    return ops::add(ops::multiply(x, w_), b_);
  }
  Variable w_, b_;
};

// A two-input layer: x1 + x2 (what Add does), to build branching graphs.
class Sum2 : public Layer {
 public:
  TensorList call_list(const TensorList& xs, const CallContext&) override {
    return {ops::add(xs[0], xs[1])};
  }
};

// A layer whose behaviour depends on training (like Dropout): adds 1 when training.
class TrainFlag : public Layer {
 public:
  Tensor call(const Tensor& x, const CallContext& ctx) override {
    return *ctx.training ? ops::add(x, 1.0) : x;
  }
};

// A layer that marks zeros as masked, and one that reads the mask (like Embedding(mask_zero)
// and an RNN).
class MaskZeros : public Layer {
 public:
  MaskZeros() { set_supports_masking(true); }
  Tensor call(const Tensor& x, const CallContext&) override { return x; }
  Tensor compute_mask(const Tensor& x, const Tensor&) const override {
    return ops::not_equal(x, 0.0);
  }
};
class MaskedSum : public Layer {
 public:
  MaskedSum() { set_supports_masking(true); }
  Tensor call(const Tensor& x, const CallContext& ctx) override {
    seen_mask = ctx.mask.defined();
    return ctx.mask.defined() ? ops::sum(ops::where(ctx.mask, x, 0.0), -1, true)
                              : ops::sum(x, -1, true);
  }
  Tensor compute_mask(const Tensor&, const Tensor&) const override { return Tensor(); }
  bool seen_mask = false;
};

TEST(CustomLayer, BuildsOnFirstCallAndTrains) {
  auto layer = make_layer<Affine>();
  Tensor x = make({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_FALSE(layer->built());
  EXPECT_TENSOR_NEAR(layer(x), x, 0, 0);
  EXPECT_TRUE(layer->built());
  ASSERT_EQ(layer->trainable_weights().size(), 2u);
  layer->w_.assign(make({2, 2, 2}, {3}));
  auto [loss, grads] = value_and_grad([&] { return ops::sum(layer(x)); }, layer->trainable_weights());
  EXPECT_NEAR(loss.item<double>(), 42.0, 1e-5);
  EXPECT_TENSOR_NEAR(grads[0], make({5, 7, 9}, {3}), 1e-6, 0);  // column sums of x
  EXPECT_TENSOR_NEAR(grads[1], make({2, 2, 2}, {3}), 1e-6, 0);
}

TEST(CustomLayer, ConfigHasTheBaseKeys) {
  auto layer = make_layer<Affine>();
  Config c = layer->get_config();
  EXPECT_EQ(c["name"], layer->name());
  EXPECT_EQ(c["trainable"], true);
  EXPECT_EQ(layer->class_name(), "Affine");
}

TEST(Sequential, ShapesNamesWeightsAndCall) {
  backend::clear_session();
  auto model = Sequential({Input({784}), layers::Dense(64, {.activation = "relu"}),
                           layers::Dense(10, {.activation = "softmax"})});
  EXPECT_EQ(model->name(), "sequential");
  ASSERT_EQ(model->layers().size(), 2u);  // the InputLayer is not one of them
  EXPECT_EQ(model->layers()[0]->name(), "dense");
  EXPECT_EQ(model->layers()[1]->name(), "dense_1");
  EXPECT_EQ(model->count_params(), 784 * 64 + 64 + 64 * 10 + 10);
  EXPECT_EQ(model->layer_output_shape(*model->layers()[0]), "(None, 64)");
  Tensor x = random::uniform({3, 784}, 0, 1, std::nullopt, 1);
  Tensor y = model(x);
  EXPECT_EQ(y.shape(), Shape({3, 10}));
  // The same computation written with ops.
  auto d0 = std::dynamic_pointer_cast<layers::DenseLayer>(model->layers()[0]);
  auto d1 = std::dynamic_pointer_cast<layers::DenseLayer>(model->layers()[1]);
  Tensor expected = ops::softmax(ops::add(
      ops::matmul(ops::relu(ops::add(ops::matmul(x, d0->kernel()), d0->bias())), d1->kernel()),
      d1->bias()));
  EXPECT_TENSOR_NEAR(y, expected, 1e-5, 1e-7);
}

TEST(Sequential, BuildsFromTheFirstCallAndAdds) {
  auto model = Sequential();
  model->add(layers::Dense(4));
  model->add(make_layer<Affine>());
  EXPECT_FALSE(model->built());
  Tensor y = model(ops::ones({2, 3}));
  EXPECT_EQ(y.shape(), Shape({2, 4}));
  EXPECT_TRUE(model->built());
  EXPECT_EQ(model->weights().size(), 4u);
  model->pop();
  EXPECT_EQ(model->layers().size(), 1u);
}

TEST(Functional, MultipleInputsOutputsAndSharedLayers) {
  auto a = Input({4}, {.name = "a"});
  auto b = Input({4}, {.name = "b"});
  auto shared = layers::Dense(3, {.name = "shared"});
  auto ha = shared(a), hb = shared(b);  // one layer, two calls: same weights
  auto merged = make_layer<Sum2>()(std::vector<KerasTensor>{ha, hb})[0];
  auto head = layers::Dense(2, {.name = "head"});
  auto model = Functional({a, b}, {merged, head(merged)});
  EXPECT_EQ(model->inputs().size(), 2u);
  EXPECT_EQ(merged.shape(), Shape({-1, 3}));
  EXPECT_FALSE(model->sequential_like());
  EXPECT_EQ(model->get_layer("shared").get(), shared.get());
  EXPECT_EQ(model->weights().size(), 4u);  // shared's two weights counted once

  Tensor xa = make({1, 2, 3, 4}, {1, 4}), xb = make({0, 1, 0, 1}, {1, 4});
  TensorList out = (*model)(TensorList{xa, xb});
  ASSERT_EQ(out.size(), 2u);
  Tensor expected = ops::add(shared(xa), shared(xb));
  EXPECT_TENSOR_NEAR(out[0], expected, 1e-6, 1e-7);
  EXPECT_TENSOR_NEAR(out[1], head(expected), 1e-6, 1e-7);
  EXPECT_THROW((*model)(TensorList{xa}), ValueError);
  EXPECT_THROW((*model)(TensorList{xa, make({1, 2, 3}, {1, 3})}), ValueError);
}

TEST(Functional, LayerOrderFollowsKerasDepthOrder) {
  // keras/src/ops/function.py orders layers by depth, then by first traversal from the
  // outputs: here input, then the two branches in the order the output walk meets them.
  backend::clear_session();
  auto x = Input({2});
  auto left = layers::Dense(2, {.name = "left"})(x);
  auto right = layers::Dense(2, {.name = "right"})(x);
  auto out = make_layer<Sum2>()(std::vector<KerasTensor>{left, right})[0];
  auto model = Functional(x, out);
  std::vector<std::string> names;
  for (const auto& l : model->layers()) names.push_back(l->name());
  EXPECT_EQ(names, (std::vector<std::string>{"input_layer", "left", "right", "sum2"}));
}

TEST(Functional, NestedModelsAndFeatureExtraction) {
  auto inner_in = Input({3});
  auto hidden = layers::Dense(5, {.activation = "tanh", .name = "hidden"});
  auto inner = Functional(inner_in, layers::Dense(2)(hidden(inner_in)));
  auto outer_in = Input({3});
  auto outer = Functional(outer_in, layers::Dense(1)(inner(outer_in)));
  EXPECT_EQ(outer->weights().size(), 6u);
  Tensor x = random::normal({4, 3}, 0, 1, std::nullopt, 2);
  EXPECT_EQ(outer(x).shape(), Shape({4, 1}));
  // A model that stops at an intermediate layer shares its weights with the full one.
  auto features = Functional(inner->inputs()[0], hidden->output());
  EXPECT_TENSOR_NEAR(features(x), hidden(x), 0, 0);
  EXPECT_EQ(features->weights().size(), 2u);
}

TEST(Functional, DisconnectedGraphsAreNamed) {
  auto a = Input({2}), b = Input({2});
  auto y = layers::Dense(1)(b);
  try {
    Functional(a, y);
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("Graph disconnected"), std::string::npos) << e.what();
  }
}

class TwoLayers : public Model {
 public:
  TwoLayers() {
    first_ = track("first", layers::Dense(4, {.activation = "relu"}));
    second_ = track("second", layers::Dense(1));
  }
  Tensor call(const Tensor& x, const CallContext&) override { return second_(first_(x)); }
  LayerPtr<layers::DenseLayer> first_, second_;
};

TEST(SubclassedModel, TracksSublayersAndFreezes) {
  auto model = make_layer<TwoLayers>();
  Tensor y = model(ops::ones({2, 3}));
  EXPECT_EQ(y.shape(), Shape({2, 1}));
  EXPECT_EQ(model->layers().size(), 2u);
  EXPECT_EQ(model->trainable_weights().size(), 4u);
  model->first_->set_trainable(false);
  EXPECT_EQ(model->trainable_weights().size(), 2u);
  EXPECT_EQ(model->non_trainable_weights().size(), 2u);
  model->set_trainable(false);
  EXPECT_TRUE(model->trainable_weights().empty());
  // A frozen model's weights get no gradient on the tape.
  GradientTape tape;
  EXPECT_FALSE(model(ops::ones({1, 3})).requires_grad());
}

TEST(Layers, TrainingFlagPropagatesToSublayers) {
  auto model = Sequential({Input({2}), make_layer<TrainFlag>()});
  Tensor x = ops::zeros({1, 2});
  EXPECT_EQ(ops::sum(model(x)).item<float>(), 0.0f);
  EXPECT_EQ(ops::sum(model(x, {.training = true})).item<float>(), 2.0f);
}

TEST(Layers, MasksFlowFromLayerToLayer) {
  auto masker = make_layer<MaskZeros>();
  auto reader = make_layer<MaskedSum>();
  Tensor x = make({1, 0, 3, 0, 5, 6}, {2, 3});
  Tensor y = reader(masker(x));
  EXPECT_TRUE(reader->seen_mask);
  EXPECT_TENSOR_NEAR(y, make({4, 11}, {2, 1}), 0, 0);
  // The input itself carries no mask afterwards.
  reader(x);
  EXPECT_FALSE(reader->seen_mask);
}

TEST(Layers, SetWeightsChecksCountAndShapes) {
  auto d = layers::Dense(2);
  d(ops::ones({1, 3}));
  EXPECT_THROW(d->set_weights({ops::ones({3, 2})}), ValueError);
  EXPECT_THROW(d->set_weights({ops::ones({2, 2}), ops::ones({2})}), ValueError);
  d->set_weights({ops::ones({3, 2}), ops::full({2}, 0.5)});
  EXPECT_TENSOR_NEAR(d(ops::ones({1, 3})), make({3.5, 3.5}, {1, 2}), 0, 0);
}

TEST(Layers, RegularizationLosses) {
  auto d = layers::Dense(2, {.kernel_initializer = "ones", .kernel_regularizer = "l2",
                             .activity_regularizer = "l1"});
  Tensor y = d(make({1, -1}, {1, 2}));
  TensorList losses = d->losses();
  ASSERT_EQ(losses.size(), 2u);
  EXPECT_NEAR(losses[0].item<double>(), 0.0, 1e-7);  // activity: l1 * sum|y| with y = 0
  EXPECT_NEAR(losses[1].item<double>(), 0.04, 1e-7);  // kernel: 0.01 * 4 ones
}

TEST(Layers, StackAllocatedLayersExplainTheFunctionalError) {
  Affine local;
  EXPECT_THROW(local(Input({2})), ValueError);
}

}  // namespace
}  // namespace keras

namespace keras {
namespace {

TEST(Naming, SnakeCaseMatchesKeras) {
  // Values from keras/src/utils/naming.py to_snake_case (and KERAS_REFERENCE.md 1.7).
  EXPECT_EQ(to_snake_case("Conv2D"), "conv2d");
  EXPECT_EQ(to_snake_case("BatchNormalization"), "batch_normalization");
  EXPECT_EQ(to_snake_case("UpSampling2D"), "up_sampling2d");
  EXPECT_EQ(to_snake_case("Conv1DTranspose"), "conv1d_transpose");
  EXPECT_EQ(to_snake_case("LSTM"), "lstm");
  EXPECT_EQ(to_snake_case("GRUCell"), "gru_cell");
  EXPECT_EQ(to_snake_case("InputLayer"), "input_layer");
  EXPECT_EQ(to_snake_case("ReLU"), "re_lu");
  EXPECT_EQ(to_snake_case("MultiHeadAttention"), "multi_head_attention");
}

}  // namespace
}  // namespace keras
