#pragma once
// GPTQConfig and AWQConfig objects: a QuantizationConfig (mode "gptq"/"awq") that also carries
// its options. QuantizationConfig has no virtual functions (and adding one would change every
// layer's header), so the options are found again through a registry of the live objects:
// a config is a GPTQ/AWQ config exactly when it is one of them.

#include <mutex>
#include <set>

#include "keras/quantizers/quantizers.h"

namespace keras::quantizers::detail {

/// The record Keras serializes a keras.quantizers object as.
inline Config quantizer_record(const std::string& class_name, Config config) {
  return {{"module", "keras.quantizers"},
          {"class_name", class_name},
          {"config", std::move(config)},
          {"registered_name", nullptr}};
}

template <typename Options>
class CalibratedConfig : public QuantizationConfig {
 public:
  CalibratedConfig(std::string config_mode, Options config_options)
      : options(std::move(config_options)) {
    mode = std::move(config_mode);
    std::lock_guard<std::mutex> lock(registry_mutex());
    registry().insert(this);
  }
  ~CalibratedConfig() {
    std::lock_guard<std::mutex> lock(registry_mutex());
    registry().erase(this);
  }
  CalibratedConfig(const CalibratedConfig&) = delete;
  CalibratedConfig& operator=(const CalibratedConfig&) = delete;

  /// The options of `config` when it is a live CalibratedConfig<Options>; else null.
  static const Options* options_of(const QuantizationConfig* config) {
    std::lock_guard<std::mutex> lock(registry_mutex());
    if (!config || !registry().count(config)) return nullptr;
    return &static_cast<const CalibratedConfig*>(config)->options;
  }

  const Options options;

 private:
  static std::set<const QuantizationConfig*>& registry() {
    static std::set<const QuantizationConfig*> live;
    return live;
  }
  static std::mutex& registry_mutex() {
    static std::mutex mutex;
    return mutex;
  }
};

/// Keras's GPTQConfig.get_config / AWQConfig.get_config as serialized objects (dataset,
/// tokenizer and structure written as null, as Keras writes them once calibrated); null for
/// any other config.
Config serialize_calibrated_config(const QuantizationConfig& config);

/// A GPTQConfig/AWQConfig from its serialized form (no dataset: enough to build and load).
QuantizationConfigPtr deserialize_calibrated_config(const std::string& class_name,
                                                    const Config& config);

}  // namespace keras::quantizers::detail
