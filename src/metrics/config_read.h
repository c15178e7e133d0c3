#pragma once
// Reading metric configs: Keras keys with defaults, dtypes as strings or DTypePolicy records.

#include <optional>

#include "keras/core/dtype.h"
#include "keras/core/json.h"

namespace keras::metrics::detail {

template <typename T>
T read(const Config& c, const char* key, T fallback) {
  if (!c.contains(key) || c[key].is_null()) return fallback;
  return c[key].get<T>();
}

inline std::optional<int64_t> read_optional_int(const Config& c, const char* key) {
  if (!c.contains(key) || c[key].is_null()) return std::nullopt;
  return c[key].get<int64_t>();
}

inline std::optional<DType> read_dtype(const Config& c) {
  if (!c.contains("dtype") || c["dtype"].is_null()) return std::nullopt;
  const Config& d = c["dtype"];
  if (d.is_object()) return dtype_from_string(d.at("config").at("name").get<std::string>());
  return dtype_from_string(d.get<std::string>());
}

/// The arguments every metric shares: name and dtype.
template <typename Options>
void read_base_options(const Config& c, Options& o) {
  o.name = read<std::string>(c, "name", o.name);
  o.dtype = read_dtype(c);
}

}  // namespace keras::metrics::detail
