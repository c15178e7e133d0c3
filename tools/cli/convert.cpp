// keras-cpp convert IN OUT.keras: load a model file (.keras, or a legacy .h5 once load_model
// reads them) and save it in the Keras 3 .keras format.

#include <iostream>
#include <memory>

#include "commands.h"
#include "common.h"

namespace keras::cli {
namespace {

struct ConvertArgs {
  std::string input, output;
};

void run_convert(const ConvertArgs& args) {
  check_output(args.output, ".keras");
  auto model = load_model_file(args.input);
  model->save(args.output);
  std::cout << "wrote " << args.output << " (" << model->class_name() << " '" << model->name()
            << "', " << model->count_params() << " parameters)\n";
}

}  // namespace

void add_convert(CLI::App& app) {
  auto args = std::make_shared<ConvertArgs>();
  auto* cmd = app.add_subcommand("convert", "Load a model file and save it as a Keras 3 .keras");
  cmd->add_option("IN", args->input, "Model file (.keras, or legacy .h5)")->required();
  cmd->add_option("OUT", args->output, "Output .keras file")->required();
  cmd->callback([args] { run_convert(*args); });
}

}  // namespace keras::cli
