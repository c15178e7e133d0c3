#include "serve/tensor_proto.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "keras/core/errors.h"

namespace keras::serving {
namespace {

using tensorflow::DataType;
using tensorflow::TensorProto;

static_assert(std::endian::native == std::endian::little,
              "tensor_content holds little-endian values, copied as they are");

bool is_integer(DataType t) {
  switch (t) {
    case tensorflow::DT_INT8:
    case tensorflow::DT_INT16:
    case tensorflow::DT_INT32:
    case tensorflow::DT_INT64:
    case tensorflow::DT_UINT8:
    case tensorflow::DT_UINT16:
    case tensorflow::DT_UINT32:
    case tensorflow::DT_UINT64:
      return true;
    default:
      return false;
  }
}

bool is_float(DataType t) {
  return t == tensorflow::DT_FLOAT || t == tensorflow::DT_DOUBLE || t == tensorflow::DT_HALF ||
         t == tensorflow::DT_BFLOAT16;
}

// Bytes per value in tensor_content.
size_t content_itemsize(DataType t) {
  switch (t) {
    case tensorflow::DT_INT8:
    case tensorflow::DT_UINT8:
    case tensorflow::DT_BOOL:
      return 1;
    case tensorflow::DT_INT16:
    case tensorflow::DT_UINT16:
    case tensorflow::DT_HALF:
    case tensorflow::DT_BFLOAT16:
      return 2;
    case tensorflow::DT_INT32:
    case tensorflow::DT_UINT32:
    case tensorflow::DT_FLOAT:
      return 4;
    default:
      return 8;
  }
}

float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  const uint32_t exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24
    const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return sign ? -magnitude : magnitude;
  }
  const uint32_t bits = exponent == 0x1f ? sign | 0x7f800000 | (mantissa << 13)
                                         : sign | ((exponent + 112) << 23) | (mantissa << 13);
  return std::bit_cast<float>(bits);
}

