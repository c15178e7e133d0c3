#include "keras/layers/preprocessing/pipeline.h"

#include <map>

#include "keras/backend/registry.h"
#include "keras/layers/keras_tensor.h"
#include "keras/layers/registry.h"
#include "keras/ops/ops.h"

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

void PipelineLayer::build(const Shape& input_shape) {
  // Keras builds each layer on the previous one's output shape, unknown dimensions unknown;
  // left to the shape inference of a Functional call they would be built on its probe sizes.
  // Each output shape comes from two data-free calls (unknown dimensions set to 83, then 89;
  // a dimension that differs is unknown), as Layer's own shape inference does.
  Shape shape = input_shape;
  for (const auto& layer : layers_) {
    layer->ensure_built({shape}, false);
    auto probe = [&](int64_t size) {
      backend::BackendScope symbolic("symbolic");
      Shape concrete = shape;
      for (int d = 0; d < concrete.rank(); ++d)
        if (concrete[d] == kUnknownDim) concrete[d] = size;
      return (*layer)(ops::zeros(concrete, compute_dtype()), CallContext{.training = false})
          .shape();
    };
    Shape a = probe(83), b = probe(89);
    if (a.rank() == b.rank())
      for (int d = 0; d < a.rank(); ++d)
        if (a[d] != b[d]) a[d] = kUnknownDim;
    shape = a;
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
