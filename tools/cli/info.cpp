// keras-cpp info: the version, the backends with their devices, and which one is the default.

#include <algorithm>
#include <iostream>

#include "commands.h"
#include "keras/backend/registry.h"
#include "keras/core/config.h"
#include "keras/saving/save_model.h"

namespace keras::cli {
namespace {

void run_info() {
  std::cout << "keras-cpp " << KERAS_CPP_VERSION << " (writes the Keras "
            << saving::kKerasFormatVersion << " .keras format)\n";
  std::string current(backend::backend());
  std::cout << "default backend: " << current << " (from " << backend::current_source() << ")\n";
  std::cout << "backends (* = default):\n";
  size_t width = 0;
  for (const std::string& name : backend::available()) width = std::max(width, name.size());
  for (const std::string& name : backend::available()) {
    std::string device;
    try {
      device = backend::get(name).device();
    } catch (const std::exception& e) {
      device = std::string("unavailable: ") + e.what();
    }
    bool symbolic =
        device.find("unavailable") == std::string::npos && backend::get(name).is_symbolic();
    std::cout << "  " << (name == current ? "* " : "  ") << name
              << std::string(width - name.size(), ' ') << "  device " << device
              << (symbolic ? "  (shapes only: the Functional API's internal backend)" : "") << "\n";
  }
  std::cout << "floatx: " << dtype_name(config::floatx())
            << ", image_data_format: " << config::image_data_format()
            << ", keras home: " << config::keras_home() << "\n";
}

}  // namespace

void add_info(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "info", "Version, available backends with their devices, and the default backend (why)");
  cmd->callback(run_info);
}

}  // namespace keras::cli
