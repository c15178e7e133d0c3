// keras-cpp info: the version, the backends with their devices, which one is the default, the
// machine's devices, and why the torch backend has no GPU where it has none.

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "commands.h"
#include "keras/backend/registry.h"
#include "keras/core/config.h"
#include "keras/saving/save_model.h"
#ifdef KERAS_WITH_TORCH
#include "keras/torch/cuda.h"
#endif

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
  std::cout << "devices: ";
  const std::vector<std::string> devices = backend::list_devices();
  for (size_t i = 0; i < devices.size(); ++i) std::cout << (i ? ", " : "") << devices[i];
  std::cout << "\n";
#ifdef KERAS_WITH_TORCH  // keras::torch's definition: the CLI links the torch backend
  if (std::string why = torch_interop::torch_cuda_unavailable_reason(); !why.empty())
    std::cout << "torch on GPUs: no (" << why << ")\n";
#endif
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
