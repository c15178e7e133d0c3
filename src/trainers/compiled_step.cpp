#include "trainers/compiled_step.h"

#include <mutex>
#include <string>

namespace keras::trainers {
namespace {

thread_local bool deferred = false;
// The batch whose structure a trace on this thread rebuilds from the flat inputs (per thread:
// two threads may predict with one model at once).
thread_local const StepData* traced_data = nullptr;

struct DeferMetricResults {
  bool previous = deferred;
  DeferMetricResults() { deferred = true; }
  ~DeferMetricResults() { deferred = previous; }
};

// The shape of a step's data as text: part of a compiled step's signature.
std::string structure_of(const TensorStruct& t) {
  switch (t.kind()) {
    case TensorStruct::Kind::None: return "-";
    case TensorStruct::Kind::Single: return "t";
    case TensorStruct::Kind::List:
      return "l" + std::to_string(t.size());
    case TensorStruct::Kind::Map: {
      std::string keys = "m";
      for (const auto& [k, v] : t.map()) keys += k + ",";
      return keys;
    }
  }
  return "?";
}

// `like`'s structure filled with the flat tensors (x, then y, then sample_weight).
StepData rebuild(const StepData& like, const TensorList& flat) {
  size_t next = 0;
  auto take = [&](const TensorStruct& part) {
    if (!part.defined()) return part;
    TensorList own(flat.begin() + static_cast<std::ptrdiff_t>(next),
                   flat.begin() + static_cast<std::ptrdiff_t>(next + part.size()));
    next += part.size();
    return part.with_flat(own);
  };
  StepData out;
  out.x = take(like.x);
  out.y = take(like.y);
  out.sample_weight = take(like.sample_weight);
  return out;
}

}  // namespace

bool metric_results_deferred() { return deferred; }

TensorList run_compiled(CompiledStep& step, const char* name, const StepData& data,
                        bool training, std::function<TensorList(const StepData&)> body) {
  {
    std::lock_guard<std::mutex> lock(step.mutex);
    if (!step.function.defined())
      step.function = jit(
          [body = std::move(body)](const TensorList& flat) {
            DeferMetricResults defer;
            return body(rebuild(*traced_data, flat));
          },
          name);
  }
  TensorList flat = data.x.flat();
  for (const TensorStruct* part : {&data.y, &data.sample_weight})
    for (const Tensor& t : part->flat()) flat.push_back(t);
  // Plain concatenation: a string stream's construction was 1% of a small model's step.
  const std::string key = (training ? "train|" : "infer|") + structure_of(data.x) + "|" +
                          structure_of(data.y) + "|" + structure_of(data.sample_weight);
  struct Current {
    const StepData* previous = traced_data;
    explicit Current(const StepData& d) { traced_data = &d; }
    ~Current() { traced_data = previous; }
  } current(data);
  return step.function(flat, key);
}

}  // namespace keras::trainers
