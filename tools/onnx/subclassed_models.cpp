// The models of the export check whose call() is C++ code (onnx_models.h): export traces it
// into ONNX operators. A subclassed model with a residual block and keras.ops arithmetic, a
// custom layer with its own weights inside a Functional model, a subclassed model that nests a
// custom layer and built-in layers, and Lambda layers. Each subclassed model is called once on
// data, which builds it and gives export its input shapes.

#include "onnx_models.h"

namespace keras::onnx_check {
namespace {

namespace layers = keras::layers;
using Tensors = std::vector<KerasTensor>;

// A custom Dense: its own kernel (stored transposed, units x inputs), bias and per-unit gain,
// silu(x @ kernel^T + bias) * gain.
class ScaledDense : public Layer {
 public:
  explicit ScaledDense(int64_t units) : Layer({}, "scaled_dense"), units_(units) {}
  std::string class_name() const override { return "ScaledDense"; }

  void build(const Shape& input_shape) override {
    kernel_ = add_weight({.shape = {units_, input_shape.back()}, .name = "kernel"});
    bias_ = add_weight({.shape = {units_}, .initializer = "zeros", .name = "bias"});
    gain_ = add_weight({.shape = {units_}, .initializer = "ones", .name = "gain"});
  }
  Tensor call(const Tensor& x, const CallContext&) override {
    const Tensor z = ops::add(ops::matmul(x, ops::transpose(kernel_.value())), bias_.value());
    return ops::multiply(ops::silu(z), gain_.value());
  }

 private:
  int64_t units_;
  Variable kernel_, bias_, gain_;
};

// A subclassed model: a projection, a residual block (x + 0.5 * f(x)), LayerNormalization,
// then keras.ops arithmetic (centring, a scaled norm, tanh, exp, abs, max) before the head.
class ResidualNet : public Model {
 public:
  ResidualNet() : Model({.name = "residual_net"}, "residual_net") {
    proj_ = track("proj", layers::Dense(12));
    inner_ = track("inner", layers::Dense(12, {.activation = "relu"}));
    outer_ = track("outer", layers::Dense(12));
    norm_ = track("norm", layers::LayerNormalization());
    head_ = track("head", layers::Dense(3));
  }
  Tensor call(const Tensor& x, const CallContext&) override {
    Tensor h = proj_(x);
    h = ops::add(h, ops::multiply(outer_(inner_(h)), 0.5));
    h = norm_(h);
    const Tensor centred = ops::subtract(h, ops::mean(h, -1, true));
    const Tensor spread = ops::sqrt(ops::add(ops::mean(ops::square(centred), -1, true), 1e-3));
    const Tensor features = ops::add(ops::tanh(ops::divide(centred, spread)),
                                     ops::exp(ops::negative(ops::abs(h))));
    return head_(ops::maximum(features, -0.5));
  }

 private:
  LayerPtr<> proj_, inner_, outer_, norm_, head_;
};

// A subclassed model nesting built-in layers (Conv1D, pooling, Dense) and the custom layer,
// on sequences: the custom layer's matmul runs on a rank-3 tensor.
class NestedNet : public Model {
 public:
  NestedNet() : Model({.name = "nested_net"}, "nested_net") {
    conv_ = track("conv", layers::Conv1D(6, 3, {.padding = "same", .activation = "relu"}));
    custom_ = track("custom", make_layer<ScaledDense>(5));
    pool_ = track("pool", layers::GlobalAveragePooling1D());
    head_ = track("head", layers::Dense(2, {.activation = "softmax"}));
  }
  Tensor call(const Tensor& x, const CallContext&) override {
    const Tensor h = custom_(conv_(x));
    const Tensor summary = ops::add(pool_(h), ops::max(h, 1));
    return head_(ops::multiply(summary, summary));
  }

