#include "svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace keras::cli {
namespace {

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string tick_label(double v) {
  if (std::abs(v) < 1e-12) v = 0;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int target) {
  if (!(hi > lo)) return {lo};
  double raw = (hi - lo) / std::max(1, target - 1);
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  std::vector<double> ticks;
  for (double t = std::ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step)
    ticks.push_back(t);
  return ticks;
}

std::string line_chart_svg(const std::vector<Series>& series, const ChartOptions& o) {
  const double left = 64, right = 170, top = 40, bottom = 52;
  const double pw = o.width - left - right, ph = o.height - top - bottom;
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const auto& s : series)
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.y[i]) || !std::isfinite(s.x[i])) continue;
      x0 = std::min(x0, s.x[i]), x1 = std::max(x1, s.x[i]);
      y0 = std::min(y0, s.y[i]), y1 = std::max(y1, s.y[i]);
    }
  if (!std::isfinite(x0)) x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  if (x1 == x0) x0 -= 1, x1 += 1;
  if (y1 == y0) y0 -= 0.5, y1 += 0.5;
  std::vector<double> xt = nice_ticks(x0, x1), yt = nice_ticks(y0, y1);
  if (yt.size() > 1) {  // the y axis from tick to tick
    double step = yt[1] - yt[0];
    y0 = std::floor(y0 / step + 1e-9) * step, y1 = std::ceil(y1 / step - 1e-9) * step;
    yt.clear();
    for (double t = y0; t <= y1 + step * 1e-9; t += step) yt.push_back(t);
  }
  auto px = [&](double x) { return left + (x - x0) / (x1 - x0) * pw; };
  auto py = [&](double y) { return top + ph - (y - y0) / (y1 - y0) * ph; };

  std::ostringstream svg;
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << o.width << "\" height=\""
      << o.height << "\" viewBox=\"0 0 " << o.width << " " << o.height
      << "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << num(left + pw / 2) << "\" y=\"24\" text-anchor=\"middle\" "
      << "font-size=\"15\">" << xml_escape(o.title) << "</text>\n";
  // Grid, ticks and labels.
  svg << "<g stroke=\"#e0e0e0\" stroke-width=\"1\">\n";
  for (double t : yt)
    svg << "<line x1=\"" << num(left) << "\" y1=\"" << num(py(t)) << "\" x2=\"" << num(left + pw)
        << "\" y2=\"" << num(py(t)) << "\"/>\n";
  svg << "</g>\n<g fill=\"#333\">\n";
  for (double t : xt) {
    if (t < x0 - 1e-9 || t > x1 + 1e-9) continue;
    svg << "<line x1=\"" << num(px(t)) << "\" y1=\"" << num(top + ph) << "\" x2=\"" << num(px(t))
        << "\" y2=\"" << num(top + ph + 5) << "\" stroke=\"#333\"/>\n"
        << "<text x=\"" << num(px(t)) << "\" y=\"" << num(top + ph + 18)
        << "\" text-anchor=\"middle\">" << tick_label(t) << "</text>\n";
  }
  for (double t : yt)
    svg << "<line x1=\"" << num(left - 5) << "\" y1=\"" << num(py(t)) << "\" x2=\"" << num(left)
        << "\" y2=\"" << num(py(t)) << "\" stroke=\"#333\"/>\n"
        << "<text x=\"" << num(left - 8) << "\" y=\"" << num(py(t) + 4) << "\" text-anchor=\"end\">"
        << tick_label(t) << "</text>\n";
  svg << "</g>\n"
      << "<rect x=\"" << num(left) << "\" y=\"" << num(top) << "\" width=\"" << num(pw)
      << "\" height=\"" << num(ph) << "\" fill=\"none\" stroke=\"#333\"/>\n"
      << "<text x=\"" << num(left + pw / 2) << "\" y=\"" << num(o.height - 12)
      << "\" text-anchor=\"middle\">" << xml_escape(o.x_label) << "</text>\n"
      << "<text transform=\"translate(16," << num(top + ph / 2)
      << ") rotate(-90)\" text-anchor=\"middle\">" << xml_escape(o.y_label) << "</text>\n";
  // One polyline per series, then the legend.
  for (const auto& s : series) {
    svg << "<polyline fill=\"none\" stroke=\"" << s.color << "\" stroke-width=\"2\""
        << (s.dashed ? " stroke-dasharray=\"6,4\"" : "") << " points=\"";
    bool first = true;
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.y[i]) || !std::isfinite(s.x[i])) continue;
      svg << (first ? "" : " ") << num(px(s.x[i])) << "," << num(py(s.y[i]));
      first = false;
    }
    svg << "\"><title>" << xml_escape(s.name) << "</title></polyline>\n";
  }
  double ly = top + 8;
  for (const auto& s : series) {
    double lx = left + pw + 16;
    svg << "<line x1=\"" << num(lx) << "\" y1=\"" << num(ly) << "\" x2=\"" << num(lx + 28)
        << "\" y2=\"" << num(ly) << "\" stroke=\"" << s.color << "\" stroke-width=\"2\""
        << (s.dashed ? " stroke-dasharray=\"6,4\"" : "") << "/>\n"
        << "<text x=\"" << num(lx + 34) << "\" y=\"" << num(ly + 4) << "\">" << xml_escape(s.name)
        << "</text>\n";
    ly += 20;
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace keras::cli
