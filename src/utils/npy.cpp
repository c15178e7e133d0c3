#include "keras/utils/npy.h"

#include "keras/utils/npy_strings.h"

#include <zip.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>

#include "keras/ops/ops.h"
#include "keras/saving/archive.h"
#include "keras/saving/atomic_file.h"
#include "saving/zip_writer.h"
#include "tensor/utf8.h"

namespace keras::utils {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
// The most dimensions a tensor may have: the cpu backend's loops walk at most 16 (as the HDF5
// reader, src/saving/h5_file.cpp, refuses more).
constexpr int kMaxRank = 16;
// Refuse archive members that claim to inflate absurdly (zip bombs), as Keras does.
constexpr uint64_t kBombBytes = uint64_t{4} << 30;
constexpr uint64_t kBombRatio = 100;

[[noreturn]] void bad(const std::string& source, const std::string& why) {
  throw IOError("Cannot read " + source + " as a .npy array: " + why);
}

// "descr" to (dtype, byte-swap needed).
DType parse_descr(const std::string& descr, bool& swap, const std::string& source) {
  swap = false;
  if (descr == "bfloat16") return DType::BFloat16;
  if (descr.size() < 3) bad(source, "unsupported dtype '" + descr + "'");
  char order = descr[0], kind = descr[1];
  int size = std::atoi(descr.c_str() + 2);
  if (order == '>' && size > 1) swap = true;
  if (order != '<' && order != '>' && order != '|' && order != '=')
    bad(source, "unsupported byte order in dtype '" + descr + "'");
  if (kind == 'b' && size == 1) return DType::Bool;
  if (kind == 'i' && size == 1) return DType::Int8;
  if (kind == 'i' && size == 2) return DType::Int16;
  if (kind == 'i' && size == 4) return DType::Int32;
  if (kind == 'i' && size == 8) return DType::Int64;
  if (kind == 'u' && size == 1) return DType::UInt8;
  if (kind == 'f' && size == 2) return DType::Float16;
  if (kind == 'f' && size == 4) return DType::Float32;
  if (kind == 'f' && size == 8) return DType::Float64;
  if (kind == 'c' && size == 8) return DType::Complex64;
  if (kind == 'c' && size == 16) return DType::Complex128;
  bad(source, "dtype '" + descr +
                  "' has no keras-cpp equivalent (supported: bool, int8/16/32/64, uint8, "
                  "float16/32/64, bfloat16, complex64/128)");
}

std::string descr_of(DType t) {
  switch (t) {
    case DType::Bool: return "|b1";
    case DType::Int8: return "|i1";
    case DType::Int16: return "<i2";
    case DType::Int32: return "<i4";
    case DType::Int64: return "<i8";
    case DType::UInt8: return "|u1";
    case DType::Float16: return "<f2";
    case DType::BFloat16: return "bfloat16";
    case DType::Float32: return "<f4";
    case DType::Float64: return "<f8";
    case DType::Complex64: return "<c8";
    case DType::Complex128: return "<c16";
    case DType::String: return "";  // fixed-width unicode: keras/utils/npy_strings.h
  }
  return "";
}

// The value text of `key` in the header's Python dict literal: a parenthesized tuple, a quoted
// string (without its quotes) or a bare word.
std::string dict_value(const std::string& header, const std::string& key,
                       const std::string& source) {
  std::string quoted = "'" + key + "'";
  size_t k = header.find(quoted);
  if (k == std::string::npos) bad(source, "the header has no '" + key + "'");
  size_t colon = header.find(':', k + quoted.size());
  if (colon == std::string::npos) bad(source, "malformed header: no ':' after '" + key + "'");
  size_t begin = header.find_first_not_of(' ', colon + 1);
  if (begin == std::string::npos) bad(source, "malformed header: '" + key + "' has no value");
  size_t end;
  if (header[begin] == '(') {
    end = header.find(')', begin);
    if (end == std::string::npos) bad(source, "malformed shape in header");
    return header.substr(begin, end - begin + 1);
  }
  if (header[begin] == '\'') {
    end = header.find('\'', begin + 1);
    if (end == std::string::npos) bad(source, "malformed header");
    return header.substr(begin + 1, end - begin - 1);
  }
  end = header.find_first_of(",}", begin);
  return header.substr(begin, end - begin);
}

// A tuple of dimensions, "(2, 3)", "(5,)" or "()".
Shape parse_shape(const std::string& text, const std::string& source) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')')
    bad(source, "the shape '" + text + "' is not a tuple such as (2, 3)");
  Shape shape;
  std::string inner = text.substr(1, text.size() - 2);
  std::stringstream ss(inner);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
    item.erase(std::remove(item.begin(), item.end(), 'L'), item.end());
    if (item.empty()) continue;
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(item.c_str(), &end, 10);
    // The whole item must be digits: strtoll stops at an embedded NUL, and an item without
    // digits converts to 0.
    if (end == item.c_str() || end != item.c_str() + item.size() || v < 0 || errno == ERANGE)
      bad(source, "malformed shape " + text);
    shape.push_back(v);
    if (shape.rank() > kMaxRank)
      bad(source, "the shape " + text + " has more than " + std::to_string(kMaxRank) +
                      " dimensions, the most a keras-cpp tensor has");
  }
  return shape;
}

