#include "common.h"

#include <filesystem>

#include "keras/backend/registry.h"
#include "keras/saving/save_model.h"
#include "keras/utils/npy.h"

namespace keras::cli {
namespace {

void require_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw UserError(what + " '" + path + "' does not exist");
  if (std::filesystem::is_directory(path, ec))
    throw UserError(what + " '" + path + "' is a directory, not a file");
}

}  // namespace

void use_backend(const std::string& name) {
  if (!name.empty()) backend::set_default(name);
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
