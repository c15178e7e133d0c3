// Sharded weights (Keras's ShardedH5IOStore): the *.weights.json index and its
// <base>_NNNNN.weights.h5 shards, written with libhdf5 in h5py's layout and read back through
// H5File (with its checks on files from strangers).

#include "keras/saving/sharded_weights.h"

#include <fcntl.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_set>

#include "keras/core/errors.h"
#include "keras/models/model.h"
#include "keras/optimizers/multi_optimizer.h"
#include "keras/saving/atomic_file.h"
#include "keras/saving/h5_file.h"
#include "saving/h5_cause.h"
#include "saving/h5_types.h"
#include "saving/saveable_walk.h"

namespace keras::saving {
namespace {

namespace fs = std::filesystem;
using OrderedJson = nlohmann::ordered_json;

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// One "vars" group in _save_state/_load_state order: its HDF5 path without the leading '/'
// ("layers/dense/vars"), the object's name (the group's "name" attribute) and its variables.
struct Entry {
  std::string path;
  std::string name;
  std::vector<Variable> vars;
  /// The layer to tell once `vars` were loaded (Layer::variables_loaded); null when saving.
  Layer* loaded_layer = nullptr;
};

// The walk of saving_lib._save_state (the same as save_weights.cpp and weights.cpp): own
// variables, then the children in _walk_saveable's order (saveable_walk.h); an object already
// visited is skipped. `loading` picks the variables a load assigns rather than those a save
// writes (they differ for LoRA layers).
void collect(const Layer& layer, const std::string& path, std::vector<Entry>& out,
             std::unordered_set<const Layer*>& visited, bool loading) {
  if (!visited.insert(&layer).second) return;
  // When loading, the model was passed in non-const (load_sharded_weights), so is every layer.
  out.push_back({detail::join_path(path, "vars"), layer.name(),
                 loading ? layer.variables_to_load() : layer.variables_to_save(),
                 loading ? const_cast<Layer*>(&layer) : nullptr});
  for (const auto& [child_path, child] : detail::saveable_children(layer))
    collect(*child, detail::join_path(path, child_path), out, visited, loading);
}

std::vector<Entry> entries_of(const Layer& model, bool with_optimizer, bool loading) {
  std::vector<Entry> entries;
  std::unordered_set<const Layer*> visited;
  collect(model, "", entries, visited, loading);
  auto* m = dynamic_cast<const Model*>(&model);
  if (with_optimizer && m && m->compiled() && m->optimizer()->built()) {
    entries.push_back({"optimizer/vars", m->optimizer()->name(), m->optimizer()->variables()});
    // A MultiOptimizer's sub-optimizers are written again under optimizer/optimizers/<class>.
    if (auto* multi = dynamic_cast<const optimizers::MultiOptimizer*>(m->optimizer().get()))
      for (const auto& [child, inner] : multi->saved_children())
        entries.push_back({"optimizer/" + child + "/vars", inner->name(), inner->variables()});
  }
  return entries;
}

// ---- writing -------------------------------------------------------------------------------

class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

void quiet_hdf5() {
  static std::once_flag once;
  std::call_once(once, [] { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); });
}

void string_attribute(hid_t object, const char* name, const std::string& value) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type.get(), H5T_VARIABLE);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle attr(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
              H5Aclose);
  const char* text = value.c_str();
  if (!attr.ok() || H5Awrite(attr.get(), type.get(), &text) < 0)
    throw IOError(std::string("save_weights: could not write the attribute ") + name +
                  detail::hdf5_cause() + ".");
}

