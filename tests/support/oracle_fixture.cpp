#include "oracle_fixture.h"

#include <fstream>
#include <map>
#include <mutex>
#include <stdexcept>

#include "golden.h"
#include "keras/utils/npy.h"

namespace keras::test {
namespace {

std::mutex& cache_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

const Tensor& oracle_array(const std::string& name, const std::string& key) {
  // Never destroyed: the tensors must not outlive their backend at exit.
  static auto* files = new std::map<std::string, std::map<std::string, Tensor>>;
  std::lock_guard<std::mutex> lock(cache_mutex());
  auto file = files->find(name);
  if (file == files->end()) file = files->emplace(name, utils::load_npz(oracle_path(name))).first;
  auto it = file->second.find(key);
  if (it == file->second.end())
    throw std::runtime_error("tests/oracle/fixtures/" + name + ".npz has no array " + key);
  return it->second;
}

const nlohmann::json& oracle_json(const std::string& name) {
  static auto* docs = new std::map<std::string, nlohmann::json>;
  std::lock_guard<std::mutex> lock(cache_mutex());
  auto doc = docs->find(name);
  if (doc == docs->end()) {
    std::ifstream in(std::string(KERAS_ORACLE_DIR) + "/" + name + ".json");
    if (!in) throw std::runtime_error("cannot read tests/oracle/fixtures/" + name + ".json");
    doc = docs->emplace(name, nlohmann::json::parse(in)).first;
  }
  return doc->second;
}

}  // namespace keras::test