// The bytes the array's data takes, checked against overflow: a hostile shape such as
// (2**62, 4) must not wrap to a small size that the file seems to hold. As NumPy ("array is too
// big"), the nonzero dimensions must fit even when another is 0: Shape::numel multiplies them
// in int64.
size_t data_bytes(const Shape& shape, size_t item, const std::string& source) {
  uint64_t bytes = item;
  bool empty = false;
  for (int64_t d : shape) {
    if (d == 0) {
      empty = true;
      continue;
    }
    if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(d), &bytes) ||
        bytes > static_cast<uint64_t>(INT64_MAX))
      bad(source, "the shape " + shape.to_string() + " holds more bytes than a 64-bit size");
  }
  return empty ? 0 : static_cast<size_t>(bytes);
}

// Up to `declared` bytes of an open archive member, read in doubling steps: the buffer grows with
// the data actually there, so a member that declares gigabytes and holds a few bytes costs a few
// bytes. Stops early at the member's end or at a read error.
std::vector<uint8_t> read_member(zip_file_t* f, zip_uint64_t declared) {
  constexpr zip_uint64_t kFirstStep = zip_uint64_t{1} << 16;
  std::vector<uint8_t> bytes;
  while (bytes.size() < declared) {
    const size_t before = bytes.size();
    // Doubling: at most twice the bytes that are there.
    bytes.resize(std::min<zip_uint64_t>(declared, std::max<zip_uint64_t>(kFirstStep, 2 * before)));
    zip_int64_t got = zip_fread(f, bytes.data() + before, bytes.size() - before);
    if (got <= 0) {
      bytes.resize(before);
      break;
    }
    bytes.resize(before + static_cast<size_t>(got));
  }
  return bytes;
}

std::vector<uint8_t> read_file(const std::string& path) {
  return saving::read_file_bytes(path);
}

// The parsed header of a .npy file and where its data starts.
struct NpyHeader {
  std::string descr;
  bool fortran = false;
  Shape shape;
  size_t data_start = 0;
};

NpyHeader read_header(std::span<const uint8_t> bytes, const std::string& source) {
  if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic, 6) != 0)
    bad(source, "it does not start with the NumPy magic string");
  int major = bytes[6];
  size_t header_len, header_start;
  if (major == 1) {
    header_len = bytes[8] | (bytes[9] << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) bad(source, "truncated header");
    header_len = bytes[8] | (bytes[9] << 8) | (bytes[10] << 16) | (static_cast<size_t>(bytes[11]) << 24);
    header_start = 12;
  } else {
    bad(source, "unsupported format version " + std::to_string(major));
  }
  if (header_start + header_len > bytes.size()) bad(source, "truncated header");
  std::string header(reinterpret_cast<const char*>(bytes.data() + header_start), header_len);
  NpyHeader h;
  h.descr = dict_value(header, "descr", source);
  h.fortran = dict_value(header, "fortran_order", source) == "True";
  h.shape = parse_shape(dict_value(header, "shape", source), source);
  h.data_start = header_start + header_len;
  return h;
}