// One shard being written: built in memory (libhdf5's core driver), then written atomically by
// finish(). A full disk then fails in write_file_atomically, never inside libhdf5, which
// cannot close a file whose flush failed and crashes closing it again at exit.
class ShardWriter {
 public:
  ShardWriter(fs::path target) : target_(std::move(target)) {
    Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    check<IOError>(fapl.ok() && H5Pset_fapl_core(fapl.get(), size_t{1} << 20, false) >= 0,
                   "save_weights: cannot set up an in-memory HDF5 file for the shard ",
                   target_.string(), ".");
    // A name of its own: libhdf5 takes two open core files of one name for the same file.
    static std::atomic<uint64_t> counter{0};
    const std::string name = "keras-shard-in-memory-" + std::to_string(++counter) + ".h5";
    file_ = H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get());
    check<IOError>(file_ >= 0, "save_weights: cannot create the shard ", target_.string(),
                   detail::hdf5_cause(), ".");
  }
  ~ShardWriter() {
    if (file_ >= 0) H5Fclose(file_);
  }
  ShardWriter(const ShardWriter&) = delete;
  ShardWriter& operator=(const ShardWriter&) = delete;

  std::string filename() const { return target_.filename().string(); }

  void write(const std::string& group_path, const std::string& name, size_t index,
             const Variable& var) {
    Handle group(open_group(group_path, name), H5Gclose);
    const Tensor& value = var.value();
    DType dtype = value.dtype();
    bool owned = false;
    hid_t type = detail::h5py_file_type(dtype, owned);
    Handle owned_type(owned ? type : -1, H5Tclose);
    std::vector<hsize_t> dims;
    for (int64_t d : value.shape()) dims.push_back(static_cast<hsize_t>(d));
    Handle space(dims.empty()
                     ? H5Screate(H5S_SCALAR)
                     : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
                 H5Sclose);
    std::string key = std::to_string(index);
    Handle dataset(H5Dcreate2(group.get(), key.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT,
                              H5P_DEFAULT),
                   H5Dclose);
    check<IOError>(dataset.ok(), "save_weights: could not create dataset '", group_path, "/", key,
                   "' in ", target_.string(), detail::hdf5_cause(), ".");
    std::vector<uint8_t> bytes(static_cast<size_t>(value.size()) * itemsize(dtype));
    if (!bytes.empty()) {
      value.copy_to_host(bytes.data(), dtype);
      check<IOError>(
          H5Dwrite(dataset.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()) >= 0,
          "save_weights: could not write dataset '", group_path, "/", key, "' in ",
          target_.string(), detail::hdf5_cause(), ".");
    }
    if (dtype == DType::BFloat16) string_attribute(dataset.get(), "dtype", "bfloat16");
  }

  // Writes the shard's bytes into place (temporary file, fsync, rename); an IOError names the
  // shard and the cause, and the previous file stays.
  void finish() {
    const bool flushed = H5Fflush(file_, H5F_SCOPE_GLOBAL) >= 0;
    const ssize_t size = flushed ? H5Fget_file_image(file_, nullptr, 0) : -1;
    std::vector<uint8_t> bytes(size > 0 ? static_cast<size_t>(size) : 0);
    const bool read = size >= 0 && H5Fget_file_image(file_, bytes.data(), bytes.size()) == size;
    const bool closed = H5Fclose(file_) >= 0;
    file_ = -1;
    check<IOError>(read && closed, "save_weights: could not build the shard ", target_.string(),
                   detail::hdf5_cause(), ".");
    write_file_atomically(target_.string(), bytes);
  }

 private:
  // Creates the groups of `path` that are missing; the last one gets the "name" attribute.
  hid_t open_group(const std::string& path, const std::string& name) {
    hid_t current = H5Gopen2(file_, "/", H5P_DEFAULT);
    size_t start = 0;
    bool created = false;
    while (start <= path.size()) {
      size_t slash = path.find('/', start);
      std::string part =
          path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
      if (!part.empty()) {
        bool exists = H5Lexists(current, part.c_str(), H5P_DEFAULT) > 0;
        hid_t next = exists
                         ? H5Gopen2(current, part.c_str(), H5P_DEFAULT)
                         : H5Gcreate2(current, part.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        created = !exists;
        std::string cause = next < 0 ? detail::hdf5_cause() : "";  // before H5Gclose
        H5Gclose(current);
        check<IOError>(next >= 0, "save_weights: could not create group '", path, "' in ",
                       target_.string(), cause, ".");
        current = next;
      }
      if (slash == std::string::npos) break;
      start = slash + 1;
    }
    if (created) string_attribute(current, "name", name);
    return current;
  }

  fs::path target_;
  hid_t file_ = -1;
};

std::string shard_name(const std::string& base, int index) {
  char digits[16];
  std::snprintf(digits, sizeof digits, "%05d", index);
  return base + "_" + digits + ".weights.h5";
}

void write_text_atomically(const fs::path& target, const std::string& text) {
  write_file_atomically(target.string(), std::vector<uint8_t>(text.begin(), text.end()));
}

// ---- reading -------------------------------------------------------------------------------

class ShardSet {
 public:
  ShardSet(fs::path index, const Config& weight_map) : index_(std::move(index)) {
    for (const auto& [key, value] : weight_map.items()) {
      std::vector<std::string> names;
      if (value.is_string()) {
        names.push_back(value.get<std::string>());
      } else if (value.is_array() && !value.empty()) {
        for (const Config& item : value) {
          check<IOError>(item.is_string(), index_.string(), ": weight_map entry '", key, "' lists ",
                         item.dump(), ", which is not a shard file name.");
          names.push_back(item.get<std::string>());
        }
      } else {
        throw IOError(index_.string() + ": weight_map entry '" + key + "' is " + value.dump() +
                      "; expected a shard file name or a list of them.");
      }
      for (const std::string& name : names) check_name(key, name);
      map_[key] = names;
    }
  }

