// saving::save_weights: Keras 3's .weights.h5 writer (saving_lib._save_state with H5IOStore),
// with libhdf5 and h5py's defaults (contiguous little-endian datasets, scalar variable-length
// UTF-8 "name" attributes), built in memory and written through write_file_atomically
// (temporary file, fsync, rename).

#include "keras/saving/save_weights.h"

#include "keras/saving/layer_assets.h"

#include <hdf5.h>

#include <atomic>
#include <map>
#include <mutex>
#include <unordered_set>

#include "keras/core/errors.h"
#include "keras/models/model.h"
#include "keras/optimizers/multi_optimizer.h"
#include "keras/saving/atomic_file.h"
#include "keras/saving/weights.h"
#include "saving/h5_cause.h"
#include "saving/h5_types.h"
#include "saving/saveable_walk.h"
#include "saving/weights_writer.h"

namespace keras::saving {
namespace {

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

class WeightsWriter {
 public:
  WeightsWriter(hid_t file, std::string source) : file_(file), source_(std::move(source)) {}

  // Call right after the failing HDF5 call, while its error stack still says why.
  void fail(const std::string& what) const {
    throw IOError("save_weights: could not " + what + " in " + source_ + detail::hdf5_cause() +
                  ".");
  }

  // Creates every missing group of `path` and returns the last one (open).
  hid_t make_groups(const std::string& path) {
    hid_t current = H5Gopen2(file_, "/", H5P_DEFAULT);
    std::string sofar;
    size_t start = 0;
    while (start <= path.size()) {
      size_t slash = path.find('/', start);
      std::string part = path.substr(start, slash == std::string::npos ? std::string::npos
                                                                      : slash - start);
      if (!part.empty()) {
        sofar = detail::join_path(sofar, part);
        hid_t next = H5Lexists(current, part.c_str(), H5P_DEFAULT) > 0
                         ? H5Gopen2(current, part.c_str(), H5P_DEFAULT)
                         : H5Gcreate2(current, part.c_str(), H5P_DEFAULT, H5P_DEFAULT,
                                      H5P_DEFAULT);
        if (next < 0) {
          std::string cause = detail::hdf5_cause();  // before H5Gclose clears the stack
          H5Gclose(current);
          throw IOError("save_weights: could not create group '" + sofar + "' in " + source_ +
                        cause + ".");
        }
        H5Gclose(current);
        current = next;
      }
      if (slash == std::string::npos) break;
      start = slash + 1;
    }
    return current;
  }

