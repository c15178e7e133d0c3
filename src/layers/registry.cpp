#include "keras/layers/registry.h"

#include <map>
#include <mutex>

#include "layers/builtin_layers.h"

namespace keras::layers {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, LayerFactory> factories;
};

Registry& registry() {
  static Registry* r = [] {
    auto* fresh = new Registry();
    for (auto& [name, factory] : detail::builtin_layers()) fresh->factories[name] = factory;
    return fresh;
  }();
  return *r;
}

}  // namespace

void register_layer(const std::string& class_name, LayerFactory factory) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.factories[class_name] = std::move(factory);
}

std::shared_ptr<Layer> from_config(const std::string& class_name, const Config& config) {
  LayerFactory factory;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.factories.find(class_name);
    if (it == r.factories.end())
      throw ValueError("Unknown layer class '" + class_name +
                       "'. Register it with keras::layers::register_layer(\"" + class_name +
                       "\", factory) before reading this config.");
    factory = it->second;
  }
  try {
    return factory(config);
  } catch (const Config::exception& e) {
    // A key the class needs is missing, or a value has the wrong JSON type: nlohmann's own
    // exception is no keras::Error, and would not say which layer's config it was.
    throw ValueError(keras::detail::cat(
        "The config of layer class '", class_name, "' cannot be read: ", e.what(),
        ". Compare it with the config Keras writes for ", class_name, "."));
  }
}

std::shared_ptr<Layer> deserialize(const Config& record) {
  check(record.is_object() && record.contains("class_name") && record.contains("config"),
        "layers::deserialize: expected a {\"class_name\", \"config\"} record; got ",
        record.dump(), ".");
  return from_config(record["class_name"].get<std::string>(), record["config"]);
}

Config serialize(const Layer& layer) {
  const std::string module = keras_module(layer.class_name());
  Config record = {{"module", module},
                   {"class_name", keras_class_name(layer.class_name())},
                   {"config", layer.get_config()},
                   {"registered_name", nullptr}};
  if (module != "keras.layers") record["registered_name"] = layer.class_name();
  Config build = get_build_config(layer);
  if (!build.is_null()) record["build_config"] = build;
  return record;
}

std::vector<std::string> registered_layers() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& [name, f] : r.factories) names.push_back(name);
  return names;
}

}  // namespace keras::layers
