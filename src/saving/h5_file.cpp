#include "keras/saving/h5_file.h"

#include <hdf5.h>

#include <atomic>
#include <cstring>
#include <mutex>

#include "keras/core/errors.h"
#include "saving/h5_types.h"

namespace keras::saving {
namespace {

// HDF5 prints its own error stack by default; keras-cpp reports errors itself.
void quiet_hdf5() {
  static std::once_flag once;
  std::call_once(once, [] { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); });
}

// Closes an HDF5 handle when it goes out of scope.
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

// Every allocation must be justified by the file. Keras refuses datasets that declare more
// than 4 GiB and more than 1000 times the bytes they store (keras/src/saving/saving_lib.py
// safe_get_h5_dataset); here the floor is 16 MiB, and a dataset may also not declare more than
// deflate could inflate the whole file to (about 1032 times its size), nor a shape whose
// element count overflows int64.
constexpr uint64_t kLargeBytes = uint64_t{16} << 20;
constexpr uint64_t kInflation = 1000;
constexpr uint64_t kFileInflation = 1032;
// Keras variables have a handful of axes; HDF5 itself allows 32.
constexpr int kMaxRank = 16;
// Paths deeper than this are refused (deep recursion through groups).
constexpr size_t kMaxPathDepth = 64;
// A group with more members than this is refused.
constexpr hsize_t kMaxChildren = 1000000;
// One string attribute (a legacy .h5 model_config is the largest real one) at most this long.
constexpr uint64_t kMaxAttributeBytes = uint64_t{64} << 20;

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::string part;
  for (char c : path) {
    if (c == '/') {
      if (!part.empty()) parts.push_back(part);
      part.clear();
    } else {
      part.push_back(c);
    }
  }
  if (!part.empty()) parts.push_back(part);
  return parts;
}

// The dtype of a dataset's values. Keras stores bfloat16 as uint16 bit patterns with the
// attribute dtype="bfloat16".
DType dtype_of(hid_t type, bool bfloat16_attr, const std::string& where) {
  H5T_class_t cls = H5Tget_class(type);
  size_t size = H5Tget_size(type);
  if (bfloat16_attr) {
    if (size == 2 && (cls == H5T_INTEGER || cls == H5T_FLOAT)) return DType::BFloat16;
    throw IOError("Dataset " + where + " is marked bfloat16 but does not hold 16-bit values.");
  }
  if (cls == H5T_FLOAT) {
    if (size == 2) return DType::Float16;
    if (size == 4) return DType::Float32;
    if (size == 8) return DType::Float64;
  } else if (cls == H5T_INTEGER) {
    bool is_signed = H5Tget_sign(type) == H5T_SGN_2;
    if (size == 1) return is_signed ? DType::Int8 : DType::UInt8;
    if (is_signed && size == 2) return DType::Int16;
    if (is_signed && size == 4) return DType::Int32;
    if (is_signed && size == 8) return DType::Int64;
  } else if (cls == H5T_ENUM && size == 1) {
    return DType::Bool;  // h5py stores numpy bools as an int8 enum
  } else if (auto complex_dtype = detail::h5py_complex_dtype(type)) {
    return *complex_dtype;  // h5py's compound of "r" and "i"
  }
  throw IOError("Dataset " + where + " has an HDF5 type keras-cpp cannot read (class " +
                std::to_string(static_cast<int>(cls)) + ", " + std::to_string(size) +
                " bytes).");
}

hid_t native_type(DType t) {
  switch (t) {
    case DType::Bool:
    case DType::Int8: return H5T_NATIVE_INT8;
    case DType::UInt8: return H5T_NATIVE_UINT8;
    case DType::Int16: return H5T_NATIVE_INT16;
    case DType::Int32: return H5T_NATIVE_INT32;
    case DType::Int64: return H5T_NATIVE_INT64;
    case DType::Float16:
    case DType::BFloat16: return H5T_NATIVE_UINT16;  // not used: 16-bit floats are read raw
    case DType::Float32: return H5T_NATIVE_FLOAT;
    case DType::Float64: return H5T_NATIVE_DOUBLE;
    case DType::Complex64:
    case DType::Complex128:
      // A compound type the caller creates and closes (memory_type below).
      throw ValueError(keras::detail::cat("HDF5: ", t, " has no native type."));
    case DType::String:
      // Keras keeps vocabularies in assets/, never in the weights file.
      throw ValueError("HDF5: keras-cpp reads no string datasets.");
  }
  return H5T_NATIVE_FLOAT;
}

