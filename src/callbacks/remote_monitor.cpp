// keras.callbacks.RemoteMonitor (keras/src/callbacks/remote_monitor.py): the body is built as
// Python's json.dumps and urllib's urlencode (what requests.post uses) build it.

#include "keras/callbacks/remote_monitor.h"

#include <cmath>
#include <cstdio>

#include <httplib.h>

#include "callbacks/format.h"
#include "keras/core/errors.h"

namespace keras::callbacks {

namespace {

// json.dumps of a str (ensure_ascii: non-ASCII characters as \uXXXX, UTF-16 surrogate pairs).
std::string json_string(const std::string& s) {
  std::string out = "\"";
  auto hex4 = [&out](uint32_t u) {
    char b[8];
    std::snprintf(b, sizeof(b), "\\u%04x", u);
    out += b;
  };
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        default:
          if (c < 0x20)
            hex4(c);
          else
            out += static_cast<char>(c);
      }
      continue;
    }
    int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
    uint32_t code = c & (0x3F >> extra);
    for (int k = 1; k <= extra && i + k < s.size(); ++k)
      code = (code << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    i += extra + 1;
    if (code >= 0x10000) {
      code -= 0x10000;
      hex4(0xD800 + (code >> 10));
      hex4(0xDC00 + (code & 0x3FF));
    } else {
      hex4(code);
    }
  }
  return out + "\"";
}

// json.dumps of a float: repr, or NaN/Infinity/-Infinity (which allow_nan=False refuses).
std::string json_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return detail::py_float(v);
}

// urllib.parse.quote_plus: letters, digits and "_.-~" stay; space is "+"; the rest %XX.
std::string quote_plus(const std::string& s) {
  std::string out;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '_' || c == '.' || c == '-' || c == '~') {
      out += ch;
    } else if (c == ' ') {
      out += '+';
    } else {
      char b[4];
      std::snprintf(b, sizeof(b), "%%%02X", c);
      out += b;
    }
  }
  return out;
}

}  // namespace

RemoteMonitor::RemoteMonitor(RemoteMonitorOptions options) : options_(std::move(options)) {}

RemoteMonitor::Request RemoteMonitor::request(int epoch, const Logs& logs) const {
  // json.dumps's default separators: ", " and ": ".
  std::string json = "{\"epoch\": " + std::to_string(epoch);
  bool finite = true;
  for (const auto& [name, value] : logs) {
    json += ", " + json_string(name) + ": " + json_number(value);
    finite = finite && std::isfinite(value);
  }
  json += "}";
  if (options_.send_as_json) {
    if (!finite) return {};  // requests: InvalidJSONError (Out of range float values ...)
    return {"application/json", json};
  }
  return {"application/x-www-form-urlencoded", quote_plus(options_.field) + "=" + quote_plus(json)};
}

void RemoteMonitor::on_epoch_end(int epoch, const Logs& logs) {
  Request req = request(epoch, logs);
  bool sent = false;
  if (!req.content_type.empty()) {
    // root + path, split into scheme://host[:port] and the request target.
    std::string url = options_.root + options_.path;
    size_t scheme_end = url.find("://");
    size_t target =
        scheme_end == std::string::npos ? std::string::npos : url.find('/', scheme_end + 3);
    if (scheme_end != std::string::npos) {
      std::string origin = target == std::string::npos ? url : url.substr(0, target);
      std::string path = target == std::string::npos ? "/" : url.substr(target);
      try {
        httplib::Client client(origin);
        httplib::Headers headers;
        for (const auto& [k, v] : options_.headers) headers.emplace(k, v);
        // A Content-Type in `headers` replaces the default one, as in requests (httplib's
        // Headers compare names case-insensitively).
        std::string content_type = req.content_type;
        if (auto it = headers.find("Content-Type"); it != headers.end()) {
          content_type = it->second;
          headers.erase(it);
        }
        sent = static_cast<bool>(client.Post(path, headers, req.body, content_type));
      } catch (const std::exception&) {
        sent = false;  // an invalid origin: requests' InvalidURL, a RequestException
      }
    }
  }
  if (!sent) detail::warn("Could not reach RemoteMonitor root server at " + options_.root);
}

}  // namespace keras::callbacks
