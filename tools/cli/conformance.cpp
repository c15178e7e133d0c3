// keras-cpp conformance: runs the cross-backend conformance suite (keras/testing/conformance.h)
// and prints the table of cases x backends with the largest difference from "cpu".

#include <iostream>

#include "commands.h"
#include "common.h"
#include "keras/testing/conformance.h"

namespace keras::cli {
namespace {

struct ConformanceArgs {
  std::vector<std::string> backends;
  bool no_training = false;
  int64_t samples = 512;
  bool summary_only = false;
};

int run_conformance_command(const ConformanceArgs& args) {
  testing::ConformanceOptions options;
  options.backends = args.backends;
  options.training = !args.no_training;
  options.training_samples = args.samples;
  int failures = 0;
  options.on_result = [&](const testing::ConformanceResult& r) {
    if (r.status == testing::ConformanceStatus::Fail || r.status == testing::ConformanceStatus::Error) {
      ++failures;
      std::cerr << "FAIL " << r.backend << " " << r.family << " " << r.name << ": "
                << r.difference << (r.message.empty() ? "" : " (" + r.message + ")") << "\n";
    }
  };
  auto results = testing::run_conformance(options);
  if (results.empty()) {
    std::cout << "No backend besides cpu is built into this program: nothing to compare.\n";
    return 0;
  }
  if (!args.summary_only) std::cout << testing::conformance_table(results) << "\n";
  std::cout << testing::conformance_summary(results);
  return failures;
}

}  // namespace

void add_conformance(CLI::App& app) {
  auto args = std::make_shared<ConformanceArgs>();
  auto* cmd = app.add_subcommand(
      "conformance", "Compare every op, gradient, layer and a short training run on each backend "
                     "with cpu (exit 1 when any is outside its bound)");
  cmd->add_option("--backend", args->backends, "Backends to check (default: all but cpu)");
  cmd->add_flag("--no-training", args->no_training, "Skip the MLP and CNN training runs");
  cmd->add_option("--samples", args->samples, "Fashion-MNIST samples of the training runs")
      ->check(CLI::Range(64, 60000));
  cmd->add_flag("--summary", args->summary_only, "Print only the per-family summary");
  cmd->callback([args] {
    const int failures = run_conformance_command(*args);
    if (failures)
      throw UserError(std::to_string(failures) + " conformance case(s) outside their bounds (listed above)");
  });
}

}  // namespace keras::cli
