#pragma once
// Reading HDF5 files the way Keras writes them (h5py defaults): groups, datasets of numbers,
// string attributes. Files come from disk or from memory (the model.weights.h5 member of a
// .keras archive). Files from strangers are checked as Keras checks them: soft and external
// links, external and virtual datasets, and datasets that claim far more data than they store
// are refused.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::saving {

/// An open HDF5 file, read-only.
class H5File {
 public:
  /// Opens `path`; IOError naming it when it is missing or not HDF5.
  static H5File open(const std::string& path);
  /// Opens an HDF5 file held in memory (the bytes are copied); `source` names it in errors.
  static H5File open_image(std::vector<uint8_t> bytes, const std::string& source);

  /// Takes over another handle's open file.
  H5File(H5File&&) noexcept;
  /// Closes this file and takes over another handle's.
  H5File& operator=(H5File&&) noexcept;
  ~H5File();

  /// True when `path` ("layers/dense/vars") names a group or dataset (plain hard links only).
  bool exists(const std::string& path) const;
  /// True when `path` is a group.
  bool is_group(const std::string& path) const;
  /// The names of the members of group `path`, in HDF5's order (alphabetical).
  std::vector<std::string> children(const std::string& path) const;
  /// Dataset `path` as a tensor on the current backend. A dataset with the attribute
  /// dtype="bfloat16" (Keras's way of storing bfloat16) comes back as bfloat16.
  Tensor read(const std::string& path) const;
  /// The string attribute `name` of the object at `path`, if it has one.
  std::optional<std::string> string_attribute(const std::string& path,
                                              const std::string& name) const;
  /// An attribute holding a list of strings (legacy .h5 files' layer_names and weight_names),
  /// including the chunked form (name0, name1, ...) Keras uses for long lists.
  std::vector<std::string> string_list_attribute(const std::string& path,
                                                 const std::string& name) const;
  /// The name of this file in error messages.
  const std::string& source() const;

 private:
  struct Impl;
  explicit H5File(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// True when `bytes` start with the HDF5 signature (`\x89HDF\r\n\x1a\n`).
bool is_hdf5(const std::vector<uint8_t>& bytes);

}  // namespace keras::saving

#pragma GCC visibility pop