// The 1.0 header for `descr` and `shape`, padded so the data starts at a multiple of 64 bytes.
std::vector<uint8_t> header_bytes(const std::string& descr, const Shape& shape) {
  std::string dims = "(";
  for (int d = 0; d < shape.rank(); ++d)
    dims += std::to_string(shape[d]) + (shape.rank() == 1 ? "," : (d + 1 < shape.rank() ? ", " : ""));
  dims += ")";
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + dims + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::vector<uint8_t> out(kMagic, kMagic + 6);
  out.push_back(1);
  out.push_back(0);
  out.push_back(static_cast<uint8_t>(header.size() & 0xff));
  out.push_back(static_cast<uint8_t>(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  return out;
}

}  // namespace

Tensor parse_npy(std::span<const uint8_t> bytes, const std::string& source) {
  const NpyHeader h = read_header(bytes, source);
  // NumPy's fixed-width strings become a string tensor.
  if (h.descr.size() >= 3 && (h.descr[1] == 'U' || h.descr[1] == 'S'))
    return Tensor(parse_npy_strings(bytes, source));
  bool swap;
  DType dtype = parse_descr(h.descr, swap, source);
  const bool fortran = h.fortran;
  const Shape& shape = h.shape;
  const size_t data_start = h.data_start;
  const size_t item = itemsize(dtype);
  const size_t nbytes = data_bytes(shape, item, source);
  if (bytes.size() - data_start < nbytes)
    bad(source, "the data is truncated: shape " + shape.to_string() + " needs " +
                    std::to_string(nbytes) + " bytes, the file has " +
                    std::to_string(bytes.size() - data_start));
  const size_t n = nbytes / item;
  std::vector<uint8_t> data(bytes.begin() + static_cast<std::ptrdiff_t>(data_start),
                            bytes.begin() + static_cast<std::ptrdiff_t>(data_start + n * item));
  if (swap) {
    // A complex element is two numbers, each stored in the file's byte order.
    const size_t word = is_complex(dtype) ? item / 2 : item;
    for (size_t i = 0; i < n * item / word; ++i)
      std::reverse(data.begin() + i * word, data.begin() + (i + 1) * word);
  }
  if (!fortran) return Tensor::from_host(data.data(), dtype, shape, n);
  // Fortran order: the reversed shape in C order, transposed back.
  Shape reversed(shape.begin(), shape.end());
  std::reverse(reversed.begin(), reversed.end());
  return Tensor::from_host(data.data(), dtype, reversed, n).transpose().contiguous();
}

std::vector<uint8_t> serialize_npy(const Tensor& x) {
  check(x.defined(), "save_npy: the tensor is undefined.");
  if (x.dtype() == DType::String) return serialize_npy(x.to_strings());
  std::vector<uint8_t> out = header_bytes(descr_of(x.dtype()), x.shape());
  size_t start = out.size();
  out.resize(start + x.array().nbytes());
  x.copy_to_host(out.data() + start, x.dtype());
  return out;
}

Tensor load_npy(const std::string& path) {
  auto bytes = read_file(path);
  return parse_npy(bytes, path);
}

// Through saving::write_file_atomically: a full disk, a read-only or vanished folder leave the
// previous file and no temporary behind, with an IOError naming the path and the cause.
void save_npy(const std::string& path, const Tensor& x) {
  saving::write_file_atomically(path, serialize_npy(x));
}

std::map<std::string, Tensor> load_npz(const std::string& path) {
  int err = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_RDONLY, &err);
  if (!z) {
    zip_error_t ze;
    zip_error_init_with_code(&ze, err);
    std::string why = zip_error_strerror(&ze);
    zip_error_fini(&ze);
    throw IOError("Cannot open " + path + " as a .npz archive: " + why + ".");
  }
  std::unique_ptr<zip_t, int (*)(zip_t*)> guard(z, zip_close);
  std::map<std::string, Tensor> arrays;
  zip_int64_t count = zip_get_num_entries(z, 0);
  for (zip_int64_t i = 0; i < count; ++i) {
    zip_stat_t st;
    if (zip_stat_index(z, static_cast<zip_uint64_t>(i), 0, &st) != 0) continue;
    std::string name = st.name;
    if (st.size > kBombBytes && st.size > kBombRatio * std::max<zip_uint64_t>(st.comp_size, 1))
      throw IOError("Refusing " + path + ": member '" + name + "' declares " +
                    std::to_string(st.size) + " bytes from " + std::to_string(st.comp_size) +
                    " compressed (a zip bomb?).");
    zip_file_t* f = zip_fopen_index(z, static_cast<zip_uint64_t>(i), 0);
    if (!f) throw IOError("Cannot read member '" + name + "' of " + path + ".");
    std::vector<uint8_t> bytes = read_member(f, st.size);
    zip_fclose(f);
    if (bytes.size() != st.size)
      throw IOError("Member '" + name + "' of " + path + " is truncated or corrupt: it declares " +
                    std::to_string(st.size) + " bytes, " + std::to_string(bytes.size()) +
                    " could be read.");
    std::string key = name.size() > 4 && name.substr(name.size() - 4) == ".npy"
                          ? name.substr(0, name.size() - 4) : name;
    arrays[key] = parse_npy(bytes, path + ":" + name);
  }
  return arrays;
}

void save_npz(const std::string& path, const std::map<std::string, Tensor>& arrays,
              bool compressed) {
  std::vector<std::vector<uint8_t>> buffers;  // the members' bytes, alive while zipping
  std::vector<saving::ZipMember> members;
  buffers.reserve(arrays.size());
  for (const auto& [name, tensor] : arrays) {
    buffers.push_back(serialize_npy(tensor));
    const auto& b = buffers.back();
    members.push_back({name + ".npy",
                       std::string_view(reinterpret_cast<const char*>(b.data()), b.size()),
                       compressed});
  }
  saving::write_file_atomically(path, saving::zip_in_memory(members, "save_npz", path));
}

