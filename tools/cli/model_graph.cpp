#include "model_graph.h"

#include <set>
#include <sstream>
#include <utility>

#include "keras/layers/keras_tensor.h"
#include "keras/models/functional.h"
#include "keras/models/sequential.h"

namespace keras::cli {
namespace {

// A dot double-quoted string.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string model_to_dot(const Model& model, const DotOptions& options) {
  std::ostringstream dot;
  dot << "digraph " << quoted(model.name()) << " {\n"
      << "  graph [rankdir=" << quoted(options.rankdir)
      << ", label=" << quoted(model.name() + " (" + model.class_name() + ")")
      << ", labelloc=\"t\"];\n"
      << "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#f2f2f2\", "
         "fontname=\"Helvetica\"];\n";
  auto layers = model.layers();
  for (const auto& layer : layers) {
    // Two lines: "\n" is dot's line break inside a label, so it goes in after quoting.
    std::string label = quoted(layer->name() + " (" + layer->class_name() + ")");
    if (options.show_shapes)
      label = label.substr(0, label.size() - 1) + "\\n" +
              quoted(model.layer_output_shape(*layer)).substr(1);
    dot << "  " << quoted(layer->name()) << " [label=" << label << "];\n";
  }
  std::vector<std::pair<std::string, std::string>> edges;
  std::set<std::pair<std::string, std::string>> seen;
  auto add_edge = [&](const std::string& from, const std::string& to) {
    if (seen.insert({from, to}).second) edges.emplace_back(from, to);
  };
  if (const auto* functional = dynamic_cast<const FunctionalModel*>(&model)) {
    for (const auto& node : functional->nodes())
      for (const KerasTensor& in : node->inputs)
        add_edge(in.producer()->name(), node->layer->name());
  } else if (dynamic_cast<const SequentialModel*>(&model)) {
    for (size_t i = 1; i < layers.size(); ++i) add_edge(layers[i - 1]->name(), layers[i]->name());
  }
  for (const auto& [from, to] : edges) dot << "  " << quoted(from) << " -> " << quoted(to) << ";\n";
  dot << "}\n";
  return dot.str();
}

}  // namespace keras::cli
