#include "keras/layers/preprocessing/pipeline.h"

#include <map>

#include "keras/layers/registry.h"

namespace keras::layers {

PipelineLayer::PipelineLayer(std::vector<std::shared_ptr<Layer>> layers, PipelineOptions options)
    : Layer(LayerOptions{options.name, true, ""}, "pipeline"), layers_(std::move(layers)) {
  // saving_lib._save_container_state: list items are named by class, counted per class.
  std::map<std::string, int> used;
  for (size_t i = 0; i < layers_.size(); ++i) {
    check(static_cast<bool>(layers_[i]), "Pipeline '", name(), "': layer ", i,
          " is null; pass layers (e.g. keras::layers::RandomFlip()).");
    std::string path = to_snake_case(layers_[i]->class_name());
    auto [it, fresh] = used.emplace(path, 0);
    if (!fresh) path += "_" + std::to_string(++it->second);
    track_layer("layers/" + path, layers_[i]);
  }
}

Tensor PipelineLayer::call(const Tensor& inputs, const CallContext& ctx) {
  Tensor x = inputs;
  for (const auto& layer : layers_) x = (*layer)(x, CallContext{.training = ctx.training});
  return x;
}

Config PipelineLayer::get_config() const {
  Config records = Config::array();
  for (const auto& layer : layers_) records.push_back(serialize(*layer));
  return Config{{"layers", records}, {"name", name()}};
}

std::shared_ptr<Layer> PipelineLayer::from_config(const Config& c) {
  check(c.contains("layers") && c["layers"].is_array(),
        "`Pipeline` config must contain a `layers` key mapping to a list of serialized layers; "
        "got ",
        c.contains("layers") ? c["layers"].dump() : std::string("no 'layers' key"), ".");
  std::vector<std::shared_ptr<Layer>> layers;
  for (const Config& record : c["layers"]) layers.push_back(deserialize(record));
  PipelineOptions o;
  if (c.contains("name") && c["name"].is_string()) o.name = c["name"].get<std::string>();
  return std::make_shared<PipelineLayer>(std::move(layers), o);
}

LayerPtr<PipelineLayer> Pipeline(std::vector<std::shared_ptr<Layer>> layers,
                                 PipelineOptions options) {
  return make_layer<PipelineLayer>(std::move(layers), std::move(options));
}

}  // namespace keras::layers
