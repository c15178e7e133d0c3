// The inference workloads: compiled predict_on_batch, eager model(x), predict's loop, and the
// model server's request handler (JSON in, batching queue, JSON out) with hot reloads.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "serve/model_registry.h"
#include "serve/request_handler.h"
#include "workloads.h"

namespace keras::soak {

namespace {

// With retain_predictions, every output stays alive here: the deliberate leak the soak must
// report (about 1.8 KiB per call of batch 32: the 1.25 KiB of outputs and their handles).
void maybe_retain(const SoakSettings& s, const TensorStruct& prediction) {
  static std::vector<TensorStruct> retained;
  if (s.retain_predictions) retained.push_back(prediction);
}

const Tensor& batch_for(const SoakData& d, int64_t call) {
  return d.x_batches[static_cast<size_t>(call) % d.x_batches.size()];
}

std::string predict_body(const Tensor& row) {
  nlohmann::json instance = row.to_vector<float>();
  return nlohmann::json{{"instances", nlohmann::json::array({instance})}}.dump();
}

}  // namespace

std::string predict_on_batch_loop(const SoakSettings& s, SoakData& d, MemoryRecorder& r) {
  for (int64_t i = 0; i < s.predict_calls; ++i) {
    maybe_retain(s, d.trained->predict_on_batch(batch_for(d, i)));
    r.tick();
  }
  return "compiled predict_function: " +
         std::to_string(d.trained->predict_function().tracing_count()) + " trace(s)";
}

std::string eager_call_loop(const SoakSettings& s, SoakData& d, MemoryRecorder& r) {
  for (int64_t i = 0; i < s.predict_calls; ++i) {
    maybe_retain(s, (*d.trained)(batch_for(d, i)));
    r.tick();
  }
  return "model(x), no trace";
}

std::string predict_loop(const SoakSettings& s, SoakData& d, MemoryRecorder& r) {
  for (int64_t i = 0; i < s.predict_calls; ++i) {
    maybe_retain(s, d.trained->predict(batch_for(d, i), {.verbose = 0}));
    r.tick();
  }
  return "predict() with its callbacks and batching";
}

std::string serve_loop(const SoakSettings& s, SoakData& d, MemoryRecorder& r) {
  const std::string path = (std::filesystem::path(s.work_dir) / "served.keras").string();
  d.trained->save(path);
  serving::ModelRegistry registry({.max_batch = 32, .batch_timeout_us = 0},
                                  [](const std::string& file) {
                                    return saving::load_model(file, {.compile = false});
                                  });
  registry.add_file("mlp", path);
  serving::RequestHandler handler(registry);
  // One body per row of the first batch: JSON parsing and writing are part of the path.
  std::vector<std::string> bodies;
  const Tensor& rows = d.x_batches[0];
  for (int64_t i = 0; i < rows.shape()[0]; ++i) bodies.push_back(predict_body(rows.slice({{i, i + 1}})));
  const std::vector<float> expected = d.trained->predict_on_batch(rows).single().to_vector<float>();

  int64_t reloads = 0;
  for (int64_t i = 0; i < s.predict_calls; ++i) {
    const size_t row = static_cast<size_t>(i) % bodies.size();
    serving::HttpReply reply = handler.handle({"POST", "/v1/models/mlp:predict", bodies[row]});
    if (reply.status != 200)
      throw RuntimeError("serve: request " + std::to_string(i) + " got " +
                         std::to_string(reply.status) + ": " + reply.body);
    if (i < static_cast<int64_t>(bodies.size())) {
      // The served rows are the model's own predictions.
      const auto got = nlohmann::json::parse(reply.body).at("predictions").at(0);
      for (size_t k = 0; k < got.size(); ++k)
        if (std::abs(got[k].get<double>() - expected[row * got.size() + k]) > 1e-5)
          throw RuntimeError("serve: row " + std::to_string(row) + " differs from predict");
    }
    r.tick();  // before a reload, whose transient memory is given back right after
    // Ten hot reloads in a run, as a served file replaced by a training job: the new version
    // serves, the old one's worker ends.
    if ((i + 1) % std::max<int64_t>(s.predict_calls / 10, 1) == 0) {
      d.trained->save(path);
      reloads += static_cast<int64_t>(registry.poll().size());
    }
  }
  registry.stop();
  return "requests answered 200, " + std::to_string(reloads) + " hot reload(s)";
}

}  // namespace keras::soak
