#pragma once
// Keras's small data helpers: to_categorical, normalize, pad_sequences and split_dataset.
//
//   keras::Tensor y1h = keras::utils::to_categorical(y, 10);
//   keras::Tensor ids = keras::utils::pad_sequences({{1}, {2, 3}, {4, 5, 6}});  // (3, 3) int32
//   auto [train, val] = keras::utils::split_dataset(ds, {.left_size = 0.8});

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "keras/core/dtype.h"
#include "keras/data/dataset.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::utils {

/// Integer class labels to one-hot rows (floatx); the class axis is last and a trailing axis
/// of size 1 is dropped, as Keras. num_classes defaults to max(x) + 1.
Tensor to_categorical(const Tensor& x, std::optional<int64_t> num_classes = std::nullopt);

/// x divided by its `order`-norm along `axis` (zero norms leave the values unchanged).
Tensor normalize(const Tensor& x, int axis = -1, double order = 2);

/// pad_sequences's keyword arguments (keras.utils.pad_sequences).
struct PadSequencesOptions {
  /// The output length; default the longest sequence.
  std::optional<int64_t> maxlen;
  /// The output's dtype.
  DType dtype = DType::Int32;
  /// "pre" or "post": where the padding goes.
  std::string padding = "pre";
  /// "pre" or "post": which end of a longer sequence is cut.
  std::string truncating = "pre";
  /// The padding value.
  double value = 0.0;
};

/// Pads (and truncates) sequences to one length: a (num_samples, maxlen) tensor.
Tensor pad_sequences(const std::vector<std::vector<double>>& sequences,
                     const PadSequencesOptions& options = {});
/// The same for sequences of any arithmetic type (token ids as int, int64_t, ...).
template <typename T>
requires(!std::is_same_v<T, double>) Tensor
    pad_sequences(const std::vector<std::vector<T>>& sequences,
                  const PadSequencesOptions& options = {}) {
  std::vector<std::vector<double>> as_double;
  as_double.reserve(sequences.size());
  for (const auto& s : sequences) as_double.emplace_back(s.begin(), s.end());
  return pad_sequences(as_double, options);
}

/// split_dataset's sizes: a count (an integer) or a fraction of the elements (a double in
/// (0, 1)); std::monostate for Keras's None (the complement of the other side).
using SplitSize = std::variant<std::monostate, int64_t, double>;

/// split_dataset's keyword arguments (keras.utils.split_dataset); at least one size must be given.
struct SplitDatasetOptions {
  /// The size of the first dataset; None means the complement of right_size.
  SplitSize left_size;
  /// The size of the second dataset; None means the complement of left_size.
  SplitSize right_size;
  /// Whether to shuffle the elements before splitting.
  bool shuffle = false;
  /// The shuffle's seed; unset draws one from the global generator.
  std::optional<uint64_t> seed;
};

/// Splits an unbatched dataset in two, as keras.utils.split_dataset: the first left_size
/// elements and the last right_size elements (after an optional seeded shuffle), each as a
/// Dataset of known cardinality.
std::pair<data::Dataset, data::Dataset> split_dataset(const data::Dataset& dataset,
                                                      const SplitDatasetOptions& options);

}  // namespace keras::utils

#pragma GCC visibility pop
