// keras-cpp plot (the .dot text against the model's own layers and connections; Graphviz when
// installed, a clear error when not) and plot-history (well-formed SVG, one polyline per series).

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>

#include "cli_fixture.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the CLI helpers

// A tiny XML check: tags balance (declarations, comments and self-closing tags aside) under
// one root element; returns the element names in order of opening, or an error message.
std::vector<std::string> xml_elements(const std::string& xml, std::string& error) {
  std::vector<std::string> stack, opened;
  int roots = 0;
  size_t i = 0;
  while ((i = xml.find('<', i)) != std::string::npos) {
    size_t end = xml.find('>', i);
    if (end == std::string::npos) {
      error = "unterminated tag at " + std::to_string(i);
      return opened;
    }
    std::string tag = xml.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.starts_with("?") || tag.starts_with("!")) continue;
    if (tag.starts_with("/")) {
      if (stack.empty() || stack.back() != tag.substr(1)) {
        error = "unbalanced </" + tag.substr(1) + ">";
        return opened;
      }
      stack.pop_back();
      continue;
    }
    std::string name = tag.substr(0, tag.find_first_of(" \t\n/"));
    if (stack.empty()) ++roots;
    opened.push_back(name);
    if (!tag.ends_with("/")) stack.push_back(name);
  }
  if (!stack.empty()) error = "<" + stack.back() + "> is never closed";
  if (roots != 1) error = std::to_string(roots) + " root elements";
  return opened;
}

TEST(CliPlot, DotListsEveryLayerAndEdge) {
  const auto& f = cli_files();
  for (const auto& path : {f.model, f.sequential}) {
    std::string out = cli_path("model.dot");
    auto r = run_cli({"plot", path, "-o", out, "--format", "dot"});
    ASSERT_EQ(r.code, 0) << r.err;
    std::string dot = read_text(out);
    EXPECT_EQ(dot.rfind("digraph ", 0), 0u) << dot;
    auto model = saving::load_model(path);
    auto layers = model->layers();
    std::set<std::pair<std::string, std::string>> expected;
    if (auto* functional = dynamic_cast<FunctionalModel*>(model.get())) {
      for (const auto& node : functional->nodes())
        for (const auto& in : node->inputs)
          expected.insert({in.producer()->name(), node->layer->name()});
    } else {
      for (size_t i = 1; i < layers.size(); ++i)
        expected.insert({layers[i - 1]->name(), layers[i]->name()});
    }
    EXPECT_EQ(expected.size(), layers.size() - 1) << path;  // a chain in both models
    for (const auto& layer : layers) {
      EXPECT_NE(dot.find("\"" + layer->name() + "\" [label=\"" + layer->name() + " (" +
                         layer->class_name() + ")"),
                std::string::npos)
          << layer->name() << "\n"
          << dot;
    }
    std::regex edge_re("\"([^\"]+)\" -> \"([^\"]+)\";");
    std::set<std::pair<std::string, std::string>> edges;
    for (auto it = std::sregex_iterator(dot.begin(), dot.end(), edge_re);
         it != std::sregex_iterator(); ++it)
      edges.insert({(*it)[1], (*it)[2]});
    EXPECT_EQ(edges, expected) << dot;
  }
  // The format also follows the extension.
  std::string gv = cli_path("by_extension.dot");
  ASSERT_EQ(run_cli({"plot", f.model, "-o", gv}).code, 0);
  EXPECT_EQ(read_text(gv).rfind("digraph ", 0), 0u);
}

TEST(CliPlot, SvgNeedsGraphvizAndSaysSo) {
  const auto& f = cli_files();
  std::string out = cli_path("model.svg");
  std::filesystem::remove(out);
  auto empty_dir = cli_path("no_programs");
  std::filesystem::create_directories(empty_dir);
  auto r = run_cli({"plot", f.model, "-o", out}, {{"PATH", empty_dir}});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("graphviz"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--format dot"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  // With Graphviz on PATH, dot draws it.
  if (std::system("command -v dot >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "Graphviz is not installed";
  auto ok = run_cli({"plot", f.model, "-o", out});
  ASSERT_EQ(ok.code, 0) << ok.err;
  std::string svg = read_text(out), error;
  xml_elements(svg, error);
  EXPECT_EQ(error, "");
  EXPECT_NE(svg.find("hidden"), std::string::npos);
}

TEST(CliPlotHistory, WellFormedSvgWithOnePolylinePerSeries) {
  std::string csv = cli_path("history.csv");
  {
    std::ofstream out(csv);
    out << "epoch,accuracy,loss,val_accuracy,val_loss\n"
           "0,0.5,1.2,0.45,1.3\n1,0.7,0.8,0.6,0.9\n2,0.8,0.6,0.65,0.85\n3,0.85,0.5,0.7,0.8\n";
  }
  std::string svg_path = cli_path("curves.svg");
  auto r = run_cli({"plot-history", csv, "-o", svg_path});
  ASSERT_EQ(r.code, 0) << r.err;
  std::string svg = read_text(svg_path), error;
  auto elements = xml_elements(svg, error);
  EXPECT_EQ(error, "");
  ASSERT_FALSE(elements.empty());
  EXPECT_EQ(elements.front(), "svg");
  EXPECT_EQ(std::count(elements.begin(), elements.end(), "polyline"), 4);
  for (const char* name : {"accuracy", "loss", "val_accuracy", "val_loss"})
    EXPECT_NE(svg.find(">" + std::string(name) + "<"), std::string::npos) << name;
  // Train and val_ of a metric share a color; val_ is dashed; each polyline has 4 points.
  std::regex poly_re(
      "<polyline fill=\"none\" stroke=\"(#[0-9a-f]{6})\" stroke-width=\"2\"( "
      "stroke-dasharray=\"[^\"]+\")? points=\"([^\"]*)\"><title>([a-z_]+)</title>");
  std::map<std::string, std::pair<std::string, bool>> style;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), poly_re);
       it != std::sregex_iterator(); ++it) {
    style[(*it)[4]] = {(*it)[1], (*it)[2].matched};
    std::string points = (*it)[3];
    EXPECT_EQ(std::count(points.begin(), points.end(), ','), 4) << points;
  }
  ASSERT_EQ(style.size(), 4u) << svg;
  EXPECT_EQ(style["loss"].first, style["val_loss"].first);
  EXPECT_EQ(style["accuracy"].first, style["val_accuracy"].first);
  EXPECT_NE(style["loss"].first, style["accuracy"].first);
  EXPECT_FALSE(style["loss"].second);
  EXPECT_TRUE(style["val_loss"].second);
}

TEST(CliPlotHistory, ReadsWhatCsvLoggerWrites) {
  const auto& f = cli_files();
  auto model = saving::load_model(f.model);
  std::string csv = cli_path("logger.csv");
  model->fit(f.x_values, f.y_values,
             {.batch_size = 16,
              .epochs = 2,
              .verbose = 0,
              .callbacks = {std::make_shared<callbacks::CSVLogger>(csv)}});
  std::string svg_path = cli_path("logger.svg");
  auto r = run_cli({"plot-history", csv, "-o", svg_path, "--title", "a <b> & c"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::string svg = read_text(svg_path), error;
  auto elements = xml_elements(svg, error);
  EXPECT_EQ(error, "");
  // CSVLogger writes NA for the val_ columns of a run without validation: they are left out.
  EXPECT_EQ(std::count(elements.begin(), elements.end(), "polyline"), 2);  // accuracy, loss
  EXPECT_NE(svg.find("a &lt;b&gt; &amp; c"), std::string::npos);
}

}  // namespace
}  // namespace keras