// File-image callbacks that hand HDF5 the caller's buffer itself, never a copy, and never free
// it (the H5File owns it and outlives the open file). H5LTopen_file_image does the same but, in
// libhdf5 1.10, leaks its callback record on every open.
void* image_malloc(size_t, H5FD_file_image_op_t, void* udata) {
  return static_cast<std::vector<uint8_t>*>(udata)->data();
}
void* image_memcpy(void* dest, const void*, size_t, H5FD_file_image_op_t, void*) { return dest; }
void* image_realloc(void*, size_t, H5FD_file_image_op_t, void*) { return nullptr; }
herr_t image_free(void*, H5FD_file_image_op_t, void*) { return 0; }
void* udata_copy(void* udata) { return udata; }
herr_t udata_free(void*) { return 0; }

// Opens the HDF5 file held in `image` read-only with the core driver, without copying it.
hid_t open_image_in_place(std::vector<uint8_t>& image) {
  static std::atomic<uint64_t> counter{0};
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (!fapl.ok() || H5Pset_fapl_core(fapl.get(), 64 * 1024, /*backing_store=*/0) < 0) return -1;
  H5FD_file_image_callbacks_t callbacks = {image_malloc, image_memcpy, image_realloc,
                                           image_free,   udata_copy,   udata_free,
                                           &image};
  if (H5Pset_file_image_callbacks(fapl.get(), &callbacks) < 0 ||
      H5Pset_file_image(fapl.get(), image.data(), image.size()) < 0)
    return -1;
  // The core driver tells open files apart by name: every image gets its own.
  const std::string name = "keras_image_" + std::to_string(counter++);
  return H5Fopen(name.c_str(), H5F_ACC_RDONLY, fapl.get());
}

}  // namespace

struct H5File::Impl {
  hid_t file = -1;
  std::string source;
  std::vector<uint8_t> image;  // kept alive for file images opened without a copy
  uint64_t file_size = 0;      // bytes on disk or in the image, the measure of allocations
  ~Impl() {
    if (file >= 0) H5Fclose(file);
  }

  // Follows `path` one link at a time, refusing anything but hard links.
  bool walk(const std::string& path) const {
    std::string current;
    const std::vector<std::string> parts = split_path(path);
    if (parts.size() > kMaxPathDepth)
      throw IOError("Refusing " + source + ": the path '" + path.substr(0, 200) +
                    "...' is more than " + std::to_string(kMaxPathDepth) + " groups deep.");
    for (const std::string& part : parts) {
      if (part == "." || part == "..")
        throw IOError("Refusing " + source + ": the path '" + path + "' has a '" + part +
                      "' component.");
      current += "/" + part;
      if (H5Lexists(file, current.c_str(), H5P_DEFAULT) <= 0) return false;
      H5L_info_t info;  // the HDF5 1.10 API (Debian 12)
      if (H5Lget_info(file, current.c_str(), &info, H5P_DEFAULT) < 0) return false;
      if (info.type != H5L_TYPE_HARD)
        throw IOError("Refusing " + source + ": '" + current +
                      "' is a soft or external link, which Keras files never contain.");
    }
    return true;
  }

  std::string where(const std::string& path) const { return source + ":" + path; }

  // An attribute of `count` values of `size` bytes must fit in the file and under the limit.
  void check_attribute_bytes(uint64_t size, uint64_t count, const std::string& path,
                             const std::string& name) const {
    uint64_t total = 0;
    if (__builtin_mul_overflow(size, count, &total) || total > kMaxAttributeBytes ||
        total > file_size)
      throw IOError("Refusing " + where(path) + ": its attribute '" + name + "' declares " +
                    (total ? std::to_string(total) : std::string("too many")) +
                    " bytes, more than the file of " + std::to_string(file_size) +
                    " bytes or the limit of " + std::to_string(kMaxAttributeBytes) + " allows.");
  }
};

