// ctc_decode(strategy="beam_search"): Keras 3.15's prefix beam search
// (keras/src/backend/jax/nn.py, _ctc_beam_search_decode), step for step on the host so that the
// same paths win, ties included:
//   - the classes are flipped (class c becomes C - 1 - c) so that ties break as TensorFlow's
//     decoder does, and flipped back at the end;
//   - 2 * beam_width paths (each once ending in a label, once in a blank) are extended by every
//     class; a repeated label extends the path only after a blank;
//   - equal paths merge (log-sum-exp of their scores, in float32 as Keras), sorted as
//     jnp.unique sorts rows, and the beam_width best (a stable ascending argsort's tail) go on;
//   - steps past a sequence's length leave its beam as it is.
// Paths are int32, padded with -1; scores float32.

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <vector>

#include "keras/backend/backend.h"
#include "keras/ops/ops.h"
#include "ops/nn/ctc_beam_search.h"

namespace keras::ops::detail {
namespace {

constexpr int32_t kPad = -1;
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

using Path = std::vector<int32_t>;

// Indices of `values` sorted ascending, ties in index order (jnp.argsort is stable).
std::vector<int64_t> stable_argsort(const std::vector<float>& values) {
  std::vector<int64_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return values[a] < values[b]; });
  return order;
}

// jnp.unique(paths, axis=0, return_inverse=True, size=size, fill_value=-1): the distinct paths
// in lexicographic order, padded with all -1 paths to `size`, and each input path's position.
std::pair<std::vector<Path>, std::vector<int64_t>> unique_paths(const std::vector<Path>& paths,
                                                                size_t size, size_t length) {
  std::map<Path, int64_t> index;
  for (const Path& p : paths) index.emplace(p, 0);
  std::vector<Path> unique;
  for (auto& [p, i] : index) {
    i = static_cast<int64_t>(unique.size());
    unique.push_back(p);
  }
  std::vector<int64_t> inverse;
  inverse.reserve(paths.size());
  for (const Path& p : paths) inverse.push_back(index.at(p));
  unique.resize(std::max(size, unique.size()), Path(length, kPad));
  return {std::move(unique), std::move(inverse)};
}

// Keras's _merge_scores: log(sum over equal paths of exp(score - max)) + max, into an array of
// `size` entries (-inf where no path went).
std::vector<float> merge_scores(const std::vector<int64_t>& inverse,
                                const std::vector<float>& scores, size_t size) {
  const float top = *std::max_element(scores.begin(), scores.end());
  std::vector<float> sums(size, 0.0f);
  for (size_t i = 0; i < scores.size(); ++i)
    sums[static_cast<size_t>(inverse[i])] += std::exp(scores[i] - top);
  for (float& s : sums) s = std::log(s) + top;
  return sums;
}

float logaddexp(float a, float b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  const float m = std::max(a, b);
  return m + std::log1p(std::exp(-std::abs(a - b)));
}

struct Beam {
  std::vector<Path> paths;
  std::vector<float> scores;
  std::vector<bool> masked;  // the path's last step was a blank
};

class BeamSearch {
 public:
  BeamSearch(int64_t steps, int64_t classes, int64_t beam_width, int64_t mask)
      : steps_(steps), classes_(classes), width_(beam_width), mask_(mask) {}

  // One sequence: x (steps, classes) log-probabilities with flipped classes.
  Beam decode(const float* x, int64_t length) const {
    Beam beam = initial(x);
    for (int64_t t = 1; t < steps_; ++t)
      if (t < length) beam = prune(extend(beam, x + t * classes_));
    return beam;
  }

 private:
  Beam initial(const float* x0) const {
    const size_t n = static_cast<size_t>(2 * width_);
    Beam beam{std::vector<Path>(n, Path(static_cast<size_t>(steps_), kPad)),
              std::vector<float>(n, kNegInf), std::vector<bool>(n)};
    const int64_t count = std::min(classes_, width_);
    const std::vector<int64_t> order = stable_argsort(std::vector<float>(x0, x0 + classes_));
    for (int64_t i = 0; i < count; ++i) {
      const int64_t c = order[static_cast<size_t>(classes_ - count + i)];
      beam.paths[static_cast<size_t>(i)][0] = c == mask_ ? kPad : static_cast<int32_t>(c);
      beam.scores[static_cast<size_t>(i)] = x0[c];
    }
    for (size_t i = 0; i < n; ++i) beam.masked[i] = beam.paths[i][0] == kPad;
    return beam;
  }