 private:
  LayerPtr<> conv_, custom_, pool_, head_;
};

template <typename M>
ModelPtr<Model> called(const Shape& shape) {
  ModelPtr<Model> model = make_layer<M>();
  model(ops::zeros(shape));
  return model;
}

ModelPtr<Model> subclassed_residual() { return called<ResidualNet>({2, 7}); }

ModelPtr<Model> subclassed_nested() { return called<NestedNet>({2, 9, 4}); }

ModelPtr<Model> custom_layer_functional() {
  auto x = Input({6}, {.name = "x"});
  auto h = layers::Dense(8, {.activation = "tanh"})(x);
  auto y = make_layer<ScaledDense>(5)(h);
  return Functional(x, layers::Dense(2)(y), {.name = "custom_layer_functional"});
}

// Lambda layers traced the same way, one of them moving axes: (batch, 6) viewed as (batch, 2,
// 3), transposed, scaled per position and flattened back.
ModelPtr<Model> lambdas() {
  auto x = Input({6}, {.name = "x"});
  auto h = layers::Dense(6)(x);
  auto moved = layers::Lambda([](const Tensor& t) {
    const Tensor grid = ops::transpose(ops::reshape(t, {-1, 2, 3}), {0, 2, 1});
    const Tensor scale = Tensor::from_vector<float>({1, -2, 3, 0.5, 0.25, -1}, {3, 2});
    return ops::reshape(ops::multiply(ops::softmax(grid, 1), scale), {-1, 6});
  })(h);
  auto squared = layers::Lambda([](const Tensor& t) {
    return ops::add(ops::square(t), ops::multiply(t, 0.5));
  })(h);
  return Functional(Tensors{x}, Tensors{moved, squared}, {.name = "lambdas"});
}

// More of what a call() does, traced: comparisons and where, gelu (tanh form, Keras's default
// for ops.gelu) and the other mapped activations, reductions without keepdims broadcast back
// through expand_dims, squeeze, broadcast_to; BatchNormalization and Dropout as sublayers.
class OpsNet : public Model {
 public:
  OpsNet() : Model({.name = "ops_net"}, "ops_net") {
    dense_ = track("dense", layers::Dense(6));
    norm_ = track("norm", layers::BatchNormalization());
    drop_ = track("drop", layers::Dropout(0.5));
  }
  Tensor call(const Tensor& x, const CallContext&) override {
    const Tensor h = drop_(norm_(dense_(x)));
    const Tensor leaky = ops::where(ops::greater(h, Tensor(0.0)), h, ops::multiply(h, 0.1));
    const Tensor row_sum = ops::expand_dims(ops::sum(leaky, 1), 1);
    const Tensor grid = ops::broadcast_to(ops::expand_dims(ops::gelu(h), 1), {h.shape()[0], 2, 6});
    const Tensor mixed = ops::add(ops::squeeze(ops::mean(grid, 1, true), 1),
                                  ops::multiply(ops::rsqrt(ops::add(ops::abs(row_sum), 1.0)),
                                                ops::log1p(ops::abs(leaky))));
    return ops::add(ops::clip(ops::elu(mixed, 0.7), -1.0, 2.0), ops::log_sigmoid(h));
  }

 private:
  LayerPtr<> dense_, norm_, drop_;
};

// Parts of tensors in a traced call: slices with a start, a step and a reversed axis, one
// column picked out, split, concatenate and stack of traced values, and a pad of the feature
// axis (a join with constant slabs).
class PartsNet : public Model {
 public:
  PartsNet() : Model({.name = "parts_net"}, "parts_net") {
    dense_ = track("dense", layers::Dense(8));
    head_ = track("head", layers::Dense(3));
  }
  Tensor call(const Tensor& x, const CallContext&) override {
    const Tensor h = dense_(x);  // (batch, 8)
    const Tensor first = h.slice({{}, {0, 4}}), last = h.slice({{}, {4, 8}});
    const Tensor odd = h.slice({{}, {1, 8, 2}});
    const Tensor reversed = ops::flip(h, {1}).slice({{}, {1, 7, 2}});
    const Tensor column = ops::expand_dims(h.index({Slice{}, int64_t{2}}), 1);
    const TensorList halves = ops::split(ops::tanh(h), 2, 1);
    const Tensor joined = ops::concatenate({ops::multiply(first, last), odd, reversed}, 1);
    const Tensor stacked = ops::mean(ops::stack({first, halves[1]}, 1), 1);
    const Tensor padded = ops::pad(joined, {{0, 0}, {1, 2}});
    return head_(ops::concatenate({padded, stacked, halves[0], column}, 1));
  }

 private:
  LayerPtr<> dense_, head_;
};

// A custom layer that prepends a learned token to a sequence: a weight broadcast to every
// example of the batch, joined to traced values (a constant slab expanded to the batch).
class TokenJoin : public Layer {
 public:
  TokenJoin() : Layer({}, "token_join") {}
  std::string class_name() const override { return "TokenJoin"; }
  void build(const Shape& input_shape) override {
    token_ = add_weight({.shape = {1, input_shape.back()}, .name = "token"});
  }
  Tensor call(const Tensor& x, const CallContext&) override {
    const Tensor token = ops::broadcast_to(ops::expand_dims(token_.value(), 0),
                                          {x.shape()[0], 1, x.shape()[2]});
    return ops::concatenate({token, x}, 1);
  }

 private:
  Variable token_;
};

ModelPtr<Model> token_join() {
  auto x = Input({5, 4}, {.name = "x"});
  auto h = make_layer<TokenJoin>()(layers::Dense(4)(x));
  auto y = layers::Dense(2)(layers::GlobalAveragePooling1D()(h));
  return Functional(x, y, {.name = "token_join"});
}

}  // namespace

std::vector<ModelCase> subclassed_model_cases() {
  return {
      {"subclassed_residual", subclassed_residual},
      {"subclassed_nested", subclassed_nested, 17},
      {"custom_layer_functional", custom_layer_functional},
      {"lambdas", lambdas},
      {"subclassed_ops", [] { return called<OpsNet>({2, 5}); }},
      {"subclassed_ops_opset20", [] { return called<OpsNet>({2, 5}); }, 20},
      {"subclassed_parts", [] { return called<PartsNet>({2, 6}); }},
      {"token_join", token_join},
  };
}

}  // namespace keras::onnx_check
