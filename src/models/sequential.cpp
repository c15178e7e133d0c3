#include "keras/models/sequential.h"

#include "keras/layers/input_layer.h"

namespace keras {

SequentialModel::SequentialModel(std::vector<SequentialItem> items, LayerOptions options)
    : Model(std::move(options), "sequential") {
  set_convert_input_args(false);  // its layers convert their own inputs
  for (const SequentialItem& item : items) add(item);
}

void SequentialModel::add(const SequentialItem& item) {
  if (item.input().defined()) {
    check(layers_.empty() && !input_.defined(), "Sequential '", name(),
          "': an Input can only be the first entry.");
    check(!item.input().node() || item.input().node()->is_input(), "Sequential '", name(),
          "': the first entry must come from keras::Input().");
    input_ = item.input();
    ensure_built({input_.shape()}, false);
    return;
  }
  check(static_cast<bool>(item.layer()), "Sequential '", name(), "': add() got no layer.");
  if (auto* input_layer = dynamic_cast<InputLayer*>(item.layer().get())) {
    check(layers_.empty() && !input_.defined(), "Sequential '", name(),
          "': an InputLayer can only be the first entry.");
    input_ = input_layer->output();
    ensure_built({input_.shape()}, false);
    return;
  }
  layers_.push_back(item.layer());
  track_layer(item.layer()->name(), item.layer());
  if (input_.defined()) {
    const KerasTensor& previous = outputs_.empty() ? input_ : outputs_.back();
    outputs_.push_back((*item.layer())(previous));
  }
}

void SequentialModel::pop() {
  check(!layers_.empty(), "Sequential '", name(), "': there is no layer to pop.");
  layers_.pop_back();
  if (outputs_.size() > layers_.size()) outputs_.pop_back();
}

void SequentialModel::build(const Shape& input_shape) {
  if (!input_.defined()) input_ = Input({}, {.batch_shape = input_shape});
  build_graph();
}

void SequentialModel::build_graph() {
  outputs_.clear();
  KerasTensor x = input_;
  for (const auto& layer : layers_) {
    x = (*layer)(x);
    outputs_.push_back(x);
  }
}

Tensor SequentialModel::call(const Tensor& inputs, const CallContext&) {
  check(!layers_.empty(), "Sequential '", name(), "' has no layers to call.");
  Tensor x = inputs;
  for (const auto& layer : layers_) x = (*layer)(x);
  return x;
}

std::string SequentialModel::layer_output_shape(const Layer& layer) const {
  for (size_t i = 0; i < layers_.size() && i < outputs_.size(); ++i)
    if (layers_[i].get() == &layer) return shape_string(outputs_[i].shape());
  return Model::layer_output_shape(layer);
}

ModelPtr<SequentialModel> Sequential(std::initializer_list<SequentialItem> items,
                                     LayerOptions options) {
  return make_layer<SequentialModel>(std::vector<SequentialItem>(items), std::move(options));
}

std::vector<std::string> SequentialModel::output_names() const {
  if (layers_.empty()) return {};
  return {layers_.back()->name()};
}

}  // namespace keras
