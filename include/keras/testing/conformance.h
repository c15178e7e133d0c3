#pragma once
// The cross-backend conformance suite: every op family, gradients, layers and two short
// training runs computed on a backend and on the reference ("cpu") from identical inputs, with
// the largest difference between them. `keras-cpp conformance` prints the table; the test
// suite asserts every row is within its bound.
//
// The difference of two outputs a (backend) and b (reference) is
//   max_i |a_i - b_i| / max(|b_i|, 1e-3 * max_j |b_j|)
// a relative difference for every element above a thousandth of the output's scale, and
// relative to that scale below it (where a relative error means nothing). NaN must match NaN;
// integer and boolean outputs must be equal.

#include <functional>
#include <string>
#include <vector>

#pragma GCC visibility push(default)
namespace keras::testing {

/// A case's outcome: Pass (within its bound), Fail (beyond it, or NaN), NotImplemented (the backend
/// threw NotImplementedError) or Error (any other exception).
enum class ConformanceStatus { Pass, Fail, NotImplemented, Error };

/// One op, layer or training run on one backend, compared with the reference.
struct ConformanceResult {
  /// The op family: "elementwise", "reductions", "nn", "linalg", "gradients", "layers", "random" or
  /// "training".
  std::string family;   // "elementwise", "reductions", "nn", "linalg", "gradients", "layers",
                        // "random", "training"
  /// The op or layer case, such as "conv2d same stride 2".
  std::string name;     // the op or layer, e.g. "conv2d same stride 2"
  /// The backend compared with the reference.
  std::string backend;  // the backend compared with the reference
  /// Whether the case passed, failed, is not implemented or threw.
  ConformanceStatus status = ConformanceStatus::Pass;
  /// The difference measure at the top of this file (0 when identical).
  double difference = 0;  // the measure at the top of this file (0 when identical)
  /// The largest difference that passes.
  double bound = 0;       // the largest difference that passes
  /// Why it failed or is not implemented (the exception's message), or details of the comparison.
  std::string message;    // why it failed or is not implemented
};

/// run_conformance's arguments.
struct ConformanceOptions {
  /// Backends to check; empty: every registered backend that computes (not "symbolic").
  std::vector<std::string> backends;
  /// The backend every other backend is compared with.
  std::string reference = "cpu";
  /// Run the training runs (MLP and CNN, one epoch on a Fashion-MNIST subset).
  bool training = true;
  /// Samples of the training runs (the first n of Fashion-MNIST's training set).
  int64_t training_samples = 512;
  /// Called after each result (progress output).
  std::function<void(const ConformanceResult&)> on_result;
};

/// Runs the suite on every backend of `options` against the reference.
std::vector<ConformanceResult> run_conformance(const ConformanceOptions& options = {});

/// A Markdown table of the results: one row per case, one column per backend with the
/// difference (or FAIL / not implemented), and a summary line per backend and family.
std::string conformance_table(const std::vector<ConformanceResult>& results);

/// Per family and backend: cases, passed, and the largest difference among those that ran.
std::string conformance_summary(const std::vector<ConformanceResult>& results);

}  // namespace keras::testing

#pragma GCC visibility pop
