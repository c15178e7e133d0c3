#include "keras/core/config.h"

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>

#include "keras/core/errors.h"

namespace keras::config {
namespace {

struct Settings {
  std::atomic<DType> floatx{DType::Float32};
  std::atomic<double> epsilon{1e-7};
  std::string image_data_format = "channels_last";
  std::string backend;
  std::string backend_source;
};

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

void check_floatx(DType t) {
  if (t != DType::Float16 && t != DType::Float32 && t != DType::Float64)
    throw ValueError(keras::detail::cat("Invalid floatx ", t,
                                 ". Expected one of float16, float32, float64."));
}

void check_data_format(const std::string& f) {
  if (f != "channels_last" && f != "channels_first")
    throw ValueError("Invalid image_data_format '" + f +
                     "'. Expected 'channels_last' or 'channels_first'.");
}

// Reads keras.json the way keras/src/backend/config.py does: a file that is not valid JSON is
// ignored, invalid values are errors that name the file.
void load(Settings& s) {
  s.floatx = DType::Float32;
  s.epsilon = 1e-7;
  s.image_data_format = "channels_last";
  s.backend.clear();
  s.backend_source.clear();
  std::string path = keras_home() + "/keras.json";
  std::ifstream in(path);
  if (in) {
    nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (j.is_object()) {
      try {
        if (j.contains("floatx")) {
          DType t = dtype_from_string(j["floatx"].get<std::string>());
          check_floatx(t);
          s.floatx = t;
        }
        if (j.contains("epsilon")) s.epsilon = j["epsilon"].get<double>();
        if (j.contains("image_data_format")) {
          auto f = j["image_data_format"].get<std::string>();
          check_data_format(f);
          s.image_data_format = f;
        }
        if (j.contains("backend")) {
          s.backend = j["backend"].get<std::string>();
          s.backend_source = path;
        }
      } catch (const nlohmann::json::exception& e) {
        throw ValueError("Invalid value in " + path + ": " + e.what());
      } catch (const ValueError& e) {
        throw ValueError(std::string(e.what()) + " (read from " + path + ")");
      }
    }
  }
  std::string from_env = env("KERAS_BACKEND");
  if (!from_env.empty()) {
    s.backend = from_env;
    s.backend_source = "KERAS_BACKEND";
  }
}

std::mutex& mutex() {
  static std::mutex m;
  return m;
}

Settings& settings() {
  static Settings* s = [] {
    auto* fresh = new Settings();  // never destroyed: config outlives static destructors
    load(*fresh);
    return fresh;
  }();
  return *s;
}

}  // namespace

DType floatx() { return settings().floatx.load(std::memory_order_relaxed); }

void set_floatx(DType dtype) {
  check_floatx(dtype);
  settings().floatx = dtype;
}

double epsilon() { return settings().epsilon.load(std::memory_order_relaxed); }
void set_epsilon(double value) { settings().epsilon = value; }

const std::string& image_data_format() { return settings().image_data_format; }

void set_image_data_format(const std::string& format) {
  check_data_format(format);
  std::lock_guard<std::mutex> lock(mutex());
  settings().image_data_format = format;
}

std::string keras_home() {
  std::string home = env("KERAS_HOME");
  if (!home.empty()) return home;
  std::string user = env("HOME");
  return (user.empty() ? std::string("/tmp") : user) + "/.keras";
}

std::string configured_backend() {
  std::lock_guard<std::mutex> lock(mutex());
  return settings().backend;
}

std::string configured_backend_source() {
  std::lock_guard<std::mutex> lock(mutex());
  return settings().backend_source;
}

void reload() {
  std::lock_guard<std::mutex> lock(mutex());
  load(settings());
}

}  // namespace keras::config
