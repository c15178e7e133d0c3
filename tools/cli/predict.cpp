// keras-cpp predict FILE --input x.npy [--output y.npy|y.npz] [--batch-size N] [--backend NAME]
// (NumPy string arrays feed string inputs; string outputs are written as NumPy strings.)

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include "commands.h"
#include "common.h"
#include "keras/utils/npy.h"

namespace keras::cli {
namespace {

struct PredictArgs {
  std::string file, output, backend;
  std::vector<std::string> inputs;
  int64_t batch_size = 0;
};

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// "dense_1: (4, 3) float32  min -0.5  max 1.2  mean 0.3  first: [0.1, 0.2, 0.7]"
void print_result(const std::string& name, const Tensor& t) {
  std::cout << name << ": " << describe(t);
  if (t.dtype() == DType::String) {  // text (an inverted StringLookup): the first sample's
    const StringTensor s = t.to_strings();
    const int64_t per_sample =
        t.ndim() > 0 && t.shape()[0] > 0 ? s.size() / t.shape()[0] : s.size();
    std::cout << "\n  first sample: "
              << StringTensor(
                     std::vector<std::string>(s.values().begin(), s.values().begin() + per_sample))
              << "\n";
    return;
  }
  std::vector<double> v = t.to_vector<double>();
  if (!v.empty()) {
    auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    double sum = 0;
    for (double x : v) sum += x;
    std::cout << "  min " << number(*lo) << "  max " << number(*hi) << "  mean "
              << number(sum / static_cast<double>(v.size()));
    size_t per_sample = t.shape().rank() > 0 && t.shape()[0] > 0
                            ? v.size() / static_cast<size_t>(t.shape()[0])
                            : v.size();
    size_t shown = std::min<size_t>(per_sample, 8);
    std::cout << "\n  first sample: [";
    for (size_t i = 0; i < shown; ++i) std::cout << (i ? ", " : "") << number(v[i]);
    std::cout << (shown < per_sample ? ", ...]" : "]");
  }
  std::cout << "\n";
}

void run_predict(const PredictArgs& args) {
  use_backend(args.backend);
  auto model = load_model_file(args.file, /*compile=*/false);
  TensorStruct x = model_inputs(args.inputs);
  TensorList outputs =
      model->predict(x, {.batch_size = optional_count(args.batch_size), .verbose = 0}).flat();
  std::vector<std::string> names = model->output_names();
  if (names.size() != outputs.size()) {
    names.clear();
    for (size_t i = 0; i < outputs.size(); ++i) names.push_back("output_" + std::to_string(i));
  }
  if (args.output.empty()) {
    for (size_t i = 0; i < outputs.size(); ++i) print_result(names[i], outputs[i]);
  } else if (args.output.ends_with(".npz")) {
    std::map<std::string, Tensor> arrays;
    for (size_t i = 0; i < outputs.size(); ++i) arrays[names[i]] = outputs[i];
    utils::save_npz(args.output, arrays);
  } else if (outputs.size() == 1) {
    utils::save_npy(args.output, outputs[0]);
  } else {
    throw UserError("the model has " + std::to_string(outputs.size()) +
                    " outputs: give an --output ending in .npz to write them all");
  }
}

}  // namespace

void add_predict(CLI::App& app) {
  auto args = std::make_shared<PredictArgs>();
  auto* cmd = app.add_subcommand("predict", "Run a model on the samples of .npy files");
  cmd->add_option("FILE", args->file, "Model file (.keras, or legacy .h5)")->required();
  cmd->add_option("--input,-i", args->inputs,
                  "Input .npy file (repeat for each input of a multi-input model, in order)")
      ->required();
  cmd->add_option("--output,-o", args->output,
                  "Write the predictions to this .npy (or .npz: one array per output)");
  cmd->add_option("--batch-size", args->batch_size, "Samples per batch (default 32)")
      ->check(whole_number(1));
  cmd->add_option("--backend", args->backend, "Backend to run on (see keras-cpp info)");
  cmd->callback([args] { run_predict(*args); });
}

}  // namespace keras::cli
