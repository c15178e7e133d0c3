#include "callbacks/format.h"

#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "keras/core/errors.h"
#include "keras/saving/atomic_file.h"

namespace keras::callbacks::detail {

std::string py_float(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
  // Shortest round-trip digits in scientific form, then Python's layout: scientific when the
  // exponent is < -4 or >= 16, else positional (float_repr_style 'short').
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  std::string sci(buf, r.ptr);
  bool negative = sci[0] == '-';
  if (negative) sci.erase(0, 1);
  size_t e = sci.find('e');
  std::string mantissa = sci.substr(0, e);
  int exponent = std::stoi(sci.substr(e + 1));
  std::string digits;
  for (char c : mantissa)
    if (c != '.') digits.push_back(c);
  std::string out;
  if (exponent < -4 || exponent >= 16) {
    out = digits.substr(0, 1);
    if (digits.size() > 1) {
      out += '.';
      out += digits.substr(1);
    }
    char exp[16];
    std::snprintf(exp, sizeof exp, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    out += exp;
  } else if (exponent < 0) {
    out = "0.";
    out.append(static_cast<size_t>(-exponent - 1), '0');
    out += digits;
  } else {
    size_t int_digits = static_cast<size_t>(exponent) + 1;
    if (digits.size() <= int_digits) {
      out = digits + std::string(int_digits - digits.size(), '0') + ".0";
    } else {
      out = digits.substr(0, int_digits);
      out += '.';
      out += digits.substr(int_digits);
    }
  }
  if (negative) out.insert(out.begin(), '-');
  return out;
}

namespace {

struct Spec {
  char fill = ' ';
  char align = 0;
  char sign = '-';
  bool alternate = false;
  bool zero = false;
  int width = 0;
  bool comma = false;
  int precision = -1;
  char type = 0;
};

Spec parse_spec(const std::string& s, const std::string& field) {
  Spec spec;
  size_t i = 0;
  auto is_align = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (s.size() >= 2 && is_align(s[1])) {
    spec.fill = s[0];
    spec.align = s[1];
    i = 2;
  } else if (!s.empty() && is_align(s[0])) {
    spec.align = s[0];
    i = 1;
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) spec.sign = s[i++];
  if (i < s.size() && s[i] == '#') {
    spec.alternate = true;
    ++i;
  }
  if (i < s.size() && s[i] == '0') {
    spec.zero = true;
    ++i;
  }
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
    spec.width = spec.width * 10 + (s[i++] - '0');
  if (i < s.size() && s[i] == ',') {
    spec.comma = true;
    ++i;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    spec.precision = 0;
    size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
      spec.precision = spec.precision * 10 + (s[i++] - '0');
    check(i > start, "Format specifier missing precision in '{", field, ":", s, "}'.");
  }
  if (i < s.size()) spec.type = s[i++];
  check(i == s.size(), "Invalid format specifier '", s, "' for field '", field, "'.");
  return spec;
}

std::string group_thousands(const std::string& digits) {
  std::string out;
  int n = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    if (n && n % 3 == 0) out.insert(out.begin(), ',');
    out.insert(out.begin(), *it);
    ++n;
  }
  return out;
}

std::string format_value(const FormatValue& value, const Spec& spec, const std::string& field) {
  std::string sign, body;
  bool numeric = true;
  if (const auto* s = std::get_if<std::string>(&value)) {
    check(spec.type == 0 || spec.type == 's', "Unknown format code '", std::string(1, spec.type),
          "' for object of type 'str' (field '", field, "').");
    body = spec.precision >= 0 ? s->substr(0, static_cast<size_t>(spec.precision)) : *s;
    numeric = false;
  } else {
    double d = 0;
    bool is_int = std::holds_alternative<int64_t>(value);
    d = is_int ? static_cast<double>(std::get<int64_t>(value)) : std::get<double>(value);
    char type = spec.type;
    if (is_int && (type == 0 || type == 'd' || type == 'n')) {
      int64_t v = std::get<int64_t>(value);
      if (v < 0) sign = "-";
      body = std::to_string(v < 0 ? -static_cast<uint64_t>(v) : static_cast<uint64_t>(v));
      if (spec.comma) body = group_thousands(body);
    } else {
      check(type != 'd', "Unknown format code 'd' for object of type 'float' (field '", field,
            "').");
      check(type == 0 || type == 'f' || type == 'F' || type == 'e' || type == 'E' ||
                type == 'g' || type == 'G' || type == '%',
            "Unknown format code '", std::string(1, type), "' for a number (field '", field,
            "').");
      if (std::signbit(d) && !std::isnan(d)) sign = "-";
      double a = std::fabs(d);
      if (type == 0 && spec.precision < 0) {
        body = py_float(a);
      } else {
        int precision = spec.precision < 0 ? 6 : spec.precision;
        char fmt[16];
        char t = type == 0 ? 'g' : type;
        if (t == '%') {
          a *= 100;
          t = 'f';
        }
        std::snprintf(fmt, sizeof fmt, "%%%s.%d%c", spec.alternate ? "#" : "", precision, t);
        char buf[512];
        std::snprintf(buf, sizeof buf, fmt, a);
        body = buf;
        if (type == '%') body += "%";
        if (type == 0 && body.find_first_of(".e") == std::string::npos && std::isfinite(a))
          body += ".0";  // Python's 'none' type keeps a decimal point
        if (spec.comma) {
          size_t dot = body.find_first_of(".e%");
          body = group_thousands(body.substr(0, dot)) +
                 (dot == std::string::npos ? "" : body.substr(dot));
        }
      }
    }
    if (sign.empty() && spec.sign == '+') sign = "+";
    if (sign.empty() && spec.sign == ' ') sign = " ";
  }
  char align = spec.align ? spec.align : (numeric ? '>' : '<');
  char fill = spec.fill;
  if (spec.zero && !spec.align) {
    align = '=';
    fill = '0';
  }
  int pad = spec.width - static_cast<int>(sign.size() + body.size());
  if (pad <= 0) return sign + body;
  std::string padding(static_cast<size_t>(pad), fill);
  switch (align) {
    case '<': return sign + body + padding;
    case '^': {
      std::string left(static_cast<size_t>(pad / 2), fill);
      std::string right(static_cast<size_t>(pad - pad / 2), fill);
      return left + sign + body + right;
    }
    case '=': return sign + padding + body;
    default: return padding + sign + body;
  }
}

}  // namespace

std::string py_format(const std::string& pattern, const std::map<std::string, FormatValue>& fields) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '{' && i + 1 < pattern.size() && pattern[i + 1] == '{') {
      out += '{';
      ++i;
    } else if (c == '}' && i + 1 < pattern.size() && pattern[i + 1] == '}') {
      out += '}';
      ++i;
    } else if (c == '{') {
      size_t close = pattern.find('}', i);
      check(close != std::string::npos, "Single '{' encountered in format string '", pattern,
            "'.");
      std::string inside = pattern.substr(i + 1, close - i - 1);
      size_t colon = inside.find(':');
      std::string name = inside.substr(0, colon);
      std::string spec = colon == std::string::npos ? "" : inside.substr(colon + 1);
      auto it = fields.find(name);
      if (it == fields.end()) {
        std::string known;
        for (const auto& [k, v] : fields) known += (known.empty() ? "" : ", ") + k;
        throw ValueError("Failed to format this callback filepath: \"" + pattern +
                         "\". Reason: KeyError('" + name + "'); available keys: " + known + ".");
      }
      out += format_value(it->second, parse_spec(spec, name), name);
      i = close;
    } else if (c == '}') {
      throw ValueError("Single '}' encountered in format string '" + pattern + "'.");
    } else {
      out += c;
    }
  }
  return out;
}

void write_file_atomic(const std::string& path, const std::string& text) {
  // One writer for every file keras-cpp replaces: a full disk, a read-only or vanished folder
  // leave the previous file and no temporary behind, with an IOError naming path and cause.
  saving::write_file_atomically(path, std::vector<uint8_t>(text.begin(), text.end()));
}

void warn(const std::string& message) { std::cerr << "UserWarning: " << message << "\n"; }

}  // namespace keras::callbacks::detail
