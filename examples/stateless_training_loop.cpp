// A training loop written with Keras 3's stateless API only: the model's weights, the
// optimizer's slots and the metric's counters are plain tensors that the loop owns and threads
// through stateless_call, value_and_grad, stateless_apply and stateless_update_state. The
// objects themselves are never modified (what JAX-style training and checkpointing want). At
// the end the values are assigned back and the model is evaluated the usual way.

#include <iostream>

#include <keras/keras.h>

namespace ops = keras::ops;
namespace layers = keras::layers;

int main() {
  try {
    keras::utils::set_random_seed(11);
    keras::Tensor x = keras::random::normal({512, 3});
    keras::Tensor y = ops::cast(ops::greater(ops::sum(ops::square(x), {1}, true),
                                             ops::full_like(ops::slice(x, {0, 0}, {512, 1}), 3.0)),
                                keras::DType::Float32);  // outside a sphere of radius sqrt(3)

    auto model = keras::Sequential({keras::Input({3}),
                                    layers::Dense(32, {.activation = "relu"}),
                                    layers::BatchNormalization({.momentum = 0.9}),
                                    layers::Dense(1, {.activation = "sigmoid"})});
    auto optimizer = keras::optimizers::get("adam");
    optimizer->build(model->trainable_weights());
    keras::losses::BinaryCrossentropy loss_fn;
    auto accuracy = std::make_shared<keras::metrics::BinaryAccuracy>();

    // The state, owned by the loop.
    std::vector<keras::Tensor> trainable, non_trainable, optimizer_vars, metric_vars;
    for (const auto& v : model->trainable_weights()) trainable.push_back(v.value());
    for (const auto& v : model->non_trainable_weights()) non_trainable.push_back(v.value());
    for (const auto& v : optimizer->variables()) optimizer_vars.push_back(v.value());

    const int64_t batch = 32;
    for (int epoch = 1; epoch <= 20; ++epoch) {
      metric_vars = accuracy->stateless_reset_state();
      for (int64_t s = 0; s < 512; s += batch) {
        keras::Tensor xb = x.slice({{s, s + batch}}), yb = y.slice({{s, s + batch}});
        keras::Tensor y_pred;
        std::vector<keras::Tensor> updated_non_trainable;
        auto [loss, grads] = keras::value_and_grad(
            [&](const std::vector<keras::Tensor>& tv) {
              auto result = model->stateless_call(tv, non_trainable, {xb}, {.training = true});
              y_pred = result.outputs[0];
              updated_non_trainable = result.non_trainable_variables;
              return loss_fn(yb, y_pred);
            },
            trainable);
        non_trainable = updated_non_trainable;  // BatchNormalization's moving statistics
        std::tie(trainable, optimizer_vars) =
            optimizer->stateless_apply(optimizer_vars, grads, trainable);
        metric_vars = accuracy->stateless_update_state(metric_vars, yb, ops::stop_gradient(y_pred));
      }
      std::cout << "epoch " << epoch
                << " - accuracy: " << accuracy->stateless_result(metric_vars).item<double>() << "\n";
    }

    // Hand the state back to the objects, then use the model as usual.
    auto trainable_vars = model->trainable_weights();
    auto non_trainable_vars = model->non_trainable_weights();
    for (size_t i = 0; i < trainable.size(); ++i) trainable_vars[i].assign(trainable[i]);
    for (size_t i = 0; i < non_trainable.size(); ++i) non_trainable_vars[i].assign(non_trainable[i]);
    model->compile({.optimizer = optimizer, .loss = "binary_crossentropy", .metrics = {"accuracy"}});
    keras::Logs scores = model->evaluate(x, y, {.verbose = 0});
    std::cout << "evaluate: accuracy " << scores.at("accuracy") << "\n";
    return scores.at("accuracy") > 0.9 ? 0 : 1;
  } catch (const keras::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
