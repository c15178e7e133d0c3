// The training workloads: train_on_batch (compiled and eager), fit on a Dataset pipeline with
// checkpoints saved, reloaded and checked every few hundred steps, and save/load in a loop.

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "workloads.h"

namespace keras::soak {

namespace {

constexpr int64_t kSamples = 6400;

std::string format(const char* pattern, double a, double b, double c = 0) {
  char text[160];
  std::snprintf(text, sizeof text, pattern, a, b, c);
  return text;
}

// Whether `a` and `b` predict bit for bit the same on `x`.
bool same_predictions(Model& a, Model& b, const Tensor& x) {
  return a.predict_on_batch(x).single().to_vector<float>() ==
         b.predict_on_batch(x).single().to_vector<float>();
}

}  // namespace

int fit_epochs(const SoakSettings& s) {
  const int64_t steps_per_epoch = kSamples / s.batch_size;
  return static_cast<int>((s.train_steps + steps_per_epoch - 1) / steps_per_epoch);
}

int64_t fit_steps(const SoakSettings& s) { return fit_epochs(s) * (kSamples / s.batch_size); }

SoakData make_soak_data(int64_t batch_size) {
  SoakData d;
  d.x = random::normal({kSamples, 784}, 0.0, 1.0, float32, 1);
  const Tensor projection = random::normal({784, 10}, 0.0, 1.0, float32, 2);
  d.y = ops::argmax(ops::matmul(d.x, projection), 1);
  for (int64_t start = 0; start + batch_size <= kSamples; start += batch_size) {
    d.x_batches.push_back(d.x.slice({{start, start + batch_size}}));
    d.y_batches.push_back(d.y.slice({{start, start + batch_size}}));
  }
  return d;
}

ModelPtr<Model> make_mlp(bool run_eagerly) {
  ModelPtr<Model> model = Sequential({
      Input({784}),
      layers::Dense(128, {.activation = "relu"}),
      layers::Dense(10, {.activation = "softmax"}),
  });
  model->compile({.optimizer = "adam",
                  .loss = "sparse_categorical_crossentropy",
                  .metrics = {"accuracy"},
                  .run_eagerly = run_eagerly});
  return model;
}

std::string train_on_batch_loop(const SoakSettings& s, SoakData& d, MemoryRecorder& r,
                                bool run_eagerly) {
  ModelPtr<Model> model = make_mlp(run_eagerly);
  const auto batches = static_cast<int64_t>(d.x_batches.size());
  Logs first, last;
  for (int64_t step = 0; step < s.train_steps; ++step) {
    const auto b = static_cast<size_t>(step % batches);
    last = model->train_on_batch(d.x_batches[b], d.y_batches[b]);
    if (step == 0) first = last;
    r.tick();
  }
  if (!run_eagerly) d.trained = model;
  return format("loss %.3f -> %.3f, accuracy %.2f", first.at("loss"), last.at("loss"),
                last.at("accuracy"));
}

std::string fit_dataset_with_checkpoints(const SoakSettings& s, SoakData& d, MemoryRecorder& r) {
  ModelPtr<Model> model = make_mlp(false);
  // A pipeline as people feed fit: shuffled every epoch, a map on two worker threads,
  // batched, prefetched on a background thread.
  auto clip = [](const data::Element& e) {
    return data::Element{ops::clip(e.x.single(), -3.0, 3.0), e.y, {}};
  };
  const data::Dataset dataset = data::Dataset::from_tensor_slices(d.x, d.y)
                                    .shuffle(1024, 7)
                                    .map(clip, 2)
                                    .batch(s.batch_size, /*drop_remainder=*/true)
                                    .prefetch();
  const int epochs = fit_epochs(s);

  // The weights through ModelCheckpoint (as a training job keeps them), and the whole model
  // saved, reloaded and compared with the live one by the probe below.
  const std::filesystem::path dir = s.work_dir;
  auto weights_checkpoint = std::make_shared<callbacks::ModelCheckpoint>(
      (dir / "fit.weights.h5").string(),
      callbacks::ModelCheckpointOptions{.save_weights_only = true,
                                        .save_freq = s.checkpoint_every});
  const std::string model_path = (dir / "fit_checkpoint.keras").string();
  int64_t reloads = 0;
  Logs last;
  auto probe = std::make_shared<callbacks::LambdaCallback>(callbacks::LambdaCallbackOptions{
      .on_train_batch_end =
          [&](int64_t, const Logs& logs) {
            last = logs;
            // Sampled before the checkpoint: a load's transient memory (about 3 MiB, given
            // back to the system right after) would otherwise count in every Nth sample.
            r.tick();
            if (r.calls() % s.checkpoint_every != 0) return;
            model->save(model_path);
            ModelPtr<Model> reloaded = saving::load_model(model_path);
            if (!same_predictions(*model, *reloaded, d.x_batches[0]))
              throw RuntimeError("fit_dataset: the reloaded checkpoint predicts differently");
            ++reloads;
          },
  });
  model->fit(dataset, {.epochs = epochs, .verbose = 0, .callbacks = {weights_checkpoint, probe}});
  return format("%.0f epochs, %.0f checkpoints reloaded equal, accuracy %.2f", epochs,
                static_cast<double>(reloads), last.at("accuracy"));
}

std::string save_load_loop(const SoakSettings& s, SoakData& d, MemoryRecorder& r) {
  const std::string path = (std::filesystem::path(s.work_dir) / "save_load.keras").string();
  for (int64_t i = 0; i < s.save_loads; ++i) {
    d.trained->save(path);
    ModelPtr<Model> loaded = saving::load_model(path);
    if (!same_predictions(*d.trained, *loaded, d.x_batches[static_cast<size_t>(i) % 8]))
      throw RuntimeError("save_load: the loaded model predicts differently");
    r.tick();
  }
  return "every loaded model predicts as the saved one";
}

}  // namespace keras::soak
