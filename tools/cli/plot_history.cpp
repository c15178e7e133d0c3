// keras-cpp plot-history history.csv -o curves.svg: the per-epoch curves of the CSV that
// keras::callbacks::CSVLogger writes (epoch,loss,...,val_loss,...) as a self-contained SVG.
// A metric and its val_ counterpart share a color; validation curves are dashed.

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

#include "commands.h"
#include "common.h"
#include "svg_chart.h"

namespace keras::cli {
namespace {

constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

struct PlotHistoryArgs {
  std::string file, output, title;
};

// The CSV's columns; "NA" (what CSVLogger writes for a value it lacks), "nan" and empty
// fields become NaN, which the chart leaves out.
struct History {
  std::vector<std::string> names;
  std::vector<std::vector<double>> columns;
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) {
    if (!field.empty() && field.back() == '\r') field.pop_back();
    if (field.size() >= 2 && field.front() == '"' && field.back() == '"')
      field = field.substr(1, field.size() - 2);
    fields.push_back(field);
  }
  if (!line.empty() && line.back() == ',') fields.emplace_back();
  return fields;
}

History read_history(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UserError("cannot read history file '" + path + "'");
  History h;
  std::string line;
  if (!std::getline(in, line) || (h.names = split(line)).empty())
    throw UserError(path + " is empty: expected CSVLogger's header (epoch,loss,...)");
  h.columns.resize(h.names.size());
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty() || line == "\r") continue;
    auto fields = split(line);
    if (fields.size() != h.names.size())
      throw UserError(path + ": line " + std::to_string(number) + " has " +
                      std::to_string(fields.size()) + " fields but the header has " +
                      std::to_string(h.names.size()));
    for (size_t c = 0; c < fields.size(); ++c) {
      const std::string& f = fields[c];
      double v = std::numeric_limits<double>::quiet_NaN();
      if (!f.empty() && f != "NA") {
        char* end = nullptr;
        v = std::strtod(f.c_str(), &end);
        if (end != f.c_str() + f.size())
          throw UserError(path + ": line " + std::to_string(number) + ", column '" + h.names[c] +
                          "': '" + f + "' is not a number");
      }
      h.columns[c].push_back(v);
    }
  }
  if (h.columns[0].empty()) throw UserError(path + " has no rows to plot");
  return h;
}

void run_plot_history(const PlotHistoryArgs& args) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(args.file, ec))
    throw UserError("history file '" + args.file + "' does not exist");
  History h = read_history(args.file);
  const auto& names = h.names;
  size_t rows = h.columns[0].size(), cols = names.size();
  auto column = [&](size_t c) { return h.columns[c]; };
  // x: the epoch number as the progress bar shows it (CSVLogger's epoch column counts from 0).
  std::vector<double> x(rows);
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
    bool any = false;
    for (double v : h.columns[c]) any = any || std::isfinite(v);
    if (names[c] == "epoch" || !any) continue;  // columns of NA only (no validation) are left out
    bool val = names[c].starts_with("val_");
    std::string base = val ? names[c].substr(4) : names[c];
    if (!colors.count(base)) colors[base] = kPalette[colors.size() % std::size(kPalette)];
    series.push_back(
        {.name = names[c], .x = x, .y = column(c), .color = colors[base], .dashed = val});
  }
  if (series.empty()) throw UserError(args.file + " has no metric values besides 'epoch'");
  std::string title = args.title.empty() ? "Training history: " +
                                               std::filesystem::path(args.file).filename().string()
                                         : args.title;
  std::string svg =
      line_chart_svg(series, {.title = title, .x_label = "epoch", .y_label = "value"});
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
