// keras-cpp evaluate FILE --x x.npy --y y.npy [--batch-size N]: the compiled loss and metrics.

#include <cstdio>
#include <iostream>
#include <memory>

#include "commands.h"
#include "common.h"

namespace keras::cli {
namespace {

struct EvaluateArgs {
  std::string file, backend;
  std::vector<std::string> x, y;
  int64_t batch_size = 0;
};

void print_logs(const Logs& logs) {
  // "loss" first, as Keras lists it, then the metrics by name.
  auto line = [](const std::string& name, double value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", value);
    std::cout << name << ": " << buf << "\n";
  };
  if (auto it = logs.find("loss"); it != logs.end()) line(it->first, it->second);
  for (const auto& [name, value] : logs)
    if (name != "loss") line(name, value);
}

void run_evaluate(const EvaluateArgs& args) {
  use_backend(args.backend);
  auto model = load_compiled_model(args.file);
  TensorStruct x = model_inputs(args.x), y = model_inputs(args.y);
  print_logs(model->evaluate(x, y, {.batch_size = optional_count(args.batch_size), .verbose = 0}));
}

}  // namespace

void add_evaluate(CLI::App& app) {
  auto args = std::make_shared<EvaluateArgs>();
  auto* cmd = app.add_subcommand(
      "evaluate", "Compute a compiled model's loss and metrics on .npy data (one line each)");
  cmd->add_option("FILE", args->file, "Model file saved after compile()")->required();
  cmd->add_option("--x", args->x, "Input .npy file (repeat for several inputs)")->required();
  cmd->add_option("--y", args->y, "Target .npy file (repeat for several outputs)")->required();
  cmd->add_option("--batch-size", args->batch_size, "Samples per batch (default 32)")
      ->check(whole_number(1));
  cmd->add_option("--backend", args->backend, "Backend to run on (see keras-cpp info)");
  cmd->callback([args] { run_evaluate(*args); });
}

}  // namespace keras::cli
