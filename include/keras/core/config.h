#pragma once
// Global settings, read once from the environment and ~/.keras/keras.json as Keras does
// (KERAS_HOME overrides the folder). Unlike Python Keras, keras-cpp never writes keras.json.

#include <string>

#include "keras/core/dtype.h"

#pragma GCC visibility push(default)
namespace keras::config {

/// The default float dtype: "float32" unless keras.json or set_floatx says otherwise.
DType floatx();
/// Sets floatx; only float16, float32 and float64 are accepted, as in Keras.
void set_floatx(DType dtype);

/// The fuzz factor used by losses and normalization layers (1e-7 by default).
double epsilon();
/// Sets the fuzz factor for this process (keras.config.set_epsilon).
void set_epsilon(double value);

/// "channels_last" (the default) or "channels_first".
const std::string& image_data_format();
/// Sets the default data format for this process (keras.config.set_image_data_format).
/// Throws ValueError unless `format` is "channels_last" or "channels_first".
void set_image_data_format(const std::string& format);

/// The folder Keras keeps its config in: $KERAS_HOME, else ~/.keras.
std::string keras_home();

/// The backend name the config names ($KERAS_BACKEND, then keras.json), or "" when neither does.
/// keras::backend::current() applies it; see keras/backend/registry.h for the full rule.
std::string configured_backend();
/// Where configured_backend() came from: "KERAS_BACKEND", the keras.json path, or "".
std::string configured_backend_source();

/// Rereads the environment and keras.json, dropping earlier set_* calls (for tests).
void reload();

}  // namespace keras::config

#pragma GCC visibility pop
