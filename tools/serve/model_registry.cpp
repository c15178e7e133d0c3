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

ServedModel ModelRegistry::Entry::latest(const std::string& name) const {
  const auto& [version, server] = *served.rbegin();
  return {name, version, server};
}

void ModelRegistry::add(const std::string& name, ModelPtr<Model> model) {
  check_new_name(name);
  insert(name, Entry{.served = {{1, start_server(std::move(model))}}});
}

void ModelRegistry::add_file(const std::string& name, const std::string& path, VersionPolicy policy,
                             std::map<std::string, int64_t> labels) {
  if (!loader_) throw ValueError("this registry has no model loader: use add()");
  check_new_name(name);  // before the load, which takes seconds
  if (std::filesystem::is_directory(path)) {
    const auto available = version_folders(path);
    if (available.empty())
      throw ValueError("the folder " + path + " holds no version folders (1/, 2/, ...), each "
                       "with one model file, as TF Serving's model base path does");
    const std::set<int64_t> picked = policy.select(available);
    if (picked.empty())
      throw ValueError("model '" + name + "': the \"" + policy.kind +
                       "\" version policy picks "
                       "none of the versions in " +
                       path);
    Entry entry{.path = path, .versioned = true, .policy = std::move(policy)};
    for (int64_t version : picked)
      entry.served[version] = start_server(loader_(model_file_in(available.at(version))));
    // TF Serving refuses a label of a version it does not serve.
    for (const auto& [label, version] : labels)
      if (!entry.served.count(version))
        throw ValueError("model '" + name + "': the version label '" + label + "' names version " +
                         std::to_string(version) + ", which is not served");
    entry.labels = std::move(labels);
    insert(name, std::move(entry));
    return;
  }
  if (policy.kind != "latest" || policy.num_versions != 1 || !labels.empty())
    throw ValueError("model '" + name +
                     "': a version policy and version labels need a folder "
                     "of version folders; " +
                     path + " is a file");
  // The stamp before the load: a file replaced during the load is loaded again at the next poll.
  const Stamp stamp = stamp_of(path);
  insert(name, Entry{.served = {{1, start_server(loader_(path))}}, .path = path, .loaded = stamp});
}

std::optional<ServedModel> ModelRegistry::find(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = models_.find(name);
  if (it == models_.end()) return std::nullopt;
  return it->second.latest(name);
}

std::optional<ServedModel> ModelRegistry::find(const std::string& name, int64_t version) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = models_.find(name);
  if (it == models_.end()) return std::nullopt;
  auto v = it->second.served.find(version);
  if (v == it->second.served.end()) return std::nullopt;
  return ServedModel{name, version, v->second};
}

std::optional<int64_t> ModelRegistry::label_version(const std::string& name,
                                                    const std::string& label) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = models_.find(name);
  if (it == models_.end()) return std::nullopt;
  auto l = it->second.labels.find(label);
  if (l == it->second.labels.end()) return std::nullopt;
  return l->second;
}

std::vector<int64_t> ModelRegistry::versions(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<int64_t> out;
  auto it = models_.find(name);
  if (it != models_.end())
    for (const auto& [version, server] : it->second.served) out.push_back(version);
  return out;
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
                  std::to_string(entry.latest(name).version) + " keeps serving");
    std::lock_guard<std::mutex> lock(mutex_);
    models_[name].refused = now;
    return;
  }
  std::shared_ptr<ModelServer> server;
  try {
    server = start_server(loader_(entry.path));
    if (server->signature().inputs.size() != entry.latest(name).server->signature().inputs.size())
      log.push_back(prefix + "note: the new file has a different number of inputs");
  } catch (const std::exception& e) {
    metrics_->record_reload(false);
    log.push_back(prefix + entry.path + " changed but cannot be served (" + e.what() +
                  "); version " + std::to_string(entry.latest(name).version) + " keeps serving");
    std::lock_guard<std::mutex> lock(mutex_);
    models_[name].refused = now;
    return;
  }
  const int64_t version = entry.latest(name).version + 1;
  swap_in(name, version, std::move(server), now);
  log.push_back(prefix + "version " + std::to_string(version) + " loaded from " + entry.path);
}

