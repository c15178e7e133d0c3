#pragma once
// Private helpers of the callbacks: Python's str() of a float, str.format with named fields
// (ModelCheckpoint's file names), atomic file writes, and Keras's warnings.

#include <cstdint>
#include <map>
#include <string>
#include <variant>

namespace keras::callbacks::detail {

/// Python's repr/str of a float: the shortest round-trip digits, "1e-05", "0.1", "3.0", "inf".
std::string py_float(double value);

/// A value str.format can substitute.
using FormatValue = std::variant<int64_t, double, std::string>;

/// Python's `pattern.format(**fields)` for named fields with an optional format spec
/// ([[fill]align][sign][#][0][width][,][.precision][type], types d, f, F, e, E, g, G, %, s).
/// `{{`/`}}` are literal braces. KeyError-like ValueError naming a missing field.
std::string py_format(const std::string& pattern, const std::map<std::string, FormatValue>& fields);

/// Writes `text` to `path` through a temporary file in the same folder, fsync and rename.
void write_file_atomic(const std::string& path, const std::string& text);

/// Prints "<file>: UserWarning: <message>" to stderr, as Python's warnings module would.
void warn(const std::string& message);

}  // namespace keras::callbacks::detail