float bfloat16_to_float(uint16_t b) {
  return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

// The i-th value of tensor_content, of a numeric dtype, as T (double or int64_t).
template <typename T>
T content_value(const std::string& content, DataType t, size_t i) {
  auto read = [&](auto zero) {
    decltype(zero) v;
    std::memcpy(&v, content.data() + i * sizeof v, sizeof v);
    return v;
  };
  switch (t) {
    case tensorflow::DT_FLOAT:
      return static_cast<T>(read(float{}));
    case tensorflow::DT_DOUBLE:
      return static_cast<T>(read(double{}));
    case tensorflow::DT_HALF:
      return static_cast<T>(half_to_float(read(uint16_t{})));
    case tensorflow::DT_BFLOAT16:
      return static_cast<T>(bfloat16_to_float(read(uint16_t{})));
    case tensorflow::DT_INT8:
      return static_cast<T>(read(int8_t{}));
    case tensorflow::DT_UINT8:
      return static_cast<T>(read(uint8_t{}));
    case tensorflow::DT_INT16:
      return static_cast<T>(read(int16_t{}));
    case tensorflow::DT_UINT16:
      return static_cast<T>(read(uint16_t{}));
    case tensorflow::DT_INT32:
      return static_cast<T>(read(int32_t{}));
    case tensorflow::DT_UINT32:
      return static_cast<T>(read(uint32_t{}));
    case tensorflow::DT_INT64:
      return static_cast<T>(read(int64_t{}));
    default:
      return static_cast<T>(read(uint64_t{}));
  }
}

// The typed list of a numeric dtype: its length, and its i-th value as T.
template <typename T>
struct TypedList {
  const TensorProto& p;
  DataType t;
  int size() const {
    switch (t) {
      case tensorflow::DT_FLOAT:
        return p.float_val_size();
      case tensorflow::DT_DOUBLE:
        return p.double_val_size();
      case tensorflow::DT_HALF:
      case tensorflow::DT_BFLOAT16:
        return p.half_val_size();
      case tensorflow::DT_INT64:
        return p.int64_val_size();
      case tensorflow::DT_UINT32:
        return p.uint32_val_size();
      case tensorflow::DT_UINT64:
        return p.uint64_val_size();
      default:
        return p.int_val_size();
    }
  }
  T operator[](int i) const {
    switch (t) {
      case tensorflow::DT_FLOAT:
        return static_cast<T>(p.float_val(i));
      case tensorflow::DT_DOUBLE:
        return static_cast<T>(p.double_val(i));
      case tensorflow::DT_HALF:
        return static_cast<T>(half_to_float(static_cast<uint16_t>(p.half_val(i))));
      case tensorflow::DT_BFLOAT16:
        return static_cast<T>(bfloat16_to_float(static_cast<uint16_t>(p.half_val(i))));
      case tensorflow::DT_INT64:
        return static_cast<T>(p.int64_val(i));
      case tensorflow::DT_UINT32:
        return static_cast<T>(p.uint32_val(i));
      case tensorflow::DT_UINT64:
        return static_cast<T>(p.uint64_val(i));
      default:
        return static_cast<T>(p.int_val(i));
    }
  }
};

// A uint64 value past int64's range cannot be an integer input's (which keras-cpp holds as
// int64): checked before the conversion.
void check_uint64_range(const TensorProto& p, const std::string& input) {
  auto too_big = [](uint64_t v) { return v > uint64_t{std::numeric_limits<int64_t>::max()}; };
  bool bad = false;
  for (uint64_t v : p.uint64_val()) bad = bad || too_big(v);
  if (!p.tensor_content().empty())
    for (size_t i = 0; i < p.tensor_content().size() / 8; ++i)
      bad = bad || too_big(content_value<uint64_t>(p.tensor_content(), p.dtype(), i));
  if (bad)
    throw ValueError("input '" + input +
                     "': a DT_UINT64 value is above the largest int64, which integer inputs hold");
}

// TensorFlow's reading of a typed list as n values: the list, its last value repeated to fill
// the rest (zeros when it is empty); ValueError when it holds more than n.
template <typename T, typename At>
std::vector<T> filled(size_t given, At at, size_t n, const std::string& input,
                      const std::string& shape, const char* values) {
  if (given > n)
    throw ValueError("input '" + input + "' holds " + std::to_string(given) + " " + values +
                     "; its shape " + shape + " has " + std::to_string(n));
  std::vector<T> out(n);
  for (size_t i = 0; i < n && given > 0; ++i) out[i] = at(std::min(i, given - 1));
  return out;
}

// ValueError unless tensor_content holds n values of its dtype.
void check_content_size(const TensorProto& p, size_t n, const std::string& input,
                        const std::string& shape) {
  const size_t needed = n * content_itemsize(p.dtype());
  if (p.tensor_content().size() != needed)
    throw ValueError("input '" + input + "': tensor_content holds " +
                     std::to_string(p.tensor_content().size()) + " bytes; its shape " + shape +
                     " of " + data_type_name(p.dtype()) + " needs " + std::to_string(needed));
}

// n values of T from `p`, TensorFlow's way (see host_array_from_proto).
template <typename T>
std::vector<T> numeric_values(const TensorProto& p, size_t n, const std::string& input,
                              const std::string& shape) {
  if (p.tensor_content().empty()) {
    const TypedList<T> list{p, p.dtype()};
    return filled<T>(
        static_cast<size_t>(list.size()), [&](size_t i) { return list[static_cast<int>(i)]; }, n,
        input, shape, "values");
  }
  check_content_size(p, n, input, shape);
  std::vector<T> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = content_value<T>(p.tensor_content(), p.dtype(), i);
  return out;
}

}  // namespace

tensorflow::DataType wire_dtype(DType model_dtype) {
  if (model_dtype == DType::Int32) return tensorflow::DT_INT32;
  switch (storage_dtype(model_dtype)) {
    case DType::Float32:
      return tensorflow::DT_FLOAT;
    case DType::Float64:
      return tensorflow::DT_DOUBLE;
    case DType::Int64:
      return tensorflow::DT_INT64;
    case DType::Bool:
      return tensorflow::DT_BOOL;
    default:
      return tensorflow::DT_STRING;
  }
}

std::string data_type_name(tensorflow::DataType dtype) {
  return tensorflow::DataType_IsValid(dtype) ? tensorflow::DataType_Name(dtype)
                                             : "DataType " + std::to_string(dtype);
}

