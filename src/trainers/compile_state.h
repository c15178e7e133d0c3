#pragma once
// What compile() leaves on a model: the optimizer, the resolved loss and metrics, and the
// loss tracker ("loss" in the logs).

#include <memory>
#include <mutex>

#include "keras/compiler/jit.h"
#include "keras/metrics/reduction_metrics.h"
#include "keras/trainers/options.h"
#include "trainers/compile_loss.h"
#include "trainers/compile_metrics.h"

namespace keras::trainers {

/// A default step compiled with keras::jit (made on first use, under `mutex`).
struct CompiledStep {
  CompiledFunction function;
  std::mutex mutex;
};

struct CompileState {
  explicit CompileState(const CompileOptions& opts)
      : options(opts),
        optimizer(opts.optimizer.get()),
        loss(opts.loss.empty() ? nullptr
                               : std::make_unique<CompileLoss>(opts.loss, opts.loss_weights)),
        metrics(opts.metrics, opts.weighted_metrics),
        loss_tracker(std::make_shared<metrics::Mean>("loss")),
        jit(!opts.run_eagerly && opts.jit_compile != "false") {}

  CompileOptions options;
  optimizers::OptimizerPtr optimizer;
  /// compile() wrapped the given optimizer in a LossScaleOptimizer (mixed_float16).
  bool optimizer_auto_wrapped = false;
  std::unique_ptr<CompileLoss> loss;
  CompileMetrics metrics;
  std::shared_ptr<metrics::Mean> loss_tracker;
  /// In a data-parallel job: the default steps keep the metric variables global
  /// (GlobalMetricUpdate), so reading them needs no sum over the processes.
  bool metrics_global = false;
  /// Whether the default steps run compiled, and their compiled forms (made on first use).
  bool jit;
  CompiledStep train, test, predict;
};

}  // namespace keras::trainers
