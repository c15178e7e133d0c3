// keras-cpp export IN OUT.onnx [--opset N] [--batch B]: load a model file and write its
// inference graph as ONNX (keras::saving::export_model; Keras's model.export(format="onnx")).

#include <iostream>
#include <memory>
#include <optional>

#include <keras/models/functional.h>
#include <keras/models/sequential.h>
#include <keras/saving/export.h>

#include "commands.h"
#include "common.h"

namespace keras::cli {
namespace {

struct ExportArgs {
  std::string input, output;
  int opset = saving::kDefaultOnnxOpset;
  std::optional<int64_t> batch;
};

void run_export(const ExportArgs& args) {
  check_output(args.output, ".onnx");
  auto model = load_model_file(args.input);
  saving::ExportOptions options{.opset_version = args.opset};
  if (args.batch) {
    // A fixed batch size: every input keeps its other dimensions.
    auto* functional = dynamic_cast<FunctionalModel*>(model.get());
    auto* sequential = dynamic_cast<SequentialModel*>(model.get());
    std::vector<KerasTensor> inputs;
    if (functional) inputs = functional->inputs();
    if (sequential && sequential->input_tensor().defined()) inputs = {sequential->input_tensor()};
    std::vector<Shape> shapes;
    for (const KerasTensor& t : inputs) shapes.push_back(t.shape());
    // A subclassed model (its call() is traced): the shapes it was built for.
    if (!functional && !sequential) shapes = model->build_input_shapes();
    for (Shape s : shapes) {
      if (s.rank() > 0) s[0] = *args.batch;
      options.input_signature.push_back(s);
    }
  }
  model->export_(args.output, options);
}

}  // namespace

void add_export(CLI::App& app) {
  auto args = std::make_shared<ExportArgs>();
  auto* cmd = app.add_subcommand("export", "Write a model's inference graph as an ONNX file");
  cmd->add_option("IN", args->input, "Model file (.keras, or legacy .h5)")->required();
  cmd->add_option("OUT", args->output, "Output .onnx file")->required();
  cmd->add_option("--opset", args->opset, "ONNX opset version")
      ->check(CLI::Range(saving::kMinOnnxOpset, saving::kMaxOnnxOpset));
  cmd->add_option("--batch", args->batch, "Fixed batch size (default: dynamic)")
      ->check(CLI::PositiveNumber);
  cmd->callback([args] { run_export(*args); });
}

}  // namespace keras::cli
