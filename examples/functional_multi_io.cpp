// A Functional model with two inputs and two outputs, per-output losses, loss weights and
// metrics (keyed by output name, as in Keras), trained with fit, saved as .keras and loaded
// back. The task: from a "title" vector and a "body" vector, predict a priority score
// (regression) and whether a ticket is urgent (binary classification).

#include <iostream>

#include <keras/keras.h>

namespace ops = keras::ops;
namespace layers = keras::layers;

int main() {
  try {
    keras::utils::set_random_seed(3);
    const int64_t n = 1024;
    keras::Tensor title = keras::random::normal({n, 8});
    keras::Tensor body = keras::random::normal({n, 16});
    // The targets depend on both inputs.
    keras::Tensor signal = ops::sum(ops::slice(title, {0, 0}, {n, 4}), {1}, true) -
                           ops::sum(ops::slice(body, {0, 0}, {n, 4}), {1}, true);
    keras::Tensor priority = signal * 0.5 + 1.0;
    keras::Tensor urgent = ops::cast(ops::greater(signal, ops::zeros_like(signal)), keras::DType::Float32);

    auto title_in = keras::Input({8}, {.name = "title"});
    auto body_in = keras::Input({16}, {.name = "body"});
    auto t = layers::Dense(16, {.activation = "relu"})(title_in);
    auto b = layers::Dense(16, {.activation = "relu"})(body_in);
    auto merged = layers::Concatenate()(std::vector<keras::KerasTensor>{t, b})[0];
    auto hidden = layers::Dense(32, {.activation = "relu"})(merged);
    auto priority_out = layers::Dense(1, {.name = "priority"})(hidden);
    auto urgent_out = layers::Dense(1, {.activation = "sigmoid", .name = "urgent"})(hidden);
    auto model = keras::Functional(std::vector<keras::KerasTensor>{title_in, body_in},
                                   std::vector<keras::KerasTensor>{priority_out, urgent_out});
    model->summary();

    model->compile({.optimizer = keras::optimizers::Adam({.learning_rate = 1e-2}),
                    .loss = std::map<std::string, keras::losses::LossArg>{
                        {"priority", "mse"}, {"urgent", "binary_crossentropy"}},
                    .loss_weights = std::map<std::string, double>{{"priority", 1.0},
                                                                  {"urgent", 0.5}},
                    .metrics = std::map<std::string, std::vector<keras::metrics::MetricArg>>{
                        {"priority", {"mae"}}, {"urgent", {"accuracy"}}}});
    keras::TensorStruct x = std::map<std::string, keras::Tensor>{{"title", title}, {"body", body}};
    keras::TensorStruct y = std::map<std::string, keras::Tensor>{{"priority", priority},
                                                                {"urgent", urgent}};
    model->fit(x, y, {.batch_size = 64, .epochs = 30, .verbose = 2, .validation_split = 0.2});
    keras::Logs scores = model->evaluate(x, y, {.verbose = 0});
    std::cout << "urgent_accuracy: " << scores.at("urgent_accuracy")
              << ", priority_mae: " << scores.at("priority_mae") << "\n";

    model->save("functional_multi_io.keras");
    auto loaded = keras::saving::load_model("functional_multi_io.keras");
    keras::Logs again = loaded->evaluate(x, y, {.verbose = 0});
    std::cout << "reloaded urgent_accuracy: " << again.at("urgent_accuracy") << "\n";
    bool learned = scores.at("urgent_accuracy") > 0.9 && scores.at("priority_mae") < 0.2;
    bool same = std::abs(again.at("loss") - scores.at("loss")) < 1e-6;
    return learned && same ? 0 : 1;
  } catch (const keras::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
