// A custom training step (Keras's "customizing what happens in fit"), written once on keras::ops
// and the GradientTape: fit runs it with all its features (callbacks, validation, progress
// bar), on any backend. This one adds an L2 penalty on the outputs to the compiled loss.

#include <iostream>

#include <keras/keras.h>

namespace ops = keras::ops;
namespace layers = keras::layers;

class PenalizedModel : public keras::Model {
 public:
  PenalizedModel() {
    hidden_ = track("hidden", layers::Dense(16, {.activation = "relu"}));
    out_ = track("out", layers::Dense(1));
  }
  keras::Tensor call(const keras::Tensor& x, const keras::CallContext&) override {
    return out_(hidden_(x));
  }
  keras::Logs train_step(const keras::StepData& data) override {
    keras::Tensor loss, y_pred;
    std::vector<keras::Tensor> grads;
    {
      keras::GradientTape tape;
      y_pred = call_struct(data.x, /*training=*/true).single();
      loss = compute_loss(data.x, data.y, y_pred, data.sample_weight) +
             ops::mean(ops::square(y_pred)) * 1e-3;
      grads = tape.gradient(loss, trainable_weights());
    }
    optimizer()->apply(grads, trainable_weights());
    loss_tracker().update_state(loss);
    return compute_metrics(data.x, data.y, y_pred, data.sample_weight);
  }

 private:
  keras::LayerPtr<layers::DenseLayer> hidden_, out_;
};

int main() {
  try {
    keras::utils::set_random_seed(7);
    keras::Tensor x = keras::random::normal({512, 4});
    keras::Tensor w = keras::Tensor::from_vector<float>({1.0f, -2.0f, 0.5f, 3.0f}, {4, 1});
    keras::Tensor y = ops::matmul(x, w) + 0.5;
    auto model = keras::make_layer<PenalizedModel>();
    model->compile({.optimizer = keras::optimizers::Adam({.learning_rate = 1e-2}),
                    .loss = "mse",
                    .metrics = {"mae"}});
    auto history = model->fit(x, y, {.batch_size = 32, .epochs = 30, .verbose = 0,
                                     .validation_split = 0.2});
    double first = history->history.at("loss").front(), last = history->history.at("loss").back();
    std::cout << "loss: " << first << " -> " << last
              << ", val_mae: " << history->history.at("val_mae").back() << "\n";
    return last < first * 0.1 ? 0 : 1;
  } catch (const keras::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