H5File::H5File(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
H5File::H5File(H5File&&) noexcept = default;
H5File& H5File::operator=(H5File&&) noexcept = default;
H5File::~H5File() = default;

H5File H5File::open(const std::string& path) {
  quiet_hdf5();
  auto impl = std::make_unique<Impl>();
  impl->source = path;
  if (H5Fis_hdf5(path.c_str()) <= 0)
    throw IOError("Cannot open " + path + " as an HDF5 file (missing, unreadable or not HDF5).");
  impl->file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (impl->file < 0) throw IOError("Cannot open " + path + " as an HDF5 file.");
  hsize_t size = 0;
  if (H5Fget_filesize(impl->file, &size) < 0)
    throw IOError("Cannot read the size of " + path + ".");
  impl->file_size = size;
  return H5File(std::move(impl));
}

H5File H5File::open_image(std::vector<uint8_t> bytes, const std::string& source) {
  quiet_hdf5();
  auto impl = std::make_unique<Impl>();
  impl->source = source;
  impl->image = std::move(bytes);
  if (!is_hdf5(impl->image)) throw IOError(source + " is not an HDF5 file.");
  impl->file = open_image_in_place(impl->image);
  if (impl->file < 0) throw IOError("Cannot read " + source + " as an HDF5 file (corrupt?).");
  impl->file_size = impl->image.size();
  return H5File(std::move(impl));
}

const std::string& H5File::source() const { return impl_->source; }

bool H5File::exists(const std::string& path) const { return impl_->walk(path); }

bool H5File::is_group(const std::string& path) const {
  if (!exists(path)) return false;
  H5O_info_t info;
  if (H5Oget_info_by_name2(impl_->file, path.empty() ? "/" : path.c_str(), &info, H5O_INFO_BASIC,
                           H5P_DEFAULT) < 0)
    return false;
  return info.type == H5O_TYPE_GROUP;
}

std::vector<std::string> H5File::children(const std::string& path) const {
  std::vector<std::string> names;
  if (!path.empty() && !is_group(path)) return names;
  Handle group(H5Gopen2(impl_->file, path.empty() ? "/" : path.c_str(), H5P_DEFAULT), H5Gclose);
  if (!group.ok()) return names;
  H5G_info_t info;
  if (H5Gget_info(group.get(), &info) < 0) return names;
  if (info.nlinks > kMaxChildren)
    throw IOError("Refusing " + impl_->where(path) + ": the group declares " +
                  std::to_string(info.nlinks) + " members, more than the limit of " +
                  std::to_string(kMaxChildren) + ".");
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    ssize_t n = H5Lget_name_by_idx(group.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0,
                                   H5P_DEFAULT);
    if (n < 0) continue;
    if (static_cast<uint64_t>(n) > impl_->file_size)
      throw IOError("Refusing " + impl_->where(path) + ": a member name is longer than the file.");
    std::string name(static_cast<size_t>(n), '\0');
    H5Lget_name_by_idx(group.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(),
                       static_cast<size_t>(n) + 1, H5P_DEFAULT);
    names.push_back(name);
  }
  return names;
}