HostArray host_array_from_proto(const tensorflow::TensorProto& proto, const TensorSpec& spec,
                                size_t max_bytes) {
  const std::string& input = spec.name;
  // The shape: the input's rank, its dimensions but the batch, at least one row.
  if (proto.tensor_shape().unknown_rank())
    throw ValueError("input '" + input + "' has an unknown rank: give its shape, " +
                     spec.shape.to_string() + " with the batch size for -1");
  std::vector<int64_t> dims;
  for (const auto& d : proto.tensor_shape().dim()) dims.push_back(d.size());
  const Shape shape(dims);
  const std::string expected =
      "the input's shape is " + spec.shape.to_string() + " (-1: any number of rows, at least one)";
  if (shape.rank() != spec.shape.rank())
    throw ValueError("input '" + input + "' has shape " + shape.to_string() + "; " + expected);
  for (int i = 0; i < shape.rank(); ++i)
    if (shape[i] < (i == 0 ? 1 : 0) || (i > 0 && spec.shape[i] >= 0 && shape[i] != spec.shape[i]))
      throw ValueError("input '" + input + "' has shape " + shape.to_string() + "; " + expected);
  HostArray array;
  array.dtype = storage_dtype(spec.dtype);
  array.shape = shape;
  // The size, bounded before anything is allocated (a short typed list fills the shape).
  auto too_large = [&] {
    return ValueError("input '" + input + "' of shape " + shape.to_string() + " is larger than " +
                      std::to_string(max_bytes) + " bytes, the most one request may hold");
  };
  size_t n = 1;
  for (int64_t d : dims) {
    if (d != 0 && n > max_bytes / static_cast<size_t>(d)) throw too_large();
    n *= static_cast<size_t>(d);
  }
  if (n * itemsize(array.dtype) > max_bytes) throw too_large();
  const std::string shape_text = shape.to_string();
  const DataType given = proto.dtype();
  auto refuse = [&](const std::string& takes) {
    return ValueError("input '" + input + "' is " + data_type_name(given) + "; it takes " + takes);
  };
  switch (array.dtype) {
    case DType::String: {
      if (given != tensorflow::DT_STRING) throw refuse("DT_STRING");
      array.strings = filled<std::string>(
          static_cast<size_t>(proto.string_val_size()),
          [&](size_t i) { return proto.string_val(static_cast<int>(i)); }, n, input, shape_text,
          "strings");
      return array;
    }
    case DType::Bool: {
      if (given != tensorflow::DT_BOOL) throw refuse("DT_BOOL");
      if (proto.tensor_content().empty()) {
        array.data = filled<unsigned char>(
            static_cast<size_t>(proto.bool_val_size()),
            [&](size_t i) { return proto.bool_val(static_cast<int>(i)); }, n, input, shape_text,
            "values");
        return array;
      }
      check_content_size(proto, n, input, shape_text);
      array.data.resize(n);
      for (size_t i = 0; i < n; ++i) array.data[i] = proto.tensor_content()[i] != 0;
      return array;
    }
    case DType::Int64: {
      if (!is_integer(given)) throw refuse("an integer dtype (DT_INT32, DT_INT64, ...)");
      if (given == tensorflow::DT_UINT64) check_uint64_range(proto, input);
      std::vector<int64_t> v = numeric_values<int64_t>(proto, n, input, shape_text);
      array.data.resize(n * sizeof(int64_t));
      std::memcpy(array.data.data(), v.data(), array.data.size());
      return array;
    }
    default: {
      if (!is_integer(given) && !is_float(given))
        throw refuse("a numeric dtype (DT_FLOAT, DT_DOUBLE, DT_INT32, ...)");
      std::vector<double> v = numeric_values<double>(proto, n, input, shape_text);
      array.data.resize(n * itemsize(array.dtype));
      if (array.dtype == DType::Float64) {
        std::memcpy(array.data.data(), v.data(), array.data.size());
      } else {
        for (size_t i = 0; i < n; ++i) {
          const auto f = static_cast<float>(v[i]);
          std::memcpy(array.data.data() + i * sizeof f, &f, sizeof f);
        }
      }
      return array;
    }
  }
}

tensorflow::TensorProto proto_from_host_array(const HostArray& array, const TensorSpec& spec) {
  TensorProto proto;
  proto.set_dtype(wire_dtype(spec.dtype));
  for (int64_t d : array.shape) proto.mutable_tensor_shape()->add_dim()->set_size(d);
  if (array.dtype == DType::String) {
    for (const std::string& s : array.strings) proto.add_string_val(s);
  } else if (proto.dtype() == tensorflow::DT_INT32 && array.dtype == DType::Int64) {
    // Held as int64 (the model computed int32): back to int32 for the wire.
    std::string& content = *proto.mutable_tensor_content();
    content.resize(array.data.size() / 2);
    for (size_t i = 0; i < array.data.size() / sizeof(int64_t); ++i) {
      int64_t v;
      std::memcpy(&v, array.data.data() + i * sizeof v, sizeof v);
      const auto w = static_cast<int32_t>(v);
      std::memcpy(content.data() + i * sizeof w, &w, sizeof w);
    }
  } else {
    proto.set_tensor_content(array.data.data(), array.data.size());
  }
  return proto;
}

}  // namespace keras::serving
