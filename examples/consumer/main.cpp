// A program that uses keras-cpp as an installed library: it fits y = 2x - 1 with one Dense
// unit, saves the model as a .keras file, loads it back and checks that the loaded model
// predicts what the trained one does. Exit 0 when all of that holds.

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <vector>

#include <keras/keras.h>

int main() {
  using namespace keras;
  std::vector<float> xs, ys;
  for (int i = 0; i < 64; ++i) {
    const float x = static_cast<float>(i) / 32.0f - 1.0f;
    xs.push_back(x);
    ys.push_back(2.0f * x - 1.0f);
  }
  Tensor x = Tensor::from_vector(xs, {64, 1}), y = Tensor::from_vector(ys, {64, 1});
  auto model = Sequential({Input({1}), layers::Dense(1)});
  model->compile({.optimizer = optimizers::SGD({.learning_rate = 0.1}), .loss = "mse"});
  auto history = model->fit(x, y, {.batch_size = 16, .epochs = 60, .verbose = 0});
  const double loss = history->history.at("loss").back();

  const auto path = std::filesystem::temp_directory_path() / "keras_consumer_model.keras";
  model->save(path.string());
  auto loaded = saving::load_model(path.string());
  std::filesystem::remove(path);
  const std::vector<float> a = model->predict(x, {.verbose = 0}).single().to_vector<float>();
  const std::vector<float> b = loaded->predict(x, {.verbose = 0}).single().to_vector<float>();
  const bool same = a == b;
  std::printf("keras-cpp consumer: final loss %.2e, loaded model %s\n", loss,
              same ? "predicts the same" : "DIFFERS");
  bool torch_same = true;
#ifdef KERAS_WITH_TORCH
  // Linked with keras::torch: the loaded model on the "torch" backend predicts the same.
  loaded->to("torch");
  const std::vector<float> c = loaded->predict(x, {.verbose = 0}).single().to_vector<float>();
  for (size_t i = 0; i < a.size(); ++i) torch_same = torch_same && std::fabs(a[i] - c[i]) < 1e-5f;
  std::printf("keras-cpp consumer: on the torch backend %s\n",
              torch_same ? "predicts the same" : "DIFFERS");
#endif
  return loss < 1e-3 && same && torch_same ? 0 : 1;
}
