#include "keras/backend/registry.h"

#include <algorithm>
#include <atomic>
#include <iostream>
#include <map>
#include <mutex>

#include "backend/builtin_backends.h"
#include "keras/core/config.h"
#include "keras/core/errors.h"

namespace keras::backend {
namespace {

struct Entry {
  BackendFactory factory;
  std::unique_ptr<Backend> instance;
};

struct Registry {
  std::mutex mutex;
  std::map<std::string, Entry, std::less<>> entries;
  std::map<std::string, std::string, std::less<>> aliases;  // alias -> entry name
  std::atomic<Backend*> default_backend{nullptr};
  std::string default_source;
};

Registry& registry() {
  // Never destroyed: tensors held in static objects may outlive main().
  static Registry* r = [] {
    auto* fresh = new Registry();
    for (auto& [name, factory] : detail::builtin_backends())
      fresh->entries[name] = Entry{std::move(factory), nullptr};
    fresh->aliases["cpu:0"] = "cpu";  // the device's own name, as list_devices() gives it
    return fresh;
  }();
  return *r;
}

std::string list_available(Registry& r) {
  std::string names;
  for (const auto& [name, entry] : r.entries) {
    if (!names.empty()) names += ", ";
    names += name;
  }
  return names;
}

Backend& get_locked(Registry& r, std::string_view name) {
  auto it = r.entries.find(name);
  if (it == r.entries.end()) {
    if (auto alias = r.aliases.find(name); alias != r.aliases.end())
      it = r.entries.find(alias->second);
  }
  if (it == r.entries.end())
    throw ValueError("Unknown backend '" + std::string(name) +
                     "'. Available backends: " + list_available(r) + ".");
  if (!it->second.instance) it->second.instance = it->second.factory();
  return *it->second.instance;
}

bool is_python_only(std::string_view name) {
  return name == "jax" || name == "tensorflow" || name == "numpy" || name == "openvino" ||
         name == "mlx";
}

// Resolves rules 2-5 of registry.h once; set_default replaces the result.
Backend& resolve_default(Registry& r) {
  if (Backend* b = r.default_backend.load(std::memory_order_acquire)) return *b;
  std::lock_guard<std::mutex> lock(r.mutex);
  if (Backend* b = r.default_backend.load(std::memory_order_relaxed)) return *b;
  std::string name = config::configured_backend();
  std::string source = config::configured_backend_source();
  if (!name.empty() && is_python_only(name)) {
    std::cerr << "keras-cpp: " << (source == "KERAS_BACKEND" ? "KERAS_BACKEND" : source)
              << " names the Python backend '" << name
              << "', which keras-cpp does not have; using 'cpu'.\n";
    name.clear();
  }
  if (name.empty()) {
    name = "cpu";
    source = "built-in default";
  }
  Backend& b = get_locked(r, name);
  r.default_source = source;
  r.default_backend.store(&b, std::memory_order_release);
  return b;
}

// The live BackendScopes of this thread, innermost last.
thread_local std::vector<Backend*> scopes;

}  // namespace

void register_backend(const std::string& name, BackendFactory factory) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.entries.count(name) || r.aliases.count(name))
    throw ValueError("A backend named '" + name + "' is already registered.");
  r.entries[name] = Entry{std::move(factory), nullptr};
}

void register_alias(const std::string& alias, const std::string& target) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.entries.count(alias) || r.aliases.count(alias))
    throw ValueError("A backend named '" + alias + "' is already registered.");
  if (!r.entries.count(target))
    throw ValueError("Cannot register '" + alias + "' as another name for '" + target +
                     "': no backend of that name is registered (available: " + list_available(r) +
                     ").");
  r.aliases[alias] = target;
}

std::vector<std::string> available() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& [name, entry] : r.entries) names.push_back(name);
  return names;
}

std::vector<std::string> list_devices() {
  std::vector<std::string> devices;
  for (const std::string& name : available()) {
    Backend& b = get(name);
    if (b.is_symbolic()) continue;  // shapes only: no memory anywhere
    std::string device = b.device();
    if (std::find(devices.begin(), devices.end(), device) == devices.end())
      devices.push_back(std::move(device));
  }
  return devices;
}

Backend& get(std::string_view name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return detail::route(get_locked(r, name));
}

Backend& current() {
  if (!scopes.empty()) return detail::route(*scopes.back());
  return detail::route(resolve_default(registry()));
}

Backend& current_real() {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
    if (!(*it)->is_symbolic()) return detail::route(**it);
  return detail::route(resolve_default(registry()));
}

std::string_view backend() { return current().name(); }

std::string current_source() {
  if (!scopes.empty()) return "BackendScope";
  Registry& r = registry();
  resolve_default(r);
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.default_source;
}

void set_default(std::string_view name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  Backend& b = get_locked(r, name);
  r.default_source = "set_default";
  r.default_backend.store(&b, std::memory_order_release);
}

BackendScope::BackendScope(std::string_view name) : depth_(scopes.size()) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  scopes.push_back(&get_locked(r, name));  // the backend itself; current() routes it
}

BackendScope::~BackendScope() { scopes.resize(depth_); }

}  // namespace keras::backend
