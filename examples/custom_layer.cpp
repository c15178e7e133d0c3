// A custom layer and a subclassed model: subclass keras::Layer, create weights in build(),
// compute in call(); autograd supplies the backward pass. The same layer works eagerly, in a
// Sequential model and in the Functional API.

#include <keras/keras.h>

#include <cstdio>

namespace ops = keras::ops;
namespace layers = keras::layers;

// y = x * scale + shift, one weight per feature.
class ScaleShift : public keras::Layer {
 public:
  void build(const keras::Shape& input_shape) override {
    scale_ = add_weight({.shape = {input_shape.back()}, .initializer = "ones", .name = "scale"});
    shift_ = add_weight({.shape = {input_shape.back()}, .initializer = "zeros", .name = "shift"});
  }
  keras::Tensor call(const keras::Tensor& x, const keras::CallContext&) override {
    return ops::add(ops::multiply(x, scale_), shift_);
  }

 private:
  keras::Variable scale_, shift_;
};

// A model with its own forward pass: sublayers are tracked by name, as Keras tracks attributes.
class TwoTower : public keras::Model {
 public:
  TwoTower() {
    left_ = track("left", layers::Dense(8, {.activation = "relu"}));
    right_ = track("right", layers::Dense(8, {.activation = "tanh"}));
    head_ = track("head", layers::Dense(1));
  }
  keras::Tensor call(const keras::Tensor& x, const keras::CallContext&) override {
    return head_(ops::concatenate({left_(x), right_(x)}, -1));
  }

 private:
  keras::LayerPtr<layers::DenseLayer> left_, right_, head_;
};

int main() {
  keras::utils::set_random_seed(1);
  keras::Tensor x = keras::random::normal({16, 4});

  // Eagerly (the first call builds the weights), and its gradient.
  auto layer = keras::make_layer<ScaleShift>();
  layer(x);
  auto [loss, grads] = keras::value_and_grad(
      [&] { return ops::mean(ops::square(layer(x))); }, layer->trainable_weights());
  std::printf("ScaleShift: %zu weights, loss %.4f, |dL/dscale| %.4f\n",
              layer->trainable_weights().size(), loss.item<double>(),
              ops::sum(ops::absolute(grads[0])).item<double>());

  // In the Functional API: symbolic shapes, then a summary.
  auto inputs = keras::Input({4});
  auto outputs = layers::Dense(2)(keras::make_layer<ScaleShift>()(inputs));
  auto model = keras::Functional(inputs, outputs);
  model->summary({.line_length = 70});

  // A subclassed model.
  auto towers = keras::make_layer<TwoTower>();
  keras::Tensor y = towers(x);
  std::printf("TwoTower output %s, %lld parameters\n", y.shape().to_string().c_str(),
              static_cast<long long>(towers->count_params()));
  return y.shape() == keras::Shape({16, 1}) ? 0 : 1;
}
