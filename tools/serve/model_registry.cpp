#include "serve/model_registry.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "keras/core/errors.h"
#include "serve/version_folders.h"

namespace keras::serving {

ModelRegistry::ModelRegistry(BatchingOptions batching, ModelLoader loader)
    : batching_(std::move(batching)),
      loader_(std::move(loader)),
      metrics_(std::make_shared<Metrics>()) {}

ModelRegistry::~ModelRegistry() {
  stop();
}

ModelRegistry::Stamp ModelRegistry::stamp_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  auto ns = [](const timespec& t) { return int64_t{t.tv_sec} * 1000000000 + t.tv_nsec; };
  return {true, static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino),
          static_cast<uint64_t>(st.st_size), ns(st.st_mtim), ns(st.st_ctim)};
}

std::shared_ptr<ModelServer> ModelRegistry::start_server(ModelPtr<Model> model) {
  auto server = std::make_shared<ModelServer>(std::move(model), batching_, metrics_);
  server->warm_up();
  return server;
}

void ModelRegistry::insert(const std::string& name, Entry entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (models_.count(name))
    throw ValueError("a model named '" + name + "' is already served: give each model its own name");
  models_[name] = std::move(entry);
}

void ModelRegistry::check_new_name(const std::string& name) const {
  if (name.empty() || name.find_first_of("/:") != std::string::npos)
    throw ValueError("the model name '" + name + "' must be non-empty, without '/' or ':'");
  if (find(name))
    throw ValueError("a model named '" + name + "' is already served: give each model its own name");
}

void ModelRegistry::add(const std::string& name, ModelPtr<Model> model) {
  check_new_name(name);
  insert(name, Entry{.current = {name, 1, start_server(std::move(model))}});
}

void ModelRegistry::add_file(const std::string& name, const std::string& path) {
  if (!loader_) throw ValueError("this registry has no model loader: use add()");
  check_new_name(name);  // before the load, which takes seconds
  if (std::filesystem::is_directory(path)) {
    const auto versions = version_folders(path);
    if (versions.empty())
      throw ValueError("the folder " + path + " holds no version folders (1/, 2/, ...), each "
                       "with one model file, as TF Serving's model base path does");
    const auto& [version, folder] = *versions.rbegin();
    insert(name, Entry{.current = {name, version, start_server(loader_(model_file_in(folder)))},
                       .path = path,
                       .versioned = true});
    return;
  }
  // The stamp before the load: a file replaced during the load is loaded again at the next poll.
  const Stamp stamp = stamp_of(path);
  insert(name, Entry{.current = {name, 1, start_server(loader_(path))},
                     .path = path,
                     .loaded = stamp});
}

std::optional<ServedModel> ModelRegistry::find(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = models_.find(name);
  if (it == models_.end()) return std::nullopt;
  return it->second.current;
}

std::vector<std::string> ModelRegistry::names() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [name, entry] : models_) out.push_back(name);
  return out;
}

std::vector<std::string> ModelRegistry::poll() {
  std::lock_guard<std::mutex> one_poll(poll_mutex_);
  std::vector<std::string> log;
  // The watched files, copied out: loading takes seconds and must not hold the lock requests
  // take to find their model.
  std::vector<std::pair<std::string, Entry>> watched;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [name, entry] : models_)
      if (!entry.path.empty()) watched.emplace_back(name, entry);
  }
  for (const auto& [name, entry] : watched) {
    if (entry.versioned) {
      poll_versions(name, entry, log);
    } else {
      poll_file(name, entry, log);
    }
  }
  return log;
}

void ModelRegistry::poll_file(const std::string& name, const Entry& entry,
                              std::vector<std::string>& log) {
  const Stamp now = stamp_of(entry.path);
  if (now == entry.loaded || now == entry.refused) return;
  const std::string prefix = "model '" + name + "': ";
  if (!now.exists) {
    log.push_back(prefix + entry.path + " is gone; version " +
                  std::to_string(entry.current.version) + " keeps serving");
    std::lock_guard<std::mutex> lock(mutex_);
    models_[name].refused = now;
    return;
  }
  std::shared_ptr<ModelServer> server;
  try {
    server = start_server(loader_(entry.path));
    if (server->signature().inputs.size() != entry.current.server->signature().inputs.size())
      log.push_back(prefix + "note: the new file has a different number of inputs");
  } catch (const std::exception& e) {
    metrics_->record_reload(false);
    log.push_back(prefix + entry.path + " changed but cannot be served (" + e.what() +
                  "); version " + std::to_string(entry.current.version) + " keeps serving");
    std::lock_guard<std::mutex> lock(mutex_);
    models_[name].refused = now;
    return;
  }
  const int64_t version = entry.current.version + 1;
  swap_in(name, version, std::move(server), now);
  log.push_back(prefix + "version " + std::to_string(version) + " loaded from " + entry.path);
}

