#include "common.h"

#include <cstdlib>
#include <filesystem>

#include "keras/backend/registry.h"
#include "keras/saving/save_model.h"
#include "keras/utils/npy.h"

namespace keras::cli {
namespace {

void require_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw UserError(what + " '" + path + "' does not exist");
  if (std::filesystem::is_directory(path, ec))
    throw UserError(what + " '" + path + "' is a directory, not a file");
}

}  // namespace

CLI::Validator whole_number(long long min) {
  return CLI::Validator(
      [min](std::string& text) -> std::string {
        char* end = nullptr;
        long long v = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || end != text.c_str() + text.size() || v < min)
          return "'" + text + "' is not a whole number >= " + std::to_string(min);
        return {};
      },
      "INT>=" + std::to_string(min));
}

CLI::Validator fraction() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        double v = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || !(v >= 0 && v < 1))
          return "'" + text + "' is not a fraction in [0, 1)";
        return {};
      },
      "FRACTION");
}

void use_backend(const std::string& name) {
  if (name.empty()) return;
  if (backend::get(name).is_symbolic())
    throw UserError("the '" + name + "' backend holds shapes only, no values: choose a " +
                    "computing backend (see keras-cpp info)");
  backend::set_default(name);
}

void check_output(const std::string& path, const std::string& extension) {
  if (!path.ends_with(extension))
    throw UserError("the output file '" + path + "' must end in " + extension);
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    throw UserError("cannot write '" + path + "': the folder '" + parent.string() +
                    "' does not exist");
}

ModelPtr<Model> load_model_file(const std::string& path, bool compile) {
  require_file(path, "model file");
  return saving::load_model(path, {.compile = compile});
}

ModelPtr<Model> load_compiled_model(const std::string& path) {
  auto model = load_model_file(path);
  if (!model->compiled())
    throw UserError(path + " holds a model saved without compile(): it has no loss to " +
                    "evaluate or train with; compile it and save it again");
  return model;
}

Tensor load_array(const std::string& path) {
  require_file(path, "array file");
  return utils::load_npy(path);
}

TensorStruct model_inputs(const std::vector<std::string>& paths) {
  if (paths.size() == 1) return load_array(paths[0]);
  TensorList list;
  for (const auto& p : paths) list.push_back(load_array(p));
  return list;
}

std::string describe(const Tensor& t) {
  return t.shape().to_string() + " " + std::string(dtype_name(t.dtype()));
}

}  // namespace keras::cli
