#pragma once
// keras.random: counter-based random draws (keras/random/philox.h), so a seed gives the same
// numbers on every backend and thread count.
//
// `seed` is as in Keras: an integer (stateless: the same numbers every call), a SeedGenerator
// (advances on every draw), or nothing (the global generator; deterministic after
// keras::utils::set_random_seed, otherwise seeded from the operating system).
//
// How every draw is defined (the contract a new backend reproduces bit for bit through its
// `random` primitive; everything else is keras::ops):
// - A draw takes exactly one (seed, counter) pair from its Seed. An integer seed s gives
//   (s, 0); a SeedGenerator gives (seed, 0), (seed, 1), ... on successive draws.
// - Distributions that need several independent streams use stream k = (seed, counter + k 2^48)
//   of that pair (stream 0 is the pair itself); a generator would need 2^48 draws to collide.
//   Everything below is computed with keras::ops from those streams.
// - normal, uniform, truncated_normal: one Normal / Uniform / TruncatedNormal primitive call,
//   then scale and shift.
// - randint: int64 Bits r (stream 0); minval + floor_mod(r, maxval - minval), then cast. The
//   modulo bias is below (maxval - minval) / 2^63.
// - dropout: float32 Uniform u of noise_shape (stream 0); an element is kept where
//   u < 1 - rate, and becomes inputs / (1 - rate) there, 0 elsewhere (rate 0 or 1 draw nothing).
// - shuffle: int64 Bits keys with x's shape, `axis` moved last (stream 0); a stable ascending
//   sort of each line gives its permutation. Every 1-d line along `axis` gets its own
//   permutation, as on Keras's JAX and NumPy backends (TensorFlow's moves whole slices).
// - categorical: Gumbel-max in float64. Uniform u of shape (batch, num_samples, classes)
//   (stream 0); sample = argmax over classes of logits - log(-log(u)) (first index on ties).
// - Rejection samplers (gamma, binomial) test a fixed number of candidates per element instead
//   of looping until acceptance: groups g = 0, 1, ... of 4 candidates, group g drawing from its
//   own streams with shape (*shape, 4) (an element's candidates side by side, so element i
//   depends on i alone, not on the shape). The first accepted candidate is taken. Groups are
//   evaluated only while some element has accepted none, which changes no value.
// - gamma (streams base .. base + 4, base 0): Marsaglia and Tsang (2000) in float64. With
//   a' = alpha (+1 when alpha < 1), d = a' - 1/3, c = 1 / sqrt(9 d), 2 groups: candidate j
//   takes a normal x_j (stream base + 2g) and a uniform u_j (stream base + 2g + 1);
//   v_j = (1 + c x_j)^3; accepted when v_j > 0 and log u_j < x_j^2 / 2 + d - d v_j + d log v_j,
//   giving d v_j. If none of the 8 is accepted (probability below 0.05^8 = 4e-11 per element)
//   the value is d. For alpha < 1 the result is multiplied by w^(1 / alpha), w = 1 - uniform
//   in (0, 1] (stream base + 4), in log space. alpha < 0 gives NaN.
// - beta: X / (X + Y) with X ~ gamma(alpha) (base 0) and Y ~ gamma(beta) (base 5), computed
//   as sigmoid(log X - log Y) so tiny parameters do not give 0/0.
// - binomial: in float64 with q = min(p, 1 - p) (the result is mirrored, n - k, when p > 0.5):
//   * n q < 10: inversion. u (stream 0); k = the number of j in 0..47 with CDF(j) < u, the
//     CDF summed from pmf(0) = (1 - q)^n by pmf(j + 1) = pmf(j) (n - j) / (j + 1) q / (1 - q),
//     capped at n (P(k > 47) < 1e-17 for a mean below 10);
//   * n q >= 10: Hormann's BTRS (transformed rejection with squeeze, 1993), 6 groups: candidate
//     j takes u_j - 1/2 (stream 1 + 2g) and v_j (stream 2 + 2g), and is accepted by the squeeze
//     or by log(v alpha / (a / us^2 + b)) <= log(pmf(k) / pmf(m)) evaluated with lgamma. If
//     none of the 24 is accepted (probability below 0.3^24 = 3e-13) the value is the mode m.
//   Parameters outside n >= 0, 0 <= p <= 1 give NaN.
// The parameters of gamma, beta and binomial carry no gradient (they are sampled through, not
// reparameterized).

#include <atomic>
#include <cstdint>
#include <optional>
#include <utility>
#include <variant>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::random {

/// A stream of seeds for successive draws: draw k uses (seed, k).
class SeedGenerator {
 public:
  /// Seeded from the global generator when `seed` is not given (so two such generators differ,
  /// and both are reproducible after keras::utils::set_random_seed).
  explicit SeedGenerator(std::optional<uint64_t> seed = std::nullopt);
  /// An independent generator with `other`'s seed and counter: both then give the same draws.
  SeedGenerator(const SeedGenerator& other);
  /// Takes `other`'s seed and counter (not shared afterwards).
  SeedGenerator& operator=(const SeedGenerator& other);

