#pragma once
// The subcommands of keras-cpp; each adds itself to the app with its options and callback.

#include <CLI/CLI.hpp>

namespace keras::cli {

void add_info(CLI::App& app);
void add_summary(CLI::App& app);
void add_predict(CLI::App& app);
void add_evaluate(CLI::App& app);
void add_fit(CLI::App& app);
void add_convert(CLI::App& app);
void add_export(CLI::App& app);
void add_plot(CLI::App& app);
void add_plot_history(CLI::App& app);
void add_conformance(CLI::App& app);
void add_serve(CLI::App& app);
void add_launch(CLI::App& app);

}  // namespace keras::cli
