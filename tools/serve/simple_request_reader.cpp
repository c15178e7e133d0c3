#include "serve/simple_request_reader.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace keras::serving {
namespace {

// The powers of ten that are exact doubles: one multiplication or division by one of them
// rounds correctly (Clinger's fast path).
constexpr double kPowersOf10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                  1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// A scanner of exactly the simple form's JSON: one object whose keys are "instances" or
// "inputs" (one of them) and "signature_name", no escapes in strings, the data nested arrays of
// JSON numbers. Every method returns false on anything else; the caller then falls back to the
// document reader, so this reader never needs to explain an error, only to agree with
// nlohmann::json's values where it accepts: JSON's number grammar checked here, integers read
// as integers and then converted to double (so "-0" is +0.0, as nlohmann makes it), others
// by std::from_chars (correctly rounded, as strtod), out-of-range values left to the fallback.
class Scanner {
 public:
  Scanner(std::string_view text, DType dtype, int max_depth)
      : p_(text.data()),
        end_(p_ + text.size()),
        dtype_(dtype),
        itemsize_(dtype == DType::Float32 ? sizeof(float) : sizeof(double)),
        max_depth_(max_depth) {
    // Room for every number the text can hold (each takes a character and a separator), so
    // that put() only copies.
    data.resize((text.size() + 1) / 2 * itemsize_);
  }

  bool request() {
    skip_ws();
    if (!eat('{')) return false;
    bool data = false, signature = false;
    do {
      skip_ws();
      std::string_view key;
      if (!string(key)) return false;
      skip_ws();
      if (!eat(':')) return false;
      skip_ws();
      if (key == "signature_name" && !signature) {
        std::string_view value;
        if (!string(value) || (value != "serving_default" && !value.empty())) return false;
        signature = true;
      } else if ((key == "instances" || key == "inputs") && !data) {
        format = key == "instances" ? PredictFormat::Row : PredictFormat::Columnar;
        if (!array(0)) return false;
        data = true;
      } else {
        return false;
      }
      skip_ws();
    } while (eat(','));
    if (!eat('}')) return false;
    skip_ws();
    this->data.resize(used_);
    return data && p_ == end_ && leaf_depth_ > 0;
  }

  std::vector<int64_t> dims;
  std::vector<unsigned char> data;
  PredictFormat format = PredictFormat::Row;