Tensor H5File::read(const std::string& path) const {
  const std::string where = impl_->where(path);
  check<IOError>(exists(path), "No dataset ", where, ".");
  Handle dataset(H5Dopen2(impl_->file, path.c_str(), H5P_DEFAULT), H5Dclose);
  check<IOError>(dataset.ok(), where, " is not a dataset.");
  {
    Handle plist(H5Dget_create_plist(dataset.get()), H5Pclose);
    check<IOError>(H5Pget_layout(plist.get()) != H5D_VIRTUAL, "Refusing ", where,
                   ": virtual datasets read other files.");
    check<IOError>(H5Pget_external_count(plist.get()) == 0, "Refusing ", where,
                   ": external datasets read other files.");
  }
  Handle space(H5Dget_space(dataset.get()), H5Sclose);
  check<IOError>(space.ok(), "Cannot read the shape of dataset ", where, ".");
  H5S_class_t space_class = H5Sget_simple_extent_type(space.get());
  check<IOError>(space_class == H5S_SCALAR || space_class == H5S_SIMPLE, "Dataset ", where,
                 " has no data (a null dataspace).");
  int rank = H5Sget_simple_extent_ndims(space.get());
  check<IOError>(rank >= 0, "Dataset ", where, " has an invalid rank.");
  check<IOError>(rank <= kMaxRank, "Refusing ", where, ": its rank ", rank,
                 " is more than the limit of ", kMaxRank, ".");
  std::vector<hsize_t> dims(static_cast<size_t>(rank));
  check<IOError>(H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr) == rank,
                 "Cannot read the shape of dataset ", where, ".");
  Handle type(H5Dget_type(dataset.get()), H5Tclose);
  check<IOError>(type.ok(), "Cannot read the type of dataset ", where, ".");
  DType dtype = dtype_of(type.get(), string_attribute(path, "dtype") == "bfloat16", where);
  Shape shape;
  int64_t count = 1;
  for (hsize_t d : dims) {
    check<IOError>(d <= static_cast<hsize_t>(INT64_MAX) &&
                       !__builtin_mul_overflow(count, static_cast<int64_t>(d), &count),
                   "Refusing ", where, ": its shape's element count overflows int64.");
    shape.push_back(static_cast<int64_t>(d));
  }
  uint64_t declared = 0;
  check<IOError>(!__builtin_mul_overflow(static_cast<uint64_t>(count),
                                         static_cast<uint64_t>(itemsize(dtype)), &declared) &&
                     declared <= static_cast<uint64_t>(INT64_MAX),
                 "Refusing ", where, ": its size in bytes overflows int64.");
  const uint64_t stored = H5Dget_storage_size(dataset.get());
  if (declared > kLargeBytes && declared > kInflation * std::max<uint64_t>(stored, 1))
    throw IOError("Refusing " + where + ": it declares " + std::to_string(declared) +
                  " bytes but stores " + std::to_string(stored) + ".");
  if (declared > kLargeBytes && declared / kFileInflation > impl_->file_size)
    throw IOError("Refusing " + where + ": it declares " + std::to_string(declared) +
                  " bytes, more than a file of " + std::to_string(impl_->file_size) +
                  " bytes can hold.");
  std::vector<uint8_t> buffer(static_cast<size_t>(declared));
  // 16-bit floats come in as their bit patterns (HDF5 has no native half type to convert to);
  // complex numbers as h5py's compound in native byte order.
  const bool raw = dtype == DType::Float16 || dtype == DType::BFloat16;
  Handle memory_type(raw                 ? H5Tcopy(type.get())  // the file type: no conversion
                     : is_complex(dtype) ? detail::h5py_complex_type(dtype, /*in_file=*/false)
                                         : -1,
                     H5Tclose);
  if (count > 0 && H5Dread(dataset.get(), memory_type.ok() ? memory_type.get() : native_type(dtype),
                           H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()) < 0)
    throw IOError("Reading dataset " + where + " failed (corrupt file?).");
  return Tensor::from_host(buffer.data(), dtype, shape, static_cast<size_t>(count));
}

