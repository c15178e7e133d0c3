#pragma once
// The HDF5 types h5py gives NumPy arrays, which Keras's weight files hold: shared by the weight
// writers (save_weights.cpp, sharded_weights.cpp) and the reader (h5_file.cpp).

#include <hdf5.h>

#include <optional>
#include <string>

#include "keras/core/dtype.h"
#include "keras/core/errors.h"

namespace keras::saving::detail {

/// h5py's complex type: a compound of two floats named "r" and "i", little-endian in a file
/// (`in_file`) or native in memory. The caller closes it.
inline hid_t h5py_complex_type(DType dtype, bool in_file) {
  const bool wide = dtype == DType::Complex128;
  const size_t part = wide ? 8 : 4;
  const hid_t member = in_file ? (wide ? H5T_IEEE_F64LE : H5T_IEEE_F32LE)
                               : (wide ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT);
  hid_t type = H5Tcreate(H5T_COMPOUND, 2 * part);
  H5Tinsert(type, "r", 0, member);
  H5Tinsert(type, "i", part, member);
  return type;
}

/// Complex64 or complex128 when `type` is h5py's complex compound (two floats of one size
/// named "r" and "i", in that order); nullopt for any other type.
inline std::optional<DType> h5py_complex_dtype(hid_t type) {
  if (H5Tget_class(type) != H5T_COMPOUND || H5Tget_nmembers(type) != 2) return std::nullopt;
  size_t part = 0;
  for (unsigned i = 0; i < 2; ++i) {
    char* name = H5Tget_member_name(type, i);
    const std::string member = name ? name : "";
    H5free_memory(name);
    hid_t member_type = H5Tget_member_type(type, i);
    const bool is_float = H5Tget_class(member_type) == H5T_FLOAT;
    const size_t size = H5Tget_size(member_type);
    H5Tclose(member_type);
    if (member != (i == 0 ? "r" : "i") || !is_float || (size != 4 && size != 8) ||
        H5Tget_member_offset(type, i) != i * size || (i == 1 && size != part))
      return std::nullopt;
    part = size;
  }
  return part == 4 ? DType::Complex64 : DType::Complex128;
}

/// The HDF5 file type h5py gives a NumPy array of this dtype (the memory layout is the same on
/// little-endian hosts, so the bytes are written as they are); `owned` says whether the caller
/// must close it.
inline hid_t h5py_file_type(DType dtype, bool& owned) {
  owned = false;
  switch (dtype) {
    case DType::Float32:
      return H5T_IEEE_F32LE;
    case DType::Float64:
      return H5T_IEEE_F64LE;
    case DType::Int64:
      return H5T_STD_I64LE;
    case DType::Int32:
      return H5T_STD_I32LE;
    case DType::Int16:
      return H5T_STD_I16LE;
    case DType::Int8:
      return H5T_STD_I8LE;
    case DType::UInt8:
      return H5T_STD_U8LE;
    case DType::BFloat16:
      return H5T_STD_U16LE;  // bit patterns + attribute dtype="bfloat16"
    case DType::Float16: {
      // h5py's IEEE half: sign bit 15, exponent 10..14 (bias 15), mantissa 0..9.
      hid_t t = H5Tcopy(H5T_IEEE_F32LE);
      H5Tset_fields(t, 15, 10, 5, 0, 10);
      H5Tset_size(t, 2);
      H5Tset_ebias(t, 15);
      owned = true;
      return t;
    }
    case DType::Bool: {
      // h5py's bool: an int8 enum FALSE=0, TRUE=1.
      hid_t t = H5Tenum_create(H5T_NATIVE_INT8);
      int8_t f = 0, tr = 1;
      H5Tenum_insert(t, "FALSE", &f);
      H5Tenum_insert(t, "TRUE", &tr);
      owned = true;
      return t;
    }
    case DType::Complex64:
    case DType::Complex128:
      owned = true;
      return h5py_complex_type(dtype, /*in_file=*/true);
    default:
      throw ValueError(std::string("save_weights: cannot store a variable of dtype ") +
                       std::string(dtype_name(dtype)) + ".");
  }
}

}  // namespace keras::saving::detail
