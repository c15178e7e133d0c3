#include "keras/layers/rnn/stacked_rnn_cells.h"

#include <map>

#include "keras/layers/registry.h"
#include "keras/ops/ops.h"

namespace keras::layers {

StackedRNNCellsLayer::StackedRNNCellsLayer(std::vector<std::shared_ptr<RecurrentCell>> cells,
                                           StackedRNNCellsOptions options)
    : RecurrentCell(base_options(options), "stacked_rnn_cells"), cells_(std::move(cells)) {
  check(!cells_.empty(), "StackedRNNCells '", name(), "': needs at least one cell.");
  // Saved as the list attribute `cells`: items are named by class, then _1, _2, ... (Keras's
  // _save_container_state).
  std::map<std::string, int> seen;
  for (size_t i = 0; i < cells_.size(); ++i) {
    check(static_cast<bool>(cells_[i]), "StackedRNNCells '", name(), "': cell ", i,
          " is null.");
    std::string base = to_snake_case(cells_[i]->class_name());
    int n = seen[base]++;
    track_layer("cells/" + (n == 0 ? base : base + "_" + std::to_string(n)), cells_[i]);
  }
}

std::vector<int64_t> StackedRNNCellsLayer::state_size() const {
  std::vector<int64_t> out;
  for (const auto& c : cells_) {
    auto s = c->state_size();
    out.insert(out.end(), s.begin(), s.end());
  }
  return out;
}

int64_t StackedRNNCellsLayer::output_size() const { return cells_.back()->output_size(); }

TensorList StackedRNNCellsLayer::get_initial_state(int64_t batch_size) const {
  TensorList out;
  for (const auto& c : cells_) {
    TensorList s = c->get_initial_state(batch_size);
    out.insert(out.end(), s.begin(), s.end());
  }
  return out;
}

void StackedRNNCellsLayer::build(const Shape& input_shape) {
  Shape shape = input_shape;
  for (const auto& c : cells_) {
    c->ensure_built({shape}, false);
    shape = Shape{input_shape[0], c->output_size()};
  }
}

Tensor StackedRNNCellsLayer::project_inputs(const Tensor& inputs, const CallContext& ctx) {
  return cells_.front()->project_inputs(inputs, ctx);
}

std::pair<Tensor, TensorList> StackedRNNCellsLayer::step(const Tensor& inputs,
                                                         const TensorList& states,
                                                         const CallContext& ctx) {
  check(states.size() == state_size().size(), "StackedRNNCells '", name(), "' has ",
        state_size().size(), " states; got ", states.size(), ".");
  TensorList next;
  Tensor x = inputs;
  size_t offset = 0;
  for (size_t i = 0; i < cells_.size(); ++i) {
    const size_t n = cells_[i]->state_size().size();
    TensorList own(states.begin() + static_cast<std::ptrdiff_t>(offset),
                   states.begin() + static_cast<std::ptrdiff_t>(offset + n));
    auto [out, s] = i == 0 ? cells_[i]->step(x, own, ctx) : cells_[i]->step_inputs(x, own, ctx);
    check(s.size() == n, "Cell '", cells_[i]->name(), "' returned ", s.size(),
          " states from a step; it has ", n, ".");
    next.insert(next.end(), s.begin(), s.end());
    x = out;
    offset += n;
  }
  return {x, next};
}

void StackedRNNCellsLayer::begin_sequence(const Tensor& step_inputs, const TensorList& states,
                                          const CallContext& ctx) {
  Tensor x = step_inputs;
  size_t offset = 0;
  for (const auto& c : cells_) {
    const size_t n = c->state_size().size();
    TensorList own;
    for (size_t k = 0; k < n && offset + k < states.size(); ++k) own.push_back(states[offset + k]);
    c->begin_sequence(x, own, ctx);
    // The next cell's step inputs have this cell's output shape (only the shape matters: the
    // dropout masks are drawn from it).
    x = ops::zeros({x.shape()[0], c->output_size()}, c->compute_dtype());
    offset += n;
  }
}

void StackedRNNCellsLayer::end_sequence() {
  for (const auto& c : cells_) c->end_sequence();
}

Config StackedRNNCellsLayer::get_config() const {
  Config c = Layer::get_config();
  Config cells = Config::array();
  for (const auto& cell : cells_) cells.push_back(serialize(*cell));
  c["cells"] = cells;
  return c;
}

std::shared_ptr<Layer> StackedRNNCellsLayer::from_config(const Config& c) {
  check(c.contains("cells") && c["cells"].is_array(),
        "StackedRNNCells.from_config: expected a list 'cells'; got ", c.dump(), ".");
  std::vector<std::shared_ptr<RecurrentCell>> cells;
  for (const Config& item : c["cells"]) {
    auto cell = std::dynamic_pointer_cast<RecurrentCell>(deserialize(item));
    check(static_cast<bool>(cell), "StackedRNNCells.from_config: ", item.dump(),
          " is not a recurrent cell.");
    cells.push_back(cell);
  }
  StackedRNNCellsOptions o;
  read_base_config(c, o);
  return std::make_shared<StackedRNNCellsLayer>(std::move(cells), o);
}

LayerPtr<StackedRNNCellsLayer> StackedRNNCells(std::vector<std::shared_ptr<RecurrentCell>> cells,
                                               StackedRNNCellsOptions options) {
  return make_layer<StackedRNNCellsLayer>(std::move(cells), std::move(options));
}

}  // namespace keras::layers