void ModelRegistry::poll_versions(const std::string& name, const Entry& entry,
                                  std::vector<std::string>& log) {
  const auto available = version_folders(entry.path);
  const std::string prefix = "model '" + name + "': ";
  auto serving_now = [&] {
    std::string s;
    for (const auto& [version, server] : entry.served)
      s += (s.empty() ? "" : ", ") + std::to_string(version);
    return "; version" + std::string(entry.served.size() > 1 ? "s " : " ") + s + " keep" +
           (entry.served.size() > 1 ? "" : "s") + " serving";
  };
  if (available.empty()) {
    if (entry.reported_empty) return;
    log.push_back(prefix + entry.path + " holds no version folders" + serving_now());
    std::lock_guard<std::mutex> lock(mutex_);
    models_[name].reported_empty = true;
    return;
  }
  // Load the versions the policy picks and does not serve yet (a broken one is logged once
  // and not retried); retire the ones it no longer picks, once one it picks serves.
  const std::set<int64_t> picked = entry.policy.select(available);
  std::map<int64_t, std::shared_ptr<ModelServer>> loaded;
  std::set<int64_t> refused;
  for (int64_t version : picked) {
    if (entry.served.count(version) || entry.refused_versions.count(version)) continue;
    const std::string& folder = available.at(version);
    try {
      const std::string file = model_file_in(folder);
      loaded[version] = start_server(loader_(file));
      log.push_back(prefix + "version " + std::to_string(version) + " loaded from " + file);
      metrics_->record_reload(true);
    } catch (const std::exception& e) {
      metrics_->record_reload(false);
      refused.insert(version);
      log.push_back(prefix + "version " + std::to_string(version) + " (" + folder +
                    ") cannot be served (" + e.what() + ")" + serving_now());
    }
  }
  std::vector<std::shared_ptr<ModelServer>> retired;  // released after the lock
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Entry& e = models_[name];
    e.reported_empty = false;
    // After a load, the refused versions may be picked again later (another version's folder
    // removed): they are tried again then.
    if (!loaded.empty()) e.refused_versions.clear();
    e.refused_versions.insert(refused.begin(), refused.end());
    // A refused version whose folder is gone is tried again if it comes back.
    std::erase_if(e.refused_versions, [&](int64_t v) { return !available.count(v); });
    for (auto& [version, server] : loaded) e.served[version] = std::move(server);
    bool picked_serves = false;
    for (const auto& [version, server] : e.served)
      picked_serves = picked_serves || picked.count(version);
    if (picked_serves) {
      for (auto it = e.served.begin(); it != e.served.end();) {
        if (picked.count(it->first)) {
          ++it;
          continue;
        }
        log.push_back(prefix + "version " + std::to_string(it->first) + " retired");
        retired.push_back(std::move(it->second));
        it = e.served.erase(it);
      }
    }
  }
  // The retired versions end when their last request in flight is answered.
}

void ModelRegistry::swap_in(const std::string& name, int64_t version,
                            std::shared_ptr<ModelServer> server, Stamp loaded) {
  std::map<int64_t, std::shared_ptr<ModelServer>> old;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Entry& e = models_[name];
    old = std::move(e.served);
    e.served = {{version, std::move(server)}};
    e.loaded = loaded;
    e.refused = {};
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
    for (auto& [name, entry] : models_)
      for (auto& [version, server] : entry.served) servers.push_back(server);
  }
  for (auto& s : servers) s->stop();
}

size_t ModelRegistry::queue_size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t n = 0;
  for (const auto& [name, entry] : models_)
    for (const auto& [version, server] : entry.served) n += server->queue_size();
  return n;
}

std::string ModelRegistry::prometheus_text() const {
  std::string out = metrics_->prometheus_text(queue_size());
  out += "# HELP keras_serving_model_version The highest version each model serves now.\n";
  out += "# TYPE keras_serving_model_version gauge\n";
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [name, entry] : models_)
    out += "keras_serving_model_version{model=\"" + name + "\"} " +
           std::to_string(entry.latest(name).version) + "\n";
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
      if (key != "name" && key != "path" && key != "model_version_policy" &&
          key != "version_labels")
        throw ValueError(at + "unknown key \"" + key + "\" (\"name\", \"path\", " +
                         "\"model_version_policy\" and \"version_labels\")");
    for (const char* key : {"name", "path"})
      if (!m.contains(key) || !m[key].is_string() || m[key].get<std::string>().empty())
        throw ValueError(at + "\"" + key + "\" must be a non-empty string");
    ModelSource s{m["name"].get<std::string>(), m["path"].get<std::string>()};
    if (m.contains("model_version_policy"))
      s.policy = VersionPolicy::from_json(m["model_version_policy"], at);
    if (m.contains("version_labels")) {
      const json& labels = m["version_labels"];
      if (!labels.is_object())
        throw ValueError(at +
                         "\"version_labels\" must map labels to versions: "
                         "{\"stable\": 1, \"canary\": 2}");
      for (const auto& [label, version] : labels.items()) {
        if (label.empty() || label.find_first_of("/:") != std::string::npos ||
            !version.is_number_integer() || version.get<int64_t>() < 0)
          throw ValueError(at + "the version label \"" + label +
                           "\" must be a non-empty name "
                           "without '/' or ':' mapped to a version number (an integer >= 0)");
        s.labels[label] = version.get<int64_t>();
      }
    }
    if (!seen.insert(s.name).second)
      throw ValueError(at + "the name '" + s.name + "' is given twice");
    std::filesystem::path p(s.path);
    if (p.is_relative() && !folder.empty()) s.path = (folder / p).string();
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace keras::serving