 private:
  void skip_ws() {
    // Every character that is not whitespace and may come next is above ' '.
    while (p_ < end_ && static_cast<unsigned char>(*p_) <= ' ' &&
           (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t'))
      ++p_;
  }
  bool eat(char c) {
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  // A string without escapes or control characters.
  bool string(std::string_view& out) {
    if (!eat('"')) return false;
    const char* start = p_;
    while (p_ < end_ && *p_ != '"') {
      if (*p_ == '\\' || static_cast<unsigned char>(*p_) < 0x20) return false;
      ++p_;
    }
    if (p_ == end_) return false;
    out = std::string_view(start, static_cast<size_t>(p_ - start));
    ++p_;
    return true;
  }
  // A list at nesting `depth` (0: the whole value), its length the same as every other list
  // at that depth, numbers only at the deepest level.
  bool array(size_t depth) {
    // Deeper than the input's rank cannot fit it (and would recurse without bound).
    if (static_cast<int>(depth) >= max_depth_ || !eat('[')) return false;
    if (dims.size() <= depth) dims.push_back(-1);
    skip_ws();
    if (p_ < end_ && *p_ != '[' && *p_ != ']') return leaf_array(depth);
    int64_t count = 0;
    if (p_ < end_ && *p_ != ']') {
      do {
        skip_ws();
        if (!next_is('[')) return false;
        if (leaf_depth_ >= 0 && static_cast<int>(depth) + 1 >= leaf_depth_) return false;
        if (!array(depth + 1)) return false;
        ++count;
        skip_ws();
      } while (eat(','));
    }
    return close(depth, count);
  }
  // The rest of a list of numbers (the innermost lists, most of a body), from its first one.
  bool leaf_array(size_t depth) {
    const int leaf = static_cast<int>(depth) + 1;
    if (leaf_depth_ < 0) leaf_depth_ = leaf;
    if (leaf_depth_ != leaf) return false;
    int64_t count = 0;
    for (;;) {
      if (!number()) return false;
      ++count;
      skip_ws();
      if (!eat(',')) break;
      skip_ws();
    }
    return close(depth, count);
  }
  // The list's ']', and its length against the others at its depth.
  bool close(size_t depth, int64_t count) {
    if (!eat(']')) return false;
    int64_t& expected = dims[depth];
    if (expected < 0) expected = count;
    return expected == count;
  }
  // Whether the next character is c (not taking it).
  bool next_is(char c) const { return p_ < end_ && *p_ == c; }
  bool number() {
    // Most numbers have few digits and no exponent: read those eight digits at a time (no
    // branch per digit to mispredict); the rest, and near the end of the text, one by one.
    if (end_ - p_ >= 8 && short_number()) return true;
    const char* start = p_;
    const bool negative = p_ < end_ && *p_ == '-';
    if (negative) ++p_;
    if (p_ == end_) return false;
    // The digits as an integer, `mantissa`, times 10^`scale` (minus the fraction's digits),
    // while it holds at most 19 significant digits (`exact`).
    uint64_t mantissa = 0;
    int significant = 0, scale = 0;
    bool exact = true;
    auto take = [&](char c) {
      if (mantissa == 0 && c == '0') return;  // leading zeros add no digit
      if (++significant > 19) {
        exact = false;
        return;
      }
      mantissa = mantissa * 10 + static_cast<uint64_t>(c - '0');
    };
    if (*p_ == '0') {
      ++p_;
    } else if (*p_ >= '1' && *p_ <= '9') {
      for (; p_ < end_ && *p_ >= '0' && *p_ <= '9'; ++p_) take(*p_);
    } else {
      return false;
    }
    bool integer = true;
    if (p_ < end_ && *p_ == '.') {
      integer = false;
      ++p_;
      const char* first = p_;
      for (; p_ < end_ && *p_ >= '0' && *p_ <= '9'; ++p_, --scale) take(*p_);
      if (p_ == first) return false;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      integer = false;
      ++p_;
      const bool down = p_ < end_ && *p_ == '-';
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      const char* first = p_;
      int exponent = 0;
      for (; p_ < end_ && *p_ >= '0' && *p_ <= '9'; ++p_)
        if (exponent < 100000) exponent = exponent * 10 + (*p_ - '0');
      if (p_ == first) return false;
      scale += down ? -exponent : exponent;
    }
    // Integers as integers (nlohmann::json's token types: "-0" is the integer 0, +0.0), beyond
    // 64 bits as floats. Other numbers as strtod reads them: correctly rounded, which one
    // operation on exact doubles is when the mantissa fits 53 bits and 10^|scale| is exact
    // (at most 10^22); from_chars for the rest.
    double value = 0;
    int64_t i = 0;
    uint64_t u = 0;
    if (integer && exact && significant <= 18) {
      const auto whole = static_cast<int64_t>(mantissa);
      value = static_cast<double>(negative ? -whole : whole);
    } else if (integer && negative && std::from_chars(start, p_, i).ec == std::errc()) {
      value = static_cast<double>(i);
    } else if (integer && !negative && std::from_chars(start, p_, u).ec == std::errc()) {
      value = static_cast<double>(u);
    } else if (!integer && exact && mantissa <= (uint64_t{1} << 53) && scale >= -22 &&
               scale <= 22) {
      value = static_cast<double>(mantissa);
      value = scale < 0 ? value / kPowersOf10[-scale] : value * kPowersOf10[scale];
      if (negative) value = -value;
    } else if (!to_double(start, p_, value)) {
      return false;
    }
    put(value);
    return true;
  }
  // A number of at most 18 digits (integer) or 19 (with a fraction), no exponent, whose value
  // one exact operation gives: the same value as the digit-by-digit path below, or false
  // (p_ unmoved) to leave it to that path.
  bool short_number() {
    if constexpr (std::endian::native != std::endian::little) return false;
    const char* p = p_;
    const bool negative = *p == '-';
    p += negative;
    uint64_t mantissa = 0;
    int digits = 0;
    if (*p == '0') {
      ++p;  // JSON's integer part is "0" or has no leading zero
    } else if (!digit_runs(p, mantissa, digits) || digits == 0) {
      return false;
    }
    int scale = 0;
    bool integer = true;
    if (p < end_ && *p == '.') {
      ++p;
      const int before = digits;
      if (!digit_runs(p, mantissa, digits) || digits == before) return false;
      scale = before - digits;
      integer = false;
    }
    if (p < end_ && (*p == 'e' || *p == 'E' || (*p >= '0' && *p <= '9'))) return false;
    double value;
    if (integer) {
      if (digits > 18) return false;
      const auto whole = static_cast<int64_t>(mantissa);
      value = static_cast<double>(negative ? -whole : whole);
    } else {
      if (digits > 19 || mantissa > (uint64_t{1} << 53) || scale < -22) return false;
      value = static_cast<double>(mantissa) / kPowersOf10[-scale];
      if (negative) value = -value;
    }
    put(value);
    p_ = p;
    return true;
  }
  // Appends the run of digits at p to `mantissa` (`digits` counts them), eight at a time
  // while eight bytes remain; false when fewer do mid-run or the run passes 19 digits.
  bool digit_runs(const char*& p, uint64_t& mantissa, int& digits) const {
    static constexpr uint64_t kScale[] = {1,      10,      100,      1000,     10000,
                                          100000, 1000000, 10000000, 100000000};
    int n;
    do {
      if (end_ - p < 8) return false;
      uint64_t value;
      n = eight_digits(p, value);
      mantissa = mantissa * kScale[n] + value;
      digits += n;
      p += n;
      if (digits > 19) return false;
    } while (n == 8);
    return true;
  }
  // The number of leading ASCII digits in the eight bytes at p, and their value.
  static int eight_digits(const char* p, uint64_t& value) {
    uint64_t bytes;
    std::memcpy(&bytes, p, sizeof bytes);
    const uint64_t d = bytes ^ 0x3030303030303030;  // a digit's byte is now 0..9
    // A byte's top bit set when it is not a digit; a carry only leaves a byte that is none,
    // so the lowest flag (the first non-digit character) is right.
    const uint64_t other = ((d + 0x7676767676767676) | d) & 0x8080808080808080;
    const int n = other ? std::countr_zero(other) / 8 : 8;
    if (n == 0) {
      value = 0;
      return 0;
    }
    // The n digits into the top bytes, zeros below them (leading zeros), then pairs, fours,
    // eights summed in place: each step's lanes hold at most 99, 9999, 99999999.
    uint64_t v = d << (8 * (8 - n));
    v = (v * 10 + (v >> 8)) & 0x00FF00FF00FF00FF;
    v = (v * 100 + (v >> 16)) & 0x0000FFFF0000FFFF;
    v = (v * 10000 + (v >> 32)) & 0xFFFFFFFF;
    value = v;
    return n;
  }
  // from_chars, and for what it calls out of range strtod, as nlohmann::json reads numbers:
  // an underflow becomes a subnormal or zero there, an overflow is an error.
  static bool to_double(const char* first, const char* last, double& value) {
    const auto result = std::from_chars(first, last, value);
    if (result.ec == std::errc()) return true;
    if (result.ec != std::errc::result_out_of_range) return false;
    const std::string token(first, last);
    value = std::strtod(token.c_str(), nullptr);
    return std::isfinite(value);
  }
  // The document reader's conversion: the double, then float for float32 inputs.
  void put(double v) {
    if (dtype_ == DType::Float32) {
      const float f = static_cast<float>(v);
      std::memcpy(data.data() + used_, &f, sizeof f);
    } else {
      std::memcpy(data.data() + used_, &v, sizeof v);
    }
    used_ += itemsize_;
  }

  const char* p_;
  const char* end_;
  DType dtype_;
  size_t itemsize_;
  size_t used_ = 0;  // bytes of `data` written
  int max_depth_;
  int leaf_depth_ = -1;
};

}  // namespace

std::optional<PredictRequest> read_simple_predict_request(std::string_view body,
                                                          const Signature& signature) {
  if (signature.inputs.size() != 1) return std::nullopt;
  const TensorSpec& spec = signature.inputs[0];
  const DType dtype = storage_dtype(spec.dtype);
  if (dtype != DType::Float32 && dtype != DType::Float64) return std::nullopt;
  Scanner scanner(body, dtype, spec.shape.rank());
  if (!scanner.request()) return std::nullopt;
  // The whole array is the batch in both formats when the model has one input: its shape
  // must be the signature's, the batch axis free.
  const std::vector<int64_t>& dims = scanner.dims;
  if (static_cast<int>(dims.size()) != spec.shape.rank() || dims[0] < 1) return std::nullopt;
  for (int i = 1; i < spec.shape.rank(); ++i)
    if (spec.shape[i] >= 0 && spec.shape[i] != dims[static_cast<size_t>(i)]) return std::nullopt;
  PredictRequest request;
  request.format = scanner.format;
  HostArray array;
  array.dtype = dtype;
  array.shape = Shape(dims);
  array.data = std::move(scanner.data);
  request.inputs.push_back(std::move(array));
  return request;
}

}  // namespace keras::serving