void ModelRegistry::poll_versions(const std::string& name, const Entry& entry,
                                  std::vector<std::string>& log) {
  const auto versions = version_folders(entry.path);
  const std::string prefix = "model '" + name + "': ";
  const std::string serving = "; version " + std::to_string(entry.current.version) +
                              " keeps serving";
  if (versions.empty()) {
    if (entry.refused_version == -2) return;
    log.push_back(prefix + entry.path + " holds no version folders" + serving);
    std::lock_guard<std::mutex> lock(mutex_);
    models_[name].refused_version = -2;
    return;
  }
  // The highest version, as TF Serving's default policy serves; a lower one when the served
  // version's folder was removed.
  const auto& [version, folder] = *versions.rbegin();
  if (version == entry.current.version || version == entry.refused_version) return;
  std::shared_ptr<ModelServer> server;
  std::string file;
  try {
    file = model_file_in(folder);
    server = start_server(loader_(file));
  } catch (const std::exception& e) {
    metrics_->record_reload(false);
    log.push_back(prefix + "version " + std::to_string(version) + " (" + folder +
                  ") cannot be served (" + e.what() + ")" + serving);
    std::lock_guard<std::mutex> lock(mutex_);
    models_[name].refused_version = version;
    return;
  }
  swap_in(name, version, std::move(server), {});
  log.push_back(prefix + "version " + std::to_string(version) + " loaded from " + file);
}

void ModelRegistry::swap_in(const std::string& name, int64_t version,
                            std::shared_ptr<ModelServer> server, Stamp loaded) {
  std::shared_ptr<ModelServer> old;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Entry& e = models_[name];
    old = std::move(e.current.server);
    e.current = {name, version, std::move(server)};
    e.loaded = loaded;
    e.refused = {};
    e.refused_version = -1;
  }
  metrics_->record_reload(true);
  // `old` is released here; requests still running on it hold it until they are answered,
  // and the last one stops it (its queue drains first).
}

void ModelRegistry::start_polling(std::chrono::milliseconds interval,
                                  std::function<void(const std::string&)> log) {
  if (poller_.joinable()) throw ValueError("the registry is already polling");
  poller_ = std::thread([this, interval, log = std::move(log)] {
    std::unique_lock<std::mutex> lock(stop_mutex_);
    while (!stop_wake_.wait_for(lock, interval, [this] { return stopping_; })) {
      lock.unlock();
      for (const std::string& line : poll())
        if (log) log(line);
      lock.lock();
    }
  });
}

void ModelRegistry::stop() {
  {
    std::lock_guard<std::mutex> lock(stop_mutex_);
    stopping_ = true;
  }
  stop_wake_.notify_all();
  if (poller_.joinable()) poller_.join();
  std::vector<std::shared_ptr<ModelServer>> servers;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [name, entry] : models_) servers.push_back(entry.current.server);
  }
  for (auto& s : servers) s->stop();
}

size_t ModelRegistry::queue_size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t n = 0;
  for (const auto& [name, entry] : models_) n += entry.current.server->queue_size();
  return n;
}

std::string ModelRegistry::prometheus_text() const {
  std::string out = metrics_->prometheus_text(queue_size());
  out += "# HELP keras_serving_model_version The version each model serves now.\n";
  out += "# TYPE keras_serving_model_version gauge\n";
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [name, entry] : models_)
    out += "keras_serving_model_version{model=\"" + name + "\"} " +
           std::to_string(entry.current.version) + "\n";
  return out;
}

std::vector<ModelSource> read_model_config(const std::string& path) {
  using json = nlohmann::json;
  std::ifstream in(path);
  if (!in) throw IOError("cannot read the model config file " + path);
  const std::string where = "model config " + path + ": ";
  json doc = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded())
    throw ValueError(where + "not valid JSON; expected {\"models\": [{\"name\": ..., \"path\": ...}]}");
  if (!doc.is_object() || !doc.contains("models") || !doc["models"].is_array() ||
      doc["models"].empty())
    throw ValueError(where + "expected an object with a non-empty \"models\" list: " +
                     "{\"models\": [{\"name\": \"m\", \"path\": \"m.keras\"}]}");
  for (const auto& [key, value] : doc.items())
    if (key != "models") throw ValueError(where + "unknown key \"" + key + "\" (only \"models\")");
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  std::vector<ModelSource> out;
  std::set<std::string> seen;
  for (size_t i = 0; i < doc["models"].size(); ++i) {
    const json& m = doc["models"][i];
    const std::string at = where + "models[" + std::to_string(i) + "]: ";
    if (!m.is_object()) throw ValueError(at + "expected an object with \"name\" and \"path\"");
    for (const auto& [key, value] : m.items())
      if (key != "name" && key != "path")
        throw ValueError(at + "unknown key \"" + key + "\" (\"name\" and \"path\" only)");
    for (const char* key : {"name", "path"})
      if (!m.contains(key) || !m[key].is_string() || m[key].get<std::string>().empty())
        throw ValueError(at + "\"" + key + "\" must be a non-empty string");
    ModelSource s{m["name"].get<std::string>(), m["path"].get<std::string>()};
    if (!seen.insert(s.name).second)
      throw ValueError(at + "the name '" + s.name + "' is given twice");
    std::filesystem::path p(s.path);
    if (p.is_relative() && !folder.empty()) s.path = (folder / p).string();
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace keras::serving