std::optional<std::string> H5File::string_attribute(const std::string& path,
                                                    const std::string& name) const {
  const char* object = path.empty() ? "/" : path.c_str();
  if (!path.empty() && !exists(path)) return std::nullopt;
  const htri_t has = H5Aexists_by_name(impl_->file, object, name.c_str(), H5P_DEFAULT);
  if (has < 0)
    throw IOError("Cannot read the attribute '" + name + "' of " + impl_->where(path) +
                  " (corrupt file?).");
  if (has == 0) return std::nullopt;
  Handle attr(H5Aopen_by_name(impl_->file, object, name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
              H5Aclose);
  if (!attr.ok())
    throw IOError("Cannot read the attribute '" + name + "' of " + impl_->where(path) +
                  " (corrupt file?).");
  Handle type(H5Aget_type(attr.get()), H5Tclose);
  if (!type.ok())
    throw IOError("Cannot read the type of the attribute '" + name + "' of " +
                  impl_->where(path) + " (corrupt file?).");
  if (H5Tget_class(type.get()) != H5T_STRING) return std::nullopt;
  Handle space(H5Aget_space(attr.get()), H5Sclose);
  if (H5Sget_simple_extent_npoints(space.get()) != 1) return std::nullopt;
  if (H5Tis_variable_str(type.get()) > 0) {
    Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(mem.get(), H5T_VARIABLE);
    H5Tset_cset(mem.get(), H5Tget_cset(type.get()));
    char* value = nullptr;
    if (H5Aread(attr.get(), mem.get(), &value) < 0 || !value) return std::nullopt;
    const size_t length = strnlen(value, kMaxAttributeBytes + 1);
    std::string out(value, length);
    H5free_memory(value);
    impl_->check_attribute_bytes(length, 1, path, name);
    return out;
  }
  size_t size = H5Tget_size(type.get());
  impl_->check_attribute_bytes(size, 1, path, name);
  std::string out(size, '\0');
  if (size == 0 || H5Aread(attr.get(), type.get(), out.data()) < 0) return std::nullopt;
  out.resize(std::strlen(out.c_str()));
  return out;
}

std::vector<std::string> H5File::string_list_attribute(const std::string& path,
                                                       const std::string& name) const {
  const char* object = path.empty() ? "/" : path.c_str();
  auto read_one = [&](const std::string& attr_name, std::vector<std::string>& out) {
    const htri_t has = H5Aexists_by_name(impl_->file, object, attr_name.c_str(), H5P_DEFAULT);
    if (has < 0)
      throw IOError("Cannot read the attribute '" + attr_name + "' of " + impl_->where(path) +
                    " (corrupt file?).");
    if (has == 0) return false;
    Handle attr(H5Aopen_by_name(impl_->file, object, attr_name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
                H5Aclose);
    if (!attr.ok())
      throw IOError("Cannot open attribute " + attr_name + " of " + impl_->where(path) + ".");
    Handle type(H5Aget_type(attr.get()), H5Tclose);
    Handle space(H5Aget_space(attr.get()), H5Sclose);
    if (!type.ok() || !space.ok())
      throw IOError("Cannot read attribute " + attr_name + " of " + impl_->where(path) + ".");
    hssize_t n = H5Sget_simple_extent_npoints(space.get());
    if (n < 0)
      throw IOError("Cannot read attribute " + attr_name + " of " + impl_->where(path) + ".");
    if (H5Tget_class(type.get()) != H5T_STRING) return n == 0;  // an empty float64 list
    if (H5Tis_variable_str(type.get()) > 0) {
      // Each variable-length string takes at least 16 bytes of the file.
      impl_->check_attribute_bytes(static_cast<uint64_t>(n), 16, path, attr_name);
      Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
      H5Tset_size(mem.get(), H5T_VARIABLE);
      std::vector<char*> values(static_cast<size_t>(n), nullptr);
      if (n > 0 && H5Aread(attr.get(), mem.get(), values.data()) < 0)
        throw IOError("Reading attribute " + attr_name + " of " + impl_->where(path) + " failed.");
      uint64_t total = 0;
      for (char* v : values) {
        std::string s = v ? std::string(v, strnlen(v, kMaxAttributeBytes + 1)) : std::string();
        if (v) H5free_memory(v);
        total += s.size();
        out.push_back(std::move(s));
      }
      impl_->check_attribute_bytes(total, 1, path, attr_name);
    } else {
      size_t size = H5Tget_size(type.get());
      impl_->check_attribute_bytes(size, static_cast<uint64_t>(n), path, attr_name);
      std::vector<char> buffer(size * static_cast<size_t>(n) + 1, '\0');
      if (n > 0 && H5Aread(attr.get(), type.get(), buffer.data()) < 0)
        throw IOError("Reading attribute " + attr_name + " of " + impl_->where(path) + " failed.");
      for (hssize_t i = 0; i < n; ++i) {
        std::string s(buffer.data() + static_cast<size_t>(i) * size, size);
        s.resize(std::strlen(s.c_str()));
        out.push_back(s);
      }
    }
    return true;
  };
  std::vector<std::string> out;
  if (read_one(name, out)) return out;
  for (int chunk = 0; read_one(name + std::to_string(chunk), out); ++chunk) {
  }
  return out;
}

bool is_hdf5(const std::vector<uint8_t>& bytes) {
  static const uint8_t signature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  return bytes.size() >= 8 && std::memcmp(bytes.data(), signature, 8) == 0;
}

}  // namespace keras::saving
