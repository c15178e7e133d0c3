// to_categorical, normalize, pad_sequences and split_dataset with Keras's rules
// (keras/src/utils/numerical_utils.py, sequence_utils.py, dataset_utils.py).

#include "keras/utils/data_utils.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "keras/core/config.h"
#include "keras/core/errors.h"
#include "keras/ops/ops.h"
#include "keras/random/random.h"

namespace keras::utils {

Tensor to_categorical(const Tensor& x, std::optional<int64_t> num_classes) {
  Shape shape = x.shape();
  // Keras drops a trailing axis of size 1: labels (n, 1) give (n, classes).
  if (shape.size() > 1 && shape.back() == 1) shape.pop_back();
  std::vector<double> labels = ops::cast(x, DType::Float64).to_vector<double>();
  int64_t classes = 0;
  for (double v : labels) {
    check(v >= 0 && v == std::floor(v), "to_categorical: labels must be integers >= 0; got ", v,
          ".");
    classes = std::max(classes, static_cast<int64_t>(v) + 1);
  }
  if (num_classes) {
    check(*num_classes >= 1, "to_categorical: num_classes must be positive; got ", *num_classes,
          ".");
    check(classes <= *num_classes, "to_categorical: label ", classes - 1,
          " is out of range for num_classes=", *num_classes, ".");
    classes = *num_classes;
  }
  std::vector<float> out(labels.size() * static_cast<size_t>(classes), 0.0f);
  for (size_t i = 0; i < labels.size(); ++i)
    out[i * static_cast<size_t>(classes) + static_cast<size_t>(labels[i])] = 1.0f;
  shape.push_back(classes);
  return ops::cast(Tensor::from_vector(out, shape), config::floatx());
}

Tensor normalize(const Tensor& x, int axis, double order) {
  Tensor norm = ops::norm(x, order, {axis}, /*keepdims=*/true);
  // As Keras's NumPy path: a zero norm divides by 1, leaving zeros as they are.
  Tensor safe = ops::where(ops::equal(norm, ops::zeros_like(norm)), ops::ones_like(norm), norm);
  return ops::divide(x, safe);
}

Tensor pad_sequences(const std::vector<std::vector<double>>& sequences,
                     const PadSequencesOptions& o) {
  check(o.padding == "pre" || o.padding == "post",
        "pad_sequences: padding must be \"pre\" or "
        "\"post\"; got \"",
        o.padding, "\".");
  check(o.truncating == "pre" || o.truncating == "post",
        "pad_sequences: truncating must be "
        "\"pre\" or \"post\"; got \"",
        o.truncating, "\".");
  int64_t maxlen = 0;
  for (const auto& s : sequences)
    maxlen = std::max<int64_t>(maxlen, static_cast<int64_t>(s.size()));
  if (o.maxlen) {
    check(*o.maxlen >= 0, "pad_sequences: maxlen must be >= 0; got ", *o.maxlen, ".");
    maxlen = *o.maxlen;
  }
  const int64_t n = static_cast<int64_t>(sequences.size());
  std::vector<double> out(static_cast<size_t>(n * maxlen), o.value);
  for (int64_t i = 0; i < n; ++i) {
    const auto& s = sequences[static_cast<size_t>(i)];
    int64_t len = std::min<int64_t>(maxlen, static_cast<int64_t>(s.size()));
    // The kept part: the last `len` values ("pre" truncation) or the first.
    auto from = o.truncating == "pre" ? s.end() - len : s.begin();
    int64_t at = o.padding == "pre" ? maxlen - len : 0;
    std::copy(from, from + len, out.begin() + i * maxlen + at);
  }
  return ops::cast(Tensor::from_vector(out, {n, maxlen}), o.dtype);
}

namespace {

std::string size_text(const SplitSize& s) {
  if (std::holds_alternative<int64_t>(s)) return std::to_string(std::get<int64_t>(s));
  if (std::holds_alternative<double>(s)) return std::to_string(std::get<double>(s));
  return "None";
}

// Keras's _rescale_dataset_split_sizes: counts from counts or fractions, with its checks.
std::pair<int64_t, int64_t> split_sizes(const SplitSize& left, const SplitSize& right,
                                        int64_t total) {
  auto resolve = [&](const SplitSize& s, const char* side) -> std::optional<double> {
    if (auto* count = std::get_if<int64_t>(&s)) {
      check(*count > 0 && *count < total, "split_dataset: ", side,
            "_size should be a positive integer smaller than ", total,
            " or a fraction in (0, 1); got ", *count, ".");
      return static_cast<double>(*count);
    }
    if (auto* fraction = std::get_if<double>(&s)) {
      check(*fraction > 0 && *fraction < 1, "split_dataset: ", side,
            "_size should be a positive integer smaller than ", total,
            " or a fraction in (0, 1); got ", *fraction, ".");
      // Python's round(): halves go to the even neighbour, as nearbyint does by default.
      return std::nearbyint(*fraction * static_cast<double>(total));
    }
    return std::nullopt;
  };
  check(!(std::holds_alternative<std::monostate>(left) &&
          std::holds_alternative<std::monostate>(right)),
        "split_dataset: at least one of left_size and right_size must be given.");
  if (std::holds_alternative<double>(left) && std::holds_alternative<double>(right))
    check(std::get<double>(left) + std::get<double>(right) <= 1,
          "split_dataset: left_size + right_size is greater than 1; got ", size_text(left), " + ",
          size_text(right), ".");
  std::optional<double> l = resolve(left, "left"), r = resolve(right, "right");
  double lv = l ? *l : static_cast<double>(total) - *r;
  double rv = r ? *r : static_cast<double>(total) - *l;
  check(lv + rv <= static_cast<double>(total), "split_dataset: left_size + right_size = ", lv + rv,
        " is more than the ", total, " elements.");
  check(lv > 0 && rv > 0, "split_dataset: with ", total, " elements, left_size=", size_text(left),
        " and right_size=", size_text(right), " leave the ", lv == 0 ? "left" : "right",
        " split empty.");
  return {static_cast<int64_t>(lv), static_cast<int64_t>(rv)};
}

TensorStruct stack_field(const std::vector<data::Element>& elements, size_t begin, size_t end,
                         TensorStruct data::Element::*field) {
  const TensorStruct& first = elements[begin].*field;
  if (!first.defined()) return first;
  std::vector<TensorList> columns(first.flat().size());
  for (size_t i = begin; i < end; ++i) {
    TensorList flat = (elements[i].*field).flat();
    for (size_t k = 0; k < columns.size(); ++k) columns[k].push_back(flat.at(k));
  }
  TensorList stacked;
  for (const TensorList& c : columns) stacked.push_back(ops::stack(c, 0));
  return first.with_flat(stacked);
}

data::Dataset slices_of(const std::vector<data::Element>& elements, size_t begin, size_t end) {
  return data::Dataset::from_tensor_slices(
      stack_field(elements, begin, end, &data::Element::x),
      stack_field(elements, begin, end, &data::Element::y),
      stack_field(elements, begin, end, &data::Element::sample_weight));
}

}  // namespace

std::pair<data::Dataset, data::Dataset> split_dataset(const data::Dataset& dataset,
                                                      const SplitDatasetOptions& o) {
  check(dataset.cardinality() != data::INFINITE,
        "split_dataset: the dataset repeats forever; split a finite one (use take(n)).");
  std::vector<data::Element> elements;
  for (const data::Element& e : dataset) elements.push_back(e);
  const auto total = static_cast<int64_t>(elements.size());
  check(total > 0, "split_dataset: the dataset is empty.");
  if (o.shuffle) {
    std::mt19937_64 rng(o.seed ? *o.seed : random::SeedGenerator().initial_seed());
    std::shuffle(elements.begin(), elements.end(), rng);
  }
  auto [left, right] = split_sizes(o.left_size, o.right_size, total);
  return {slices_of(elements, 0, static_cast<size_t>(left)),
          slices_of(elements, static_cast<size_t>(total - right), static_cast<size_t>(total))};
}

}  // namespace keras::utils
