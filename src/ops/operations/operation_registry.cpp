// The registry of Keras op classes (keras/ops/operation.h): the built-in tables, added on first
// use, plus what programs register.

#include <algorithm>
#include <map>
#include <mutex>

#include "keras/core/errors.h"
#include "ops/operations/operation_tables.h"

namespace keras::ops {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, OperationSpec> specs;
};

Registry& registry() {
  static Registry* r = [] {
    auto* reg = new Registry();
    detail::OperationTable table;
    detail::add_numpy_operations(table);
    detail::add_nn_operations(table);
    detail::add_math_operations(table);
    detail::add_core_operations(table);
    detail::add_linalg_operations(table);
    detail::add_image_operations(table);
    detail::add_einops_operations(table);
    for (OperationSpec& spec : table) reg->specs[spec.class_name] = std::move(spec);
    return reg;
  }();
  return *r;
}

}  // namespace

void register_operation(OperationSpec spec) {
  check(!spec.class_name.empty() && static_cast<bool>(spec.fn),
        "register_operation: an op class needs a class_name and a function.");
  if (spec.module.empty()) spec.module = "keras.src.ops.numpy";
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.specs[spec.class_name] = std::move(spec);
}

const OperationSpec* find_operation(const std::string& class_name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.specs.find(class_name);
  // Entries are never erased (only replaced in place), so the pointer stays valid.
  return it == r.specs.end() ? nullptr : &it->second;
}

std::vector<std::string> registered_operations() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& [name, spec] : r.specs) names.push_back(name);
  return names;
}

}  // namespace keras::ops
