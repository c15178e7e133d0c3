// csv_fuzzer's body: the bytes after the first as a CSV file for load_csv (through a scratch
// file: load_csv opens a path); the first byte picks the options, so that one corpus reaches
// every combination:
//   bit 0    header line or not
//   bits 1-2 delimiter: ',' ';' '\t' ' '
//   bits 3-4 columns: all, by name {"b", "a"} (the seeds' headers name a, b, c), by index
//            {1, 0}, by an index past the end {7}
//   bits 5-6 dtype: float32, float64, int32, uint8
// A loaded table is then asked for its first column by name, and for one it does not have.

#include <string>

#include "fuzz_input_file.h"
#include "keras/keras.h"
#include "keras/utils/csv.h"
#include "reader_entries.h"

namespace keras::fuzz {
namespace {

utils::CsvOptions options_from(uint8_t flags) {
  utils::CsvOptions o;
  o.header = (flags & 1) != 0;
  o.delimiter = ",;\t "[(flags >> 1) & 3];
  switch ((flags >> 3) & 3) {
    case 1:
      o.columns = {"b", "a"};
      break;
    case 2:
      o.column_indices = {1, 0};
      break;
    case 3:
      o.column_indices = {7};
      break;
    default:
      break;
  }
  const DType dtypes[] = {DType::Float32, DType::Float64, DType::Int32, DType::UInt8};
  o.dtype = dtypes[(flags >> 5) & 3];
  return o;
}

}  // namespace

void csv_one_input(const uint8_t* data, size_t size) {
  if (size == 0) return;
  try {
    auto table =
        utils::load_csv(write_input_file("csv", data + 1, size - 1), options_from(data[0]));
    (void)table.values.numel();
    if (!table.column_names.empty()) (void)table.column(table.column_names.front()).numel();
    (void)table.column("no such column");
  } catch (const Error&) {
  }
}

}  // namespace keras::fuzz
