#pragma once
// A small self-contained SVG line chart: axes with ticks, one polyline per series, a legend.

#include <string>
#include <vector>

namespace keras::cli {

struct Series {
  std::string name;
  std::vector<double> x, y;  // NaN or infinite y values are left out
  std::string color = "#1f77b4";
  bool dashed = false;
};

struct ChartOptions {
  std::string title;
  std::string x_label, y_label;
  int width = 760, height = 440;
};

/// Round tick values covering [lo, hi] (about `target` of them, steps of 1, 2 or 5 x 10^k).
std::vector<double> nice_ticks(double lo, double hi, int target = 6);

/// The chart as an SVG document.
std::string line_chart_svg(const std::vector<Series>& series, const ChartOptions& options = {});

}  // namespace keras::cli