  bool has(const std::string& key) const { return map_.count(key) > 0; }

  // The shards listed for "/<group>", opened.
  std::vector<const H5File*> shards(const std::string& key) { return open(map_.at(key), key); }

  // Every shard the index names (Keras 3.10 records only the first shard of a group that is
  // split across shards; its other datasets are found in the rest).
  std::vector<const H5File*> all_shards() {
    std::vector<std::string> names;
    for (const auto& [key, list] : map_)
      for (const std::string& name : list)
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    return open(names, "any group");
  }

 private:
  std::vector<const H5File*> open(const std::vector<std::string>& names, const std::string& key) {
    std::vector<const H5File*> out;
    for (const std::string& name : names) {
      auto it = open_.find(name);
      if (it == open_.end()) {
        fs::path file = index_.parent_path() / name;
        std::error_code ec;
        check<IOError>(fs::is_regular_file(file, ec), index_.string(), ": the shard '", name,
                       "' (for '", key, "') does not exist in ", index_.parent_path().string(),
                       ".");
        it = open_.emplace(name, H5File::open(file.string())).first;
      }
      out.push_back(&it->second);
    }
    return out;
  }

  void check_name(const std::string& key, const std::string& name) const {
    bool plain = !name.empty() && name != "." && name != ".." &&
                 name.find('/') == std::string::npos && name.find('\\') == std::string::npos &&
                 name.find('\0') == std::string::npos;
    check<IOError>(plain, index_.string(), ": weight_map entry '", key, "' names the shard '", name,
                   "', which is not a plain file name in the index's folder (a path in "
                   "a shard name could read files outside it).");
  }

  fs::path index_;
  std::map<std::string, std::vector<std::string>> map_;
  std::map<std::string, H5File> open_;
};

// _load_state for one "vars" group across its shards: the datasets "0", "1", ... may be in
// any of them.
void load_entry(const Entry& entry, ShardSet& shards, const std::string& index,
                const std::string& owner, const LoadWeightsOptions& options) {
  std::string key = "/" + entry.path;
  std::vector<const H5File*> files;
  if (shards.has(key)) files = shards.shards(key);
  auto count = [&] {
    size_t n = 0;
    for (const H5File* file : files)
      if (file->is_group(entry.path)) n += file->children(entry.path).size();
    return n;
  };
  size_t saved = count();
  if (saved < entry.vars.size() && !files.empty()) {
    files = shards.all_shards();
    saved = count();
  }
  if (saved != entry.vars.size()) {
    if (options.skip_mismatch || entry.vars.empty()) return;
    throw ValueError(owner + " expects " + std::to_string(entry.vars.size()) + " variables, but " +
                     index + " holds " + std::to_string(saved) + " at '" + key + "'.");
  }
  std::vector<Tensor> values;
  for (size_t i = 0; i < entry.vars.size(); ++i) {
    std::string dataset = entry.path + "/" + std::to_string(i);
    const H5File* holder = nullptr;
    for (const H5File* file : files)
      if (file->exists(dataset)) holder = file;
    check<IOError>(holder != nullptr, index, ": no shard listed for '", key, "' holds '", dataset,
                   "'.");
    Tensor value = holder->read(dataset);
    if (value.shape() != entry.vars[i].shape()) {
      if (options.skip_mismatch) return;
      throw ValueError(owner + ": variable '" + entry.vars[i].path() + "' has shape " +
                       entry.vars[i].shape().to_string() + " but " + holder->source() + " holds " +
                       value.shape().to_string() + " at '" + dataset + "'.");
    }
    values.push_back(value);
  }
  std::vector<Variable> vars = entry.vars;
  for (size_t i = 0; i < vars.size(); ++i) vars[i].assign(values[i]);
  if (entry.loaded_layer) entry.loaded_layer->variables_loaded();
}

}  // namespace

bool is_json_index(const std::vector<uint8_t>& bytes) {
  for (uint8_t b : bytes) {
    if (b == ' ' || b == '\t' || b == '\n' || b == '\r') continue;
    return b == '{';
  }
  return false;
}