StringTensor parse_npy_strings(std::span<const uint8_t> bytes, const std::string& source) {
  const NpyHeader h = read_header(bytes, source);
  const std::string& descr = h.descr;
  if (descr.size() >= 2 && descr[1] == 'O')
    bad(source, "it holds Python objects (dtype 'O', a pickle); save the strings with "
                "dtype str (numpy.array(values, dtype=str)) instead");
  const bool unicode = descr.size() >= 3 && descr[1] == 'U';
  const bool byte_string = descr.size() >= 3 && descr[1] == 'S';
  if (!unicode && !byte_string)
    bad(source, "dtype '" + descr + "' is not a string dtype; read it with keras::utils::load_npy");
  char* end = nullptr;
  errno = 0;
  const long long width = std::strtoll(descr.c_str() + 2, &end, 10);
  if (end != descr.c_str() + descr.size() || width < 0 || errno == ERANGE || width > (1 << 24))
    bad(source, "malformed string dtype '" + descr + "'");
  const size_t unit = unicode ? 4 : 1;
  const bool big_endian = descr[0] == '>';
  const size_t item = static_cast<size_t>(width) * unit;
  const size_t nbytes = item == 0 ? 0 : data_bytes(h.shape, item, source);
  if (bytes.size() - h.data_start < nbytes)
    bad(source, "the data is truncated: shape " + h.shape.to_string() + " of '" + descr +
                    "' needs " + std::to_string(nbytes) + " bytes, the file has " +
                    std::to_string(bytes.size() - h.data_start));
  const size_t n = static_cast<size_t>(h.shape.numel());
  std::vector<std::string> values(n);
  const uint8_t* data = bytes.data() + h.data_start;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = data + i * item;
    std::string& out = values[i];
    if (unicode) {
      std::u32string cps;
      for (long long k = 0; k < width; ++k) {
        const uint8_t* c = p + k * 4;
        char32_t cp = big_endian ? (char32_t{c[0]} << 24 | char32_t{c[1]} << 16 | char32_t{c[2]} << 8 | c[3])
                                 : (char32_t{c[3]} << 24 | char32_t{c[2]} << 16 | char32_t{c[1]} << 8 | c[0]);
        cps.push_back(cp);
      }
      while (!cps.empty() && cps.back() == 0) cps.pop_back();  // NumPy's padding
      for (char32_t cp : cps)
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
          bad(source, "element " + std::to_string(i) + " holds " + std::to_string(cp) +
                          ", which is not a Unicode code point");
      out = keras::detail::encode_utf8(cps);
    } else {
      size_t len = static_cast<size_t>(width);
      while (len > 0 && p[len - 1] == 0) --len;
      out.assign(reinterpret_cast<const char*>(p), len);
    }
  }
  if (!h.fortran || h.shape.rank() < 2) return StringTensor(std::move(values), h.shape);
  // Fortran order: element (i0, i1, ...) is stored at i0 + n0 * (i1 + n1 * ...).
  std::vector<std::string> c_order(n);
  const Shape& shape = h.shape;
  std::vector<int64_t> index(static_cast<size_t>(shape.rank()), 0);
  for (size_t flat = 0; flat < n; ++flat) {
    int64_t f = 0;
    for (int d = shape.rank() - 1; d >= 0; --d) f = f * shape[d] + index[static_cast<size_t>(d)];
    c_order[flat] = std::move(values[static_cast<size_t>(f)]);
    for (int d = shape.rank() - 1; d >= 0; --d) {
      if (++index[static_cast<size_t>(d)] < shape[d]) break;
      index[static_cast<size_t>(d)] = 0;
    }
  }
  return StringTensor(std::move(c_order), shape);
}

std::vector<uint8_t> serialize_npy(const StringTensor& x) {
  std::vector<std::u32string> code_points;
  code_points.reserve(static_cast<size_t>(x.size()));
  size_t width = 0;
  for (int64_t i = 0; i < x.size(); ++i) {
    code_points.push_back(
        keras::detail::decode_utf8(x.flat(i), "save_npy: element " + std::to_string(i)));
    width = std::max(width, code_points.back().size());
  }
  // NumPy gives an array of empty strings the width 1 ("<U1").
  width = std::max<size_t>(width, 1);
  std::vector<uint8_t> out = header_bytes("<U" + std::to_string(width), x.shape());
  for (const std::u32string& cps : code_points)
    for (size_t k = 0; k < width; ++k) {
      const char32_t cp = k < cps.size() ? cps[k] : 0;
      for (int b = 0; b < 4; ++b) out.push_back(static_cast<uint8_t>((cp >> (8 * b)) & 0xff));
    }
  return out;
}

StringTensor load_npy_strings(const std::string& path) {
  auto bytes = read_file(path);
  return parse_npy_strings(bytes, path);
}

void save_npy(const std::string& path, const StringTensor& x) {
  saving::write_file_atomically(path, serialize_npy(x));
}

}  // namespace keras::utils
