// load_csv: a small numeric CSV reader (numpy.loadtxt's job), with errors that name the file,
// the line and the column.

#include "keras/utils/csv.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "keras/core/errors.h"
#include "keras/ops/ops.h"

namespace keras::utils {

namespace {

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return {};
  size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

// Splits one line; "a,""b""" style quotes are undone.
std::vector<std::string> split_line(const std::string& line, char delimiter) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == delimiter) {
      fields.push_back(trim(field));
      field.clear();
    } else {
      field += c;
    }
  }
  fields.push_back(trim(field));
  return fields;
}

}  // namespace

Tensor CsvTable::column(const std::string& name) const {
  std::string known;
  for (size_t i = 0; i < column_names.size(); ++i) {
    if (column_names[i] == name)
      return ops::squeeze(values.slice({{0, values.shape()[0]},
                                        {static_cast<int64_t>(i), static_cast<int64_t>(i) + 1}}),
                          {1});
    known += (i ? ", " : "") + column_names[i];
  }
  throw ValueError(
      keras::detail::cat("CsvTable: no column '", name, "'; the columns: ", known, "."));
}

CsvTable load_csv(const std::string& path, const CsvOptions& o) {
  std::ifstream in(path);
  check<IOError>(in.good(), "load_csv: cannot open '", path, "'.");
  std::string line;
  int64_t line_number = 0;
  std::vector<std::string> header;
  auto next_line = [&]() {
    while (std::getline(in, line)) {
      ++line_number;
      if (!trim(line).empty()) return true;
    }
    return false;
  };
  if (o.header) {
    check(next_line(), "load_csv: '", path, "' is empty; expected a header line.");
    header = split_line(line, o.delimiter);
  }
  check(o.columns.empty() || o.header,
        "load_csv: columns by name need a header line; use "
        "column_indices for '",
        path, "'.");
  std::vector<int64_t> keep;  // the kept columns' indices, in output order
  for (const std::string& name : o.columns) {
    auto it = std::find(header.begin(), header.end(), name);
    std::string known;
    for (const auto& h : header) known += (known.empty() ? "" : ", ") + h;
    check(it != header.end(), "load_csv: '", path, "' has no column '", name,
          "'; its columns: ", known, ".");
    keep.push_back(it - header.begin());
  }
  if (o.columns.empty()) keep = o.column_indices;

  // The width every line must have: the header's, else the first data line's.
  int64_t width = -1;
  auto set_width = [&](int64_t w, const char* from) {
    width = w;
    if (keep.empty())
      for (int64_t i = 0; i < width; ++i) keep.push_back(i);
    for (int64_t k : keep)
      check(k >= 0 && k < width, "load_csv: column index ", k, " is out of range: '", path,
            "' has ", width, " columns (", from, ").");
  };
  if (o.header) set_width(static_cast<int64_t>(header.size()), "in its header line");
  std::vector<double> values;
  int64_t rows = 0;
  while (next_line()) {
    std::vector<std::string> fields = split_line(line, o.delimiter);
    if (width < 0) set_width(static_cast<int64_t>(fields.size()), "in its first line");
    check(static_cast<int64_t>(fields.size()) == width, "load_csv: line ", line_number, " of '",
          path, "' has ", fields.size(), " fields; expected ", width,
          o.header ? ", as its header line names." : ", as its first line has.");
    for (int64_t k : keep) {
      const std::string& f = fields[static_cast<size_t>(k)];
      const std::string column =
          o.header ? "'" + header.at(static_cast<size_t>(k)) + "'" : std::to_string(k);
      check(!f.empty(), "load_csv: line ", line_number, " of '", path, "', column ", column,
            ": the field is empty.");
      char* end = nullptr;
      errno = 0;
      double v = std::strtod(f.c_str(), &end);
      check(end == f.c_str() + f.size() && errno != ERANGE, "load_csv: line ", line_number, " of '",
            path, "', column ", column, ": '", f, "' is not a number.");
      values.push_back(v);
    }
    ++rows;
  }
  CsvTable table;
  for (int64_t k : keep)
    table.column_names.push_back(o.header ? header.at(static_cast<size_t>(k)) : std::to_string(k));
  auto cols = static_cast<int64_t>(keep.size());
  table.values = ops::cast(Tensor::from_vector(values, {rows, cols}), o.dtype);
  return table;
}

}  // namespace keras::utils