void save_weights(const Layer& model, const std::string& path,
                  const ShardedWeightsOptions& options) {
  std::string index = path;
  if (ends_with(index, ".weights.h5")) index = index.substr(0, index.size() - 3) + ".json";
  check(ends_with(index, ".weights.json"),
        "The filename must end in `.weights.json` when `max_shard_size` is specified. "
        "Received: filepath=",
        path);
  check(std::isfinite(options.max_shard_size) && options.max_shard_size > 0,
        "save_weights: max_shard_size must be a positive number of GB; received ",
        options.max_shard_size, ".");
  check(model.built(), "save_weights: model '", model.name(),
        "' is not built; call it on data or give it an Input first.");
  quiet_hdf5();
  const double max_bytes = options.max_shard_size * 1024.0 * 1024.0 * 1024.0;
  fs::path index_path(index);
  // Keras: base_name = Path(path).stem.replace(".weights", "").
  std::string base = index_path.stem().string();
  if (size_t at = base.find(".weights"); at != std::string::npos) base.erase(at, 8);

  OrderedJson config;
  config["metadata"]["total_size"] = 0;
  config["weight_map"] = OrderedJson::object();
  OrderedJson& weight_map = config["weight_map"];

  int shard_index = 0;
  auto shard =
      std::make_unique<ShardWriter>(index_path.parent_path() / shard_name(base, shard_index++));
  double current = 0, total = 0;
  for (const Entry& entry : entries_of(model, options.optimizer, /*loading=*/false)) {
    for (size_t i = 0; i < entry.vars.size(); ++i) {
      const Variable& var = entry.vars[i];
      double size = static_cast<double>(var.value().size()) *
                    static_cast<double>(itemsize(var.value().dtype()));
      total += size;
      check(size <= max_bytes, "The size of ", entry.path, "/", i, " (variable '", var.path(),
            "') is ", size, " bytes, which exceeds the maximum shard size ", max_bytes,
            " bytes. Increase max_shard_size.");
      current += size;
      if (current > max_bytes) {
        shard->finish();
        shard = std::make_unique<ShardWriter>(index_path.parent_path() /
                                              shard_name(base, shard_index++));
        current = size;
      }
      shard->write(entry.path, entry.name, i, var);
      std::string key = "/" + entry.path;
      std::string file = shard->filename();
      if (!weight_map.contains(key)) {
        weight_map[key] = file;
      } else {
        OrderedJson& value = weight_map[key];
        if (!value.is_array()) value = OrderedJson::array({value});
        if (std::find(value.begin(), value.end(), file) == value.end()) value.push_back(file);
      }
    }
  }
  shard->finish();
  // A float, as Keras's sum of `count * bits / 8`.
  config["metadata"]["total_size"] = total;
  write_text_atomically(index_path, config.dump(4));
}

void load_sharded_weights(Layer& model, const std::string& path,
                          const LoadWeightsOptions& options) {
  check(model.built(), "load_weights: model '", model.name(),
        "' is not built; call it on data or give it an Input first.");
  std::ifstream in(path, std::ios::binary);
  check<IOError>(static_cast<bool>(in), "load_weights: cannot open ", path, ".");
  std::stringstream text;
  text << in.rdbuf();
  // The index is a flat two-level object: refuse deep nesting before building it.
  int depth = 0;
  auto limit_depth = [&depth](int d, nlohmann::json::parse_event_t event, nlohmann::json&) {
    if (event == nlohmann::json::parse_event_t::object_start ||
        event == nlohmann::json::parse_event_t::array_start)
      depth = std::max(depth, d + 1);
    if (depth > 16) throw IOError("nesting deeper than 16 levels");
    return true;
  };
  Config index;
  try {
    index = Config::parse(text.str(), limit_depth);
  } catch (const IOError& e) {
    throw IOError(path + " is not a sharded weights index: " + e.what() + ".");
  } catch (const nlohmann::json::exception& e) {
    throw IOError(path + " is not a sharded weights index (invalid JSON: " + e.what() + ").");
  }
  check<IOError>(
      index.is_object() && index.contains("weight_map") && index["weight_map"].is_object(), path,
      " is not a sharded weights index: expected an object with a "
      "\"weight_map\" object, as Keras's save_weights(max_shard_size=...) writes.");
  ShardSet shards(fs::path(path), index["weight_map"]);

  auto* m = dynamic_cast<Model*>(&model);
  for (const Entry& entry : entries_of(model, false, /*loading=*/true))
    load_entry(entry, shards, path, "Layer at '" + entry.path + "' ('" + entry.name + "')",
               options);
  if (options.optimizer && m && m->compiled() && shards.has("/optimizer/vars")) {
    const optimizers::OptimizerPtr& optimizer = m->optimizer();
    if (!optimizer->built()) optimizer->build(m->trainable_weights());
    load_entry({"optimizer/vars", optimizer->name(), optimizer->variables()}, shards, path,
               "Optimizer '" + optimizer->name() + "'", options);
  }
}

}  // namespace keras::saving
