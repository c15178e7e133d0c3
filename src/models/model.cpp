#include "keras/models/model.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "keras/models/functional.h"
#include "models/summary_table.h"

namespace keras {
namespace {

// The title as rich prints it on a console `columns` wide: a line too long breaks after
// "Model: " (the space stays on the first line), and a name longer than a line is folded.
std::string title_line(const std::string& title, int columns) {
  const size_t width = static_cast<size_t>(std::max(columns, 1));
  if (title.size() <= width) return title + "\n";
  std::string name = title.substr(7);  // after "Model: "
  std::string out = "Model: \n";
  for (size_t i = 0; i < name.size(); i += width) out += name.substr(i, width) + "\n";
  return out;
}

// shutil.get_terminal_size().columns: the terminal's width, else $COLUMNS, else 80.
int terminal_columns() {
  winsize w{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0)
    return w.ws_col;
  if (const char* env = std::getenv("COLUMNS")) {
    int c = std::atoi(env);
    if (c > 0) return c;
  }
  return 80;
}

std::string with_commas(int64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

// keras/src/utils/summary_utils.py readable_memory_size.
std::string readable_size(double bytes) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB", "PB"};
  for (const char* unit : units) {
    if (bytes / 1024 < 1) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.2f %s", bytes, unit);
      return buf;
    }
    bytes /= 1024;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f PB", bytes);
  return buf;
}

double memory_of(const std::vector<Variable>& vars) {
  double bytes = 0;
  for (const Variable& v : vars)
    bytes += static_cast<double>(v.shape().numel()) * static_cast<double>(itemsize(v.dtype()));
  return bytes;
}

int64_t count_of(const std::vector<Variable>& vars) {
  int64_t n = 0;
  for (const Variable& v : vars) n += v.shape().numel();
  return n;
}

}  // namespace

Model::Model(LayerOptions options, std::string default_name)
    : Layer(std::move(options), std::move(default_name)) {}

std::vector<std::shared_ptr<Layer>> Model::layers() const {
  std::vector<std::shared_ptr<Layer>> out;
  for (const auto& [attr, layer] : tracked_layers()) out.push_back(layer);
  return out;
}

std::shared_ptr<Layer> Model::get_layer(const std::string& name) const {
  std::string known;
  for (const auto& layer : layers()) {
    if (layer->name() == name) return layer;
    known += (known.empty() ? "" : ", ") + layer->name();
  }
  throw ValueError("No such layer: '" + name + "' in model '" + this->name() +
                   "'. Existing layers are: " + known + ".");
}

std::shared_ptr<Layer> Model::get_layer(int index) const {
  auto all = layers();
  if (index < 0 || index >= static_cast<int>(all.size()))
    throw IndexError(keras::detail::cat("get_layer: index ", index, " is out of range; model '",
                                        name(), "' has ", all.size(), " layers."));
  return all[static_cast<size_t>(index)];
}

std::string Model::layer_output_shape(const Layer& layer) const {
  auto nodes = layer.inbound_nodes();
  if (nodes.empty() || nodes.back()->output_shapes.empty()) return "?";
  const auto& shapes = nodes.back()->output_shapes;
  if (shapes.size() == 1) return shape_string(shapes[0]);
  std::string out = "[";
  for (size_t i = 0; i < shapes.size(); ++i) out += (i ? ", " : "") + shape_string(shapes[i]);
  return out + "]";
}

std::string Model::layer_connections(const Layer&) const { return "-"; }

namespace {

// What summary lists: a Functional model's layers and op nodes (Keras's operations), else the
// layers.
std::vector<std::shared_ptr<Layer>> rows_of(const Model& model) {
  if (auto* functional = dynamic_cast<const FunctionalModel*>(&model))
    return functional->operations();
  return model.layers();
}

}  // namespace

std::string Model::summary_string(const SummaryOptions& options) const {
  detail::SummaryTable table;
  const bool seq = sequential_like();
  int default_length = seq ? 88 : 108;
  if (seq) {
    table.header = {"Layer (type)", "Output Shape", "Param #"};
    table.positions = {0.45, 0.80, 1.0};
    table.justify = {detail::Justify::Left, detail::Justify::Left, detail::Justify::Right};
  } else {
    table.header = {"Layer (type)", "Output Shape", "Param #", "Connected to"};
    table.positions = {0.3, 0.56, 0.74, 1.0};
    table.justify = {detail::Justify::Left, detail::Justify::Left, detail::Justify::Right,
                     detail::Justify::Left};
  }
  if (options.show_trainable) {
    default_length += 12;
    for (double& p : table.positions) p *= 0.90;
    table.positions.push_back(1.0);
    table.header.push_back("Trainable");
    table.justify.push_back(detail::Justify::Center);
  }
  int line_length = options.line_length > 0
                        ? options.line_length
                        : std::min(default_length, terminal_columns() - 4);

  std::function<void(const Model&, const Layer&, int)> add_row = [&](const Model& owner,
                                                                    const Layer& layer,
                                                                    int level) {
    std::string name = level ? std::string(static_cast<size_t>(3 * level), ' ') + "\u2514 " : "";
    name += layer.name() + " (" + layer.class_name() + ")";
    std::string params = layer.built() ? with_commas(layer.count_params())
                                       : std::string("0 (unbuilt)");
    std::vector<std::string> row = {name, owner.layer_output_shape(layer), params};
    // Keras lists connections within the summarized model only: "-" for nested rows.
    if (!seq) row.push_back(level ? std::string("-") : owner.layer_connections(layer));
    if (options.show_trainable)
      row.push_back(layer.weights().empty() ? "-" : (layer.trainable() ? "Y" : "N"));
    table.rows.push_back(row);
    auto* nested = dynamic_cast<const Model*>(&layer);
    if (options.expand_nested && nested)
      for (const auto& sub : rows_of(*nested)) add_row(*nested, *sub, level + 1);
  };
  for (const auto& layer : rows_of(*this)) add_row(*this, *layer, 0);

  std::vector<Variable> trainable = trainable_weights(), frozen = non_trainable_weights();
  // A compiled model whose optimizer has variables counts them too, as Keras does.
  std::vector<Variable> slots;
  if (compiled() && optimizer() && optimizer()->built()) slots = optimizer()->variables();
  std::ostringstream out;
  out << title_line("Model: \"" + name() + "\"", terminal_columns());
  out << detail::render_table(table, line_length);
  out << " Total params: "
      << with_commas(count_of(trainable) + count_of(frozen) + count_of(slots)) << " ("
      << readable_size(memory_of(trainable) + memory_of(frozen) + memory_of(slots)) << ")\n";
  out << " Trainable params: " << with_commas(count_of(trainable)) << " ("
      << readable_size(memory_of(trainable)) << ")\n";
  out << " Non-trainable params: " << with_commas(count_of(frozen)) << " ("
      << readable_size(memory_of(frozen)) << ")\n";
  if (!slots.empty())
    out << " Optimizer params: " << with_commas(count_of(slots)) << " ("
        << readable_size(memory_of(slots)) << ")\n";
  return out.str();
}

void Model::summary(const SummaryOptions& options) const { std::cout << summary_string(options); }

}  // namespace keras
