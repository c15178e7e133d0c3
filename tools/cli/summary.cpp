// keras-cpp summary FILE: the Keras summary table of a model file.

#include <iostream>
#include <memory>

#include "commands.h"
#include "common.h"

namespace keras::cli {
namespace {

struct SummaryArgs {
  std::string file;
  int line_length = 0;
  bool expand_nested = false;
  bool show_trainable = false;
};

void run_summary(const SummaryArgs& args) {
  auto model = load_model_file(args.file, /*compile=*/false);
  std::string text = model->summary_string({.line_length = args.line_length,
                                            .expand_nested = args.expand_nested,
                                            .show_trainable = args.show_trainable});
  std::cout << text;
  if (text.empty() || text.back() != '\n') std::cout << '\n';
}

}  // namespace

void add_summary(CLI::App& app) {
  auto args = std::make_shared<SummaryArgs>();
  auto* cmd = app.add_subcommand("summary", "Print the Keras summary table of a .keras/.h5 model");
  cmd->add_option("FILE", args->file, "Model file (.keras, or legacy .h5)")->required();
  cmd->add_option("--line-length", args->line_length, "Total width (default: Keras's)")
      ->check(whole_number(0));
  cmd->add_flag("--expand-nested", args->expand_nested, "Also list layers of nested models");
  cmd->add_flag("--show-trainable", args->show_trainable, "Add a Trainable column");
  cmd->callback([args] { run_summary(*args); });
}

}  // namespace keras::cli
