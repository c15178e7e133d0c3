#include "workloads.h"

namespace keras::soak {

const std::vector<Workload>& workloads() {
  auto steps = [](const SoakSettings& s) { return s.train_steps; };
  auto predicts = [](const SoakSettings& s) { return s.predict_calls; };
  static const std::vector<Workload> all = {
      {"train_compiled",
       [](const SoakSettings& s, SoakData& d, MemoryRecorder& r) {
         return train_on_batch_loop(s, d, r, false);
       },
       steps},
      {"train_eager",
       [](const SoakSettings& s, SoakData& d, MemoryRecorder& r) {
         return train_on_batch_loop(s, d, r, true);
       },
       steps},
      {"fit_dataset", fit_dataset_with_checkpoints, fit_steps},
      {"save_load", save_load_loop, [](const SoakSettings& s) { return s.save_loads; }},
      {"predict_on_batch", predict_on_batch_loop, predicts},
      {"model_call_eager", eager_call_loop, predicts},
      {"predict", predict_loop, predicts},
      {"serve", serve_loop, predicts},
  };
  return all;
}

}  // namespace keras::soak
