#pragma once
// The bodies of the data-reader fuzz targets (npy_fuzzer, csv_fuzzer, idx_fuzzer,
// json_config_fuzzer), shared with the g++ replay test (tests/utils/fuzz_readers_test.cpp).
// Each feeds arbitrary bytes to one reader of outside data and returns normally when the
// reader accepts them or refuses them with a keras::Error; anything else (another exception, a
// crash, a sanitizer report, a hang) is a bug.

#include <cstddef>
#include <cstdint>

namespace keras::fuzz {

/// parse_npy on the bytes; load_npz on them too when they start like a zip archive.
void npy_one_input(const uint8_t* data, size_t size);
/// load_csv; the first byte picks the options (header, delimiter, columns, dtype).
void csv_one_input(const uint8_t* data, size_t size);
/// keras::datasets::load_idx (plain or gzipped: zlib reads both).
void idx_one_input(const uint8_t* data, size_t size);
/// model_from_json, deserialize_keras_object on the record and on each layer record it holds.
void json_config_one_input(const uint8_t* data, size_t size);

}  // namespace keras::fuzz