  // Keras's _extend_paths: every path by every class.
  Beam extend(const Beam& beam, const float* xt) const {
    Beam out;
    for (size_t p = 0; p < beam.paths.size(); ++p) {
      const Path& path = beam.paths[p];
      // argmax(path == -1): the first free slot (0 when there is none).
      const auto free = std::find(path.begin(), path.end(), kPad);
      const size_t tail = free == path.end() ? 0 : static_cast<size_t>(free - path.begin());
      const int32_t last = tail == 0 ? kPad : path[tail - 1];
      for (int64_t c = 0; c < classes_; ++c) {
        int32_t cls = c == mask_ ? kPad : static_cast<int32_t>(c);
        const bool masked = cls == kPad;
        if (!beam.masked[p] && last == cls) cls = kPad;  // a repeat needs a blank between
        Path next = path;
        next[tail] = cls;
        out.paths.push_back(std::move(next));
        out.scores.push_back(beam.scores[p] + xt[c]);
        out.masked.push_back(masked);
      }
    }
    return out;
  }

  // Keras's _prune_paths: merge equal paths, keep the beam_width best.
  Beam prune(const Beam& beam) const {
    const size_t n = beam.paths.size();
    auto [unique, inverse] = unique_paths(beam.paths, n, static_cast<size_t>(steps_));
    std::vector<float> emit(n), blank(n);
    for (size_t i = 0; i < n; ++i) {
      emit[i] = beam.masked[i] ? kNegInf : beam.scores[i];
      blank[i] = beam.masked[i] ? beam.scores[i] : kNegInf;
    }
    emit = merge_scores(inverse, emit, unique.size());
    blank = merge_scores(inverse, blank, unique.size());
    std::vector<float> total(unique.size());
    for (size_t i = 0; i < total.size(); ++i) total[i] = logaddexp(emit[i], blank[i]);
    const std::vector<int64_t> order = stable_argsort(total);
    const std::vector<int64_t> top(order.end() - width_, order.end());
    Beam out;
    for (int half = 0; half < 2; ++half)
      for (int64_t i : top) {
        out.paths.push_back(unique[static_cast<size_t>(i)]);
        out.scores.push_back(half == 0 ? emit[static_cast<size_t>(i)]
                                       : blank[static_cast<size_t>(i)]);
        out.masked.push_back(half == 1);
      }
    return out;
  }

  int64_t steps_, classes_, width_, mask_;
};

}  // namespace

std::pair<Tensor, Tensor> ctc_beam_search_decode(const Tensor& inputs,
                                                 const Tensor& sequence_lengths,
                                                 int64_t beam_width, int64_t top_paths,
                                                 int64_t mask_index) {
  const int64_t batch = inputs.shape()[0], steps = inputs.shape()[1],
                classes = inputs.shape()[2];
  check(beam_width > 0, "ctc_decode: beam_width must be a positive integer; got ", beam_width,
        ".");
  check(top_paths > 0 && top_paths <= 2 * beam_width, "ctc_decode: top_paths must be in [1, ",
        2 * beam_width, "] (2 * beam_width); got ", top_paths, ".");
  check(steps > 0, "ctc_decode: beam search needs at least one step; got inputs of shape ",
        inputs.shape(), ".");
  const std::vector<float> logp =
      ops::log_softmax(ops::cast(inputs, DType::Float32), -1).to_vector<float>();
  const std::vector<int64_t> lengths =
      ops::cast(sequence_lengths, DType::Int64).to_vector<int64_t>();
  const BeamSearch search(steps, classes, beam_width, classes - 1 - mask_index);

  std::vector<int32_t> decoded(static_cast<size_t>(top_paths * batch * steps), kPad);
  std::vector<float> scores(static_cast<size_t>(batch * top_paths));
  std::vector<float> flipped(static_cast<size_t>(steps * classes));
  for (int64_t b = 0; b < batch; ++b) {
    const float* x = logp.data() + b * steps * classes;
    for (int64_t t = 0; t < steps; ++t)
      for (int64_t c = 0; c < classes; ++c)
        flipped[static_cast<size_t>(t * classes + c)] = x[t * classes + classes - 1 - c];
    const Beam beam = search.decode(flipped.data(), lengths[static_cast<size_t>(b)]);
    // The final merge: the 2 * beam_width paths, merged into that many scores.
    auto [unique, inverse] =
        unique_paths(beam.paths, static_cast<size_t>(2 * classes * beam_width),
                     static_cast<size_t>(steps));
    const std::vector<float> merged = merge_scores(inverse, beam.scores, beam.scores.size());
    const std::vector<int64_t> order = stable_argsort(merged);
    for (int64_t k = 0; k < top_paths; ++k) {
      const size_t i = static_cast<size_t>(order[order.size() - 1 - static_cast<size_t>(k)]);
      scores[static_cast<size_t>(b * top_paths + k)] = merged[i];
      for (int64_t t = 0; t < steps; ++t) {
        const int32_t c = unique[i][static_cast<size_t>(t)];
        decoded[static_cast<size_t>((k * batch + b) * steps + t)] =
            c == kPad ? kPad : static_cast<int32_t>(classes - 1 - c);
      }
    }
  }
  const std::string_view backend = inputs.backend().name();
  return {Tensor::from_vector(decoded, Shape{top_paths, batch, steps}, backend),
          Tensor::from_vector(scores, Shape{batch, top_paths}, backend)};
}

}  // namespace keras::ops::detail
