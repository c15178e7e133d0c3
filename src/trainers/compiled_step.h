#pragma once
// The default steps' compiled form: a step's batch flattened into keras::jit's inputs (its
// structure and the training flag in the signature), and the metrics' results read after the
// step instead of inside it.

#include <functional>

#include "keras/trainers/options.h"
#include "trainers/compile_state.h"

namespace keras::trainers {

/// True while a compiled step is being traced on this thread: get_metrics_result() then
/// returns nothing (reading results on the host would keep the step from compiling; the
/// trainer reads them after the step).
bool metric_results_deferred();

/// Runs `body` on `data` through `step`'s compiled function (made on first use, named `name`).
TensorList run_compiled(CompiledStep& step, const char* name, const StepData& data, bool training,
                        std::function<TensorList(const StepData&)> body);

}  // namespace keras::trainers
