#pragma once
// Shared pieces of the keras-cpp command: the user-error type, and reading the files the
// subcommands take (models, .npy arrays) with errors that name the file.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "keras/models/model.h"
#include "keras/tensor/tensor.h"

namespace keras::cli {

/// A mistake in the command line or its files: reported in one line, exit code 1.
class UserError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Thrown by a subcommand whose exit code is its result (launch: the failed rank's); keras-cpp
/// exits with `code` without a message (the subcommand has said what happened).
struct ExitCode {
  int code = 0;
};

/// Selects the backend for what follows (no-op when `name` is empty); the symbolic backend
/// (shapes only) is refused.
void use_backend(const std::string& name);

/// UserError unless `path` ends in `extension` and its folder exists (checked before work
/// that would otherwise be lost when saving fails).
void check_output(const std::string& path, const std::string& extension);

/// The model in a .keras (or legacy .h5) file; UserError when the file is missing.
ModelPtr<Model> load_model_file(const std::string& path, bool compile = true);

/// The model, which must have been saved compiled (for evaluate and fit).
ModelPtr<Model> load_compiled_model(const std::string& path);

/// The array in a .npy file; UserError when it is missing.
Tensor load_array(const std::string& path);

/// x for a model: one tensor, or a list in the model's input order.
TensorStruct model_inputs(const std::vector<std::string>& paths);

/// A CLI11 check: a whole number >= `min` ("'two' is not a whole number >= 1").
CLI::Validator whole_number(long long min);
/// A CLI11 check: a number in [0, 1).
CLI::Validator fraction();

/// A count option: nullopt when not given (0).
inline std::optional<int64_t> optional_count(int64_t n) {
  return n > 0 ? std::optional<int64_t>(n) : std::nullopt;
}

/// "(4, 10) float32".
std::string describe(const Tensor& t);

}  // namespace keras::cli
