// keras-cpp plot-history history.csv -o curves.svg: the per-epoch curves of the CSV that
// keras::callbacks::CSVLogger writes (epoch,loss,...,val_loss,...) as a self-contained SVG.
// A metric and its val_ counterpart share a color; validation curves are dashed.

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include "commands.h"
#include "common.h"
#include "keras/utils/csv.h"
#include "svg_chart.h"

namespace keras::cli {
namespace {

constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

struct PlotHistoryArgs {
  std::string file, output, title;
};

void run_plot_history(const PlotHistoryArgs& args) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(args.file, ec))
    throw UserError("history file '" + args.file + "' does not exist");
  auto table = utils::load_csv(args.file, {.dtype = DType::Float64});
  const auto& names = table.column_names;
  int64_t rows = table.values.shape().rank() == 2 ? table.values.shape()[0] : 0;
  if (rows == 0) throw UserError(args.file + " has no rows to plot");
  size_t cols = names.size();
  std::vector<double> values = table.values.to_vector<double>();
  auto column = [&](size_t c) {
    std::vector<double> v(static_cast<size_t>(rows));
    for (size_t r = 0; r < v.size(); ++r) v[r] = values[r * cols + c];
    return v;
  };
  // x: the epoch number as the progress bar shows it (CSVLogger's epoch column counts from 0).
  std::vector<double> x(static_cast<size_t>(rows));
  for (size_t r = 0; r < x.size(); ++r) x[r] = static_cast<double>(r + 1);
  std::vector<Series> series;
  std::map<std::string, std::string> colors;
  for (size_t c = 0; c < cols; ++c) {
    if (names[c] == "epoch") {
      x = column(c);
      for (double& e : x) e += 1;
    }
  }
  for (size_t c = 0; c < cols; ++c) {
    if (names[c] == "epoch") continue;
    bool val = names[c].starts_with("val_");
    std::string base = val ? names[c].substr(4) : names[c];
    if (!colors.count(base)) colors[base] = kPalette[colors.size() % std::size(kPalette)];
    series.push_back({.name = names[c], .x = x, .y = column(c), .color = colors[base],
                      .dashed = val});
  }
  if (series.empty()) throw UserError(args.file + " has no metric columns besides 'epoch'");
  std::string title = args.title.empty()
                          ? "Training history: " + std::filesystem::path(args.file).filename().string()
                          : args.title;
  std::string svg = line_chart_svg(series, {.title = title, .x_label = "epoch", .y_label = "value"});
  std::ofstream out(args.output, std::ios::binary);
  out << svg;
  out.close();
  if (!out) throw UserError("cannot write '" + args.output + "'");
}

}  // namespace

void add_plot_history(CLI::App& app) {
  auto args = std::make_shared<PlotHistoryArgs>();
  auto* cmd = app.add_subcommand(
      "plot-history", "Plot the loss/metric curves of a CSVLogger history.csv as an SVG");
  cmd->add_option("FILE", args->file, "History CSV (header: epoch,loss,...)")->required();
  cmd->add_option("--output,-o", args->output, "Output .svg file")->required();
  cmd->add_option("--title", args->title, "Chart title");
  cmd->callback([args] { run_plot_history(*args); });
}

}  // namespace keras::cli