  static void string_attribute(hid_t object, const char* name, const std::string& value) {
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

  // "<path>/vars" with the attribute name, and the datasets "0", "1", ...
  // `keys` name the datasets (a layer's NamedVariables); empty: "0", "1", ...
  void write_vars(const std::string& path, const std::string& name,
                  const std::vector<Variable>& vars, const std::vector<std::string>& keys = {}) {
    std::string group_path = detail::join_path(path, "vars");
    Handle group(make_groups(group_path), H5Gclose);
    string_attribute(group.get(), "name", name);
    for (size_t i = 0; i < vars.size(); ++i)
      write_dataset(group.get(), group_path, i < keys.size() ? keys[i] : std::to_string(i),
                    vars[i]);
  }

  void write_dataset(hid_t group, const std::string& group_path, const std::string& key,
                     const Variable& var) {
    const Tensor& value = var.value();
    DType dtype = value.dtype();
    bool owned = false;
    hid_t type = detail::h5py_file_type(dtype, owned);
    Handle owned_type(owned ? type : -1, H5Tclose);
    std::vector<hsize_t> dims;
    for (int64_t d : value.shape()) dims.push_back(static_cast<hsize_t>(d));
    Handle space(dims.empty() ? H5Screate(H5S_SCALAR)
                              : H5Screate_simple(static_cast<int>(dims.size()), dims.data(),
                                                 nullptr),
                 H5Sclose);
    Handle dataset(H5Dcreate2(group, key.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT,
                              H5P_DEFAULT),
                   H5Dclose);
    if (!dataset.ok()) fail("create dataset '" + detail::join_path(group_path, key) + "'");
    std::vector<uint8_t> bytes(static_cast<size_t>(value.size()) * itemsize(dtype));
    if (!bytes.empty()) {
      value.copy_to_host(bytes.data(), dtype);
      if (H5Dwrite(dataset.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()) < 0)
        fail("write dataset '" + detail::join_path(group_path, key) + "'");
    }
    if (dtype == DType::BFloat16) string_attribute(dataset.get(), "dtype", "bfloat16");
  }

  // _save_state: own variables, then the children in _walk_saveable's order
  // (saveable_walk.h); an object already written is skipped.
  void save(const Layer& layer, const std::string& path) {
    if (!visited_.insert(&layer).second) return;
    const auto* named = dynamic_cast<const NamedVariables*>(&layer);
    write_vars(path, layer.name(), layer.variables_to_save(),
               named ? named->variable_keys() : std::vector<std::string>{});
    for (const auto& [child_path, child] : detail::saveable_children(layer))
      save(*child, detail::join_path(path, child_path));
  }

 private:
  hid_t file_;
  std::string source_;
  std::unordered_set<const Layer*> visited_;
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void quiet_hdf5() {
  static std::once_flag once;
  std::call_once(once, [] { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); });
}

}  // namespace

namespace {

// Writes the weights into the open HDF5 file `file` and flushes it; `path` names it in errors.
void write_weights_into(const Layer& model, hid_t file, const std::string& path,
                        const SaveWeightsOptions& options) {
  WeightsWriter writer(file, path);
  for (const auto& [name, value] : options.root_attributes) {
    Handle root(H5Gopen2(file, "/", H5P_DEFAULT), H5Gclose);
    WeightsWriter::string_attribute(root.get(), name.c_str(), value);
  }
  writer.save(model, "");
  auto* m = dynamic_cast<const Model*>(&model);
  if (options.optimizer && m && m->compiled() && m->optimizer()->built()) {
    writer.write_vars("optimizer", m->optimizer()->name(), m->optimizer()->variables());
    // Keras's walk also reaches a MultiOptimizer's `optimizers` list: each sub-optimizer's
    // variables again, under optimizer/optimizers/<class in snake case>.
    if (auto* multi = dynamic_cast<const optimizers::MultiOptimizer*>(m->optimizer().get()))
      for (const auto& [child, inner] : multi->saved_children())
        writer.write_vars("optimizer/" + child, inner->name(), inner->variables());
  }
  if (H5Fflush(file, H5F_SCOPE_GLOBAL) < 0) writer.fail("flush the file");
}

// Closes `file`, reporting a failure: libhdf5 may still write (the superblock, the end of the
// file) while closing, and a disk that fills then must not pass for a complete file.
void close_checked(hid_t file, const std::string& what, const std::string& path) {
  if (H5Fclose(file) < 0)
    throw IOError("save_weights: could not finish " + what + " (for " + path + ")" +
                  detail::hdf5_cause() + ".");
}

}  // namespace

std::vector<uint8_t> weights_image(const Layer& model, const std::string& path,
                                   const SaveWeightsOptions& options) {
  quiet_hdf5();
  // The core driver keeps the whole file in memory (no backing store): nothing touches the
  // disk, so the caller alone writes the bytes and reports its own errors.
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (!fapl.ok() || H5Pset_fapl_core(fapl.get(), size_t{1} << 20, false) < 0)
    throw IOError("save_weights: cannot set up an in-memory HDF5 file for " + path + ".");
  // A name of its own: libhdf5 takes two open core files of one name for the same file.
  static std::atomic<uint64_t> counter{0};
  std::string name = "keras-weights-in-memory-" + std::to_string(++counter) + ".h5";
  hid_t id = H5Fcreate(name.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get());
  if (id < 0)
    throw IOError("save_weights: cannot create an in-memory HDF5 file for " + path +
                  detail::hdf5_cause() + ".");
  std::vector<uint8_t> bytes;
  try {
    write_weights_into(model, id, path, options);
    if (H5Fflush(id, H5F_SCOPE_GLOBAL) < 0)
      throw IOError("save_weights: cannot finish the weights of " + path + detail::hdf5_cause() + ".");
    ssize_t size = H5Fget_file_image(id, nullptr, 0);
    if (size < 0) throw IOError("save_weights: cannot read back the weights of " + path + ".");
    bytes.resize(static_cast<size_t>(size));
    if (H5Fget_file_image(id, bytes.data(), bytes.size()) != size)
      throw IOError("save_weights: cannot read back the weights of " + path + ".");
  } catch (...) {
    H5Fclose(id);
    throw;
  }
  close_checked(id, "the in-memory file", path);
  return bytes;
}

void save_weights(const Layer& model, const std::string& path, const SaveWeightsOptions& options) {
  check(ends_with(path, ".weights.h5"),
        "The filename must end in `.weights.h5`. Received: filepath=", path);
  check(model.built(), "save_weights: model '", model.name(),
        "' is not built; call it on data or give it an Input first.");
  // Built in memory, then written as bytes: a write that fails (a full disk) then fails in
  // write_file_atomically, never inside libhdf5, which cannot close a file whose flush failed
  // and crashes closing it again at exit.
  write_file_atomically(path, weights_image(model, path, options));
}

}  // namespace keras::saving

namespace keras {

void Model::save_weights(const std::string& path) const { saving::save_weights(*this, path); }

void Model::load_weights(const std::string& path, bool skip_mismatch) {
  saving::load_weights(*this, path, {.skip_mismatch = skip_mismatch, .optimizer = true});
}

}  // namespace keras
