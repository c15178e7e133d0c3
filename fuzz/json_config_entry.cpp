// json_config_fuzzer's body: arbitrary JSON through every way a config becomes objects:
// - keras::models::model_from_json (a model's to_json() text, compile and safe_mode on);
// - saving::deserialize_keras_object on the whole record (a layer, not only a model);
// - deserialize_keras_object on each layer record of config.layers, so a layer's from_config
//   and build_config are reached even when the model around it is refused earlier;
// - a model that loads is serialized again (to_json) and counted (count_params).
// The text goes through saving::parse_json first, with the limits the loaders use.

#include <string>
#include <string_view>

#include "keras/keras.h"
#include "keras/saving/safe_json.h"
#include "keras/saving/save_model.h"
#include "keras/saving/serialization.h"
#include "reader_entries.h"

namespace keras::fuzz {
namespace {

// Layer records deserialized one by one; a fuzzer input rarely needs more, and each can build
// weights.
constexpr size_t kMaxLayerRecords = 16;

void each_layer_record(const Config& record) {
  if (!record.is_object() || !record.contains("config") || !record["config"].is_object()) return;
  const Config& config = record["config"];
  if (!config.contains("layers") || !config["layers"].is_array()) return;
  size_t n = 0;
  for (const Config& layer : config["layers"]) {
    if (++n > kMaxLayerRecords) return;
    try {
      (void)saving::deserialize_keras_object(layer)->name();
    } catch (const Error&) {
    }
  }
}

}  // namespace

void json_config_one_input(const uint8_t* data, size_t size) {
  backend::clear_session();  // layer-name counters would otherwise grow for every input
  const std::string text(reinterpret_cast<const char*>(data), size);
  Config record;
  try {
    record = saving::parse_json(text, "fuzz-input.json");
  } catch (const Error&) {
    return;
  }
  try {
    auto model = models::model_from_json(text);
    (void)model->count_params();
    (void)model->to_json();
  } catch (const Error&) {
  }
  try {
    (void)saving::deserialize_keras_object(record)->name();
  } catch (const Error&) {
  }
  each_layer_record(record);
}

}  // namespace keras::fuzz
