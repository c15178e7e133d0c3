#pragma once
// keras::utils::load_csv: numeric CSV files into a tensor (as numpy.loadtxt with delimiter,
// skiprows and usecols), columns picked by header name or by index.
//
//   auto table = keras::utils::load_csv("iris.csv", {.columns = {"sepal_length", "petal_width"}});
//   keras::Tensor x = table.values;  // (rows, 2) float32

#include <string>
#include <vector>

#include "keras/core/dtype.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::utils {

/// load_csv's options.
struct CsvOptions {
  /// The character that separates fields.
  char delimiter = ',';
  /// Whether the first line names the columns.
  bool header = true;
  /// Columns to keep by header name, in this order (needs header).
  std::vector<std::string> columns;
  /// Columns to keep by 0-based index, in this order (used when `columns` is empty).
  std::vector<int64_t> column_indices;
  /// The dtype of `values`.
  DType dtype = DType::Float32;
};

/// What load_csv returns: the kept columns' names and values.
struct CsvTable {
  /// The kept columns' header names ("0", "1", ... without a header).
  std::vector<std::string> column_names;
  /// (rows, kept columns).
  Tensor values;
  /// One column as a 1-d tensor; ValueError naming the columns when absent.
  Tensor column(const std::string& name) const;
};

/// Reads a numeric CSV file. Blank lines are skipped; double-quoted fields are unquoted; an
/// empty or non-numeric field is a ValueError naming the line and the column.
CsvTable load_csv(const std::string& path, const CsvOptions& options = {});

}  // namespace keras::utils

#pragma GCC visibility pop
