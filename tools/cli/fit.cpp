// keras-cpp fit FILE --x x.npy --y y.npy --epochs N: continue training a saved, compiled model
// (optimizer state included) and save it.

#include <iostream>
#include <memory>

#include "commands.h"
#include "common.h"
#include "keras/callbacks/csv_logger.h"
#include "keras/callbacks/history.h"

namespace keras::cli {
namespace {

struct FitArgs {
  std::string file, output, history, backend;
  std::vector<std::string> x, y;
  int epochs = 0;
  int64_t batch_size = 0;
  double validation_split = 0.0;
  int verbose = 1;
};

void run_fit(const FitArgs& args) {
  std::string output = args.output.empty() ? args.file : args.output;
  check_output(output, ".keras");
  use_backend(args.backend);
  auto model = load_compiled_model(args.file);
  TensorStruct x = model_inputs(args.x), y = model_inputs(args.y);
  FitOptions options{.batch_size = optional_count(args.batch_size),
                     .epochs = args.epochs,
                     .verbose = args.verbose,
                     .validation_split = args.validation_split};
  if (!args.history.empty())
    options.callbacks.push_back(std::make_shared<callbacks::CSVLogger>(args.history));
  model->fit(x, y, options);
  model->save(output);
  std::cout << "saved " << output << "\n";
}

}  // namespace

void add_fit(CLI::App& app) {
  auto args = std::make_shared<FitArgs>();
  auto* cmd = app.add_subcommand("fit", "Continue training a saved, compiled model and save it");
  cmd->add_option("FILE", args->file, "Model file saved after compile()")->required();
  cmd->add_option("--x", args->x, "Input .npy file (repeat for several inputs)")->required();
  cmd->add_option("--y", args->y, "Target .npy file (repeat for several outputs)")->required();
  cmd->add_option("--epochs", args->epochs, "Epochs to train")->required()->check(whole_number(1));
  cmd->add_option("--batch-size", args->batch_size, "Samples per batch (default 32)")
      ->check(whole_number(1));
  cmd->add_option("--validation-split", args->validation_split,
                  "Fraction of the samples (the last ones) held out for validation")
      ->check(fraction());
  cmd->add_option("--output,-o", args->output, "Where to save (default: overwrite FILE)");
  cmd->add_option("--history", args->history,
                  "Also write the per-epoch logs to this CSV (for plot-history)");
  cmd->add_option("--verbose", args->verbose, "0 silent, 1 progress bar, 2 one line per epoch")
      ->check(CLI::Range(0, 2));
  cmd->add_option("--backend", args->backend, "Backend to run on (see keras-cpp info)");
  cmd->callback([args] { run_fit(*args); });
}

}  // namespace keras::cli
