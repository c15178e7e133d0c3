#pragma once
// keras::serving::ModelRegistry: the models a server serves, by name, each behind its own
// ModelServer (queue and batching worker), and their hot reload. A model loaded from a file is
// watched: when the file changes (another inode, size or time), poll() loads the new file on
// the polling thread, runs one row through it, and swaps it in atomically as the next version.
// A model served from a folder of numbered version folders (TF Serving's layout,
// serve/version_folders.h) serves the versions its policy picks (serve/version_policy.h; by
// default the highest, as TF Serving's): poll() loads a version when its folder appears and the
// policy picks it, and retires a version the policy no longer picks once another one serves
// (a model never goes without a version). Requests without a version go to the highest served
// version; version labels (TF Serving's version_labels) name versions. Requests lease the
// ModelServer they started on (a shared_ptr), so requests in flight finish on the old version,
// which stops once its last request is answered. A file that does not load or run keeps the old
// version serving; the reason goes to the log, and the file is tried again only when it changes
// again.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "serve/metrics.h"
#include "serve/model_server.h"
#include "serve/version_policy.h"

namespace keras::serving {

/// What a request runs on: one version of one model.
struct ServedModel {
  std::string name;
  int64_t version = 1;
  std::shared_ptr<ModelServer> server;
};

/// Loads a model file (keras-cpp serve: saving::load_model without compile).
using ModelLoader = std::function<ModelPtr<Model>(const std::string& path)>;

class ModelRegistry {
 public:
  /// Every model gets `batching`; `loader` loads files (add_file and reloads).
  explicit ModelRegistry(BatchingOptions batching = {}, ModelLoader loader = nullptr);
  /// stop().
  ~ModelRegistry();
  ModelRegistry(const ModelRegistry&) = delete;
  ModelRegistry& operator=(const ModelRegistry&) = delete;

  /// Serves `model` as `name`, version 1, never reloaded. ValueError for a name already
  /// served, a name with '/' or ':', or a model without a signature; the model's exception
  /// when it cannot run a row of zeros.
  void add(const std::string& name, ModelPtr<Model> model);
  /// Loads `path` and serves it as `name`, version 1, watched by poll(). As add(), and the
  /// loader's exception when the file does not load. A folder `path` holds version folders:
  /// the versions `policy` picks are served under their own numbers (ValueError when it picks
  /// none; the loader's exception when one does not load), and `labels` name some of them
  /// (ValueError for a label of a version not served, or a policy or labels with a file).
  void add_file(const std::string& name, const std::string& path, VersionPolicy policy = {},
                std::map<std::string, int64_t> labels = {});

  /// The highest served version of `name`; nullopt when no such model is served.
  std::optional<ServedModel> find(const std::string& name) const;
  /// Version `version` of `name`; nullopt when it is not served.
  std::optional<ServedModel> find(const std::string& name, int64_t version) const;
  /// The version the label `label` of `name` stands for; nullopt for an unknown label.
  std::optional<int64_t> label_version(const std::string& name, const std::string& label) const;
  /// The served versions of `name`, ascending (empty when no such model is served).
  std::vector<int64_t> versions(const std::string& name) const;
  /// The served names, sorted.
  std::vector<std::string> names() const;

  /// Checks every watched file once; reloads the changed ones. Returns a line per event
  /// ("model 'm' version 2 loaded from m.keras", "model 'm': m.keras changed but ...").
  std::vector<std::string> poll();
  /// poll() every `interval` on a thread of its own, each line to `log`, until stop().
  void start_polling(std::chrono::milliseconds interval,
                     std::function<void(const std::string&)> log);

  /// Ends polling, then stops every model (each finishes its queued requests). Idempotent.
  void stop();

  /// Counters of every model (and reloads) together.
  Metrics& metrics() { return *metrics_; }
  /// Requests waiting in every model's queue.
  size_t queue_size() const;
  /// /metrics: the counters, the queue gauge, each model's version.
  std::string prometheus_text() const;

 private:
  // A file's identity for change detection: a file renamed over the old one is a new inode;
  // one rewritten in place changes its size or times (which the kernel keeps at the
  // resolution of its clock tick, so the inode catches what two writes within a tick miss).
  struct Stamp {
    bool exists = false;
    uint64_t device = 0, inode = 0, size = 0;
    int64_t modified_ns = 0, changed_ns = 0;
    bool operator==(const Stamp&) const = default;
  };
  struct Entry {
    std::map<int64_t, std::shared_ptr<ModelServer>> served;  // by version; never empty
    std::string path;  // empty: not watched
    Stamp loaded;      // the stamp of the file the served version came from
    Stamp refused;     // the stamp of the last file that failed, so it is not retried
    bool versioned = false;  // `path` is a folder of version folders
    VersionPolicy policy;    // which version folders to serve
    std::map<std::string, int64_t> labels;
    std::set<int64_t> refused_versions;  // versions that failed to load, not retried
    bool reported_empty = false;         // "no version folders" was logged
    // The highest served version.
    ServedModel latest(const std::string& name) const;
  };
  static Stamp stamp_of(const std::string& path);
  // ValueError for a name that is malformed or served already.
  void check_new_name(const std::string& name) const;
  std::shared_ptr<ModelServer> start_server(ModelPtr<Model> model);
  void insert(const std::string& name, Entry entry);
  // poll() for a model served from a file, and from version folders; each appends to `log`.
  void poll_file(const std::string& name, const Entry& entry, std::vector<std::string>& log);
  void poll_versions(const std::string& name, const Entry& entry, std::vector<std::string>& log);
  // Makes `server` the only served `version` of `name` (a file's reload; the old version ends
  // with its last request).
  void swap_in(const std::string& name, int64_t version, std::shared_ptr<ModelServer> server,
               Stamp loaded);

  BatchingOptions batching_;
  ModelLoader loader_;
  std::shared_ptr<Metrics> metrics_;
  mutable std::mutex mutex_;
  std::map<std::string, Entry> models_;
  std::mutex poll_mutex_;  // one poll() at a time
  std::thread poller_;
  std::mutex stop_mutex_;
  std::condition_variable stop_wake_;
  bool stopping_ = false;
};

/// One model of a --model-config file.
struct ModelSource {
  std::string name, path;
  VersionPolicy policy;
  std::map<std::string, int64_t> labels;
};
/// Reads a --model-config file: {"models": [{"name": "a", "path": "a.keras"}, ...]}, paths
/// (model files, or folders of version folders) relative to the file's folder; an entry may
/// add TF Serving's "model_version_policy" and "version_labels" ({"stable": 1, "canary": 2}).
/// ValueError naming the file and what is wrong (not JSON, no "models" list, an entry without a
/// name or path, an unknown key, a name given twice, a malformed policy or label).
std::vector<ModelSource> read_model_config(const std::string& path);

}  // namespace keras::serving