  /// The (seed, counter) pair for the next draw, advancing the counter.
  std::pair<uint64_t, uint64_t> next();
  /// The seed every draw of this generator uses (given, or taken from the global generator).
  uint64_t initial_seed() const { return seed_; }
  /// Draws taken so far.
  uint64_t counter() const { return counter_.load(); }
  /// Sets the number of draws taken, so the next draw uses (seed, `c`).
  void set_counter(uint64_t c) { counter_.store(c); }
  /// The state Keras saves (its `seed_generator_state` variable): (seed, counter).
  std::pair<uint64_t, uint64_t> state() const { return {seed_, counter_.load()}; }
  /// Restores a state saved with state(). Not safe against concurrent draws.
  void set_state(uint64_t seed, uint64_t counter);

 private:
  uint64_t seed_;
  std::atomic<uint64_t> counter_{0};
};

/// The `seed` argument: nothing, an integer, or a generator (held by reference).
class Seed {
 public:
  Seed() = default;
  /// A fixed integer seed: every draw with it gives the same numbers (negative values wrap).
  Seed(int seed) : value_(static_cast<uint64_t>(static_cast<int64_t>(seed))) {}  // NOLINT
  /// A fixed integer seed (negative values wrap to uint64).
  Seed(int64_t seed) : value_(static_cast<uint64_t>(seed)) {}  // NOLINT
  /// A fixed integer seed.
  Seed(uint64_t seed) : value_(seed) {}  // NOLINT
  /// Draws from `generator`, advancing it; the generator must outlive the Seed.
  Seed(SeedGenerator& generator) : value_(&generator) {}  // NOLINT

  /// The (seed, counter) pair a draw uses.
  std::pair<uint64_t, uint64_t> resolve() const;

 private:
  std::variant<std::monostate, uint64_t, SeedGenerator*> value_;
};

/// Normal draws with the given mean and standard deviation (dtype defaults to floatx()).
Tensor normal(const Shape& shape, double mean = 0.0, double stddev = 1.0,
              std::optional<DType> dtype = std::nullopt, const Seed& seed = {});
/// Uniform draws in [minval, maxval) (a float dtype, default floatx()).
Tensor uniform(const Shape& shape, double minval = 0.0, double maxval = 1.0,
               std::optional<DType> dtype = std::nullopt, const Seed& seed = {});
/// Normal draws truncated to two standard deviations around the mean.
Tensor truncated_normal(const Shape& shape, double mean = 0.0, double stddev = 1.0,
                        std::optional<DType> dtype = std::nullopt, const Seed& seed = {});
/// Integers drawn uniformly from [minval, maxval) (an integer dtype, default int32).
Tensor randint(const Shape& shape, int64_t minval, int64_t maxval,
               std::optional<DType> dtype = std::nullopt, const Seed& seed = {});

/// `inputs` with each element zeroed with probability `rate` and the others scaled by
/// 1 / (1 - rate). `noise_shape` (broadcastable to the input's shape; -1 entries take the
/// input's extent, Keras's None) shares one keep/drop decision along its extent-1 axes.
/// Differentiable in `inputs`.
Tensor dropout(const Tensor& inputs, double rate,
               const std::optional<Shape>& noise_shape = std::nullopt, const Seed& seed = {});
/// `x` with every 1-d line along `axis` permuted uniformly at random. Differentiable.
Tensor shuffle(const Tensor& x, int axis = 0, const Seed& seed = {});
/// Class indices drawn from each row of `logits` (batch, num_classes), unnormalized
/// log-probabilities: shape (batch, num_samples), dtype default int32.
Tensor categorical(const Tensor& logits, int64_t num_samples,
                   std::optional<DType> dtype = std::nullopt, const Seed& seed = {});
/// Gamma(alpha, 1) draws; alpha is a number or a tensor broadcastable to `shape`.
Tensor gamma(const Shape& shape, const Tensor& alpha, std::optional<DType> dtype = std::nullopt,
             const Seed& seed = {});
/// Beta(alpha, beta) draws in [0, 1]; alpha and beta broadcast to `shape`.
Tensor beta(const Shape& shape, const Tensor& alpha, const Tensor& beta,
            std::optional<DType> dtype = std::nullopt, const Seed& seed = {});
/// Binomial(counts, probabilities) draws (number of successes, as a float dtype, default
/// floatx()); counts and probabilities broadcast to `shape`.
Tensor binomial(const Shape& shape, const Tensor& counts, const Tensor& probabilities,
                std::optional<DType> dtype = std::nullopt, const Seed& seed = {});

}  // namespace keras::random

namespace keras::utils {

/// Seeds the global generator, making seedless draws (and everything built on them)
/// reproducible, as keras.utils.set_random_seed does.
void set_random_seed(uint64_t seed);

}  // namespace keras::utils

#pragma GCC visibility pop
