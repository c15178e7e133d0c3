#pragma once
// keras.random: counter-based random draws (keras/random/philox.h), so a seed gives the same
// numbers on every backend and thread count.
//
// `seed` is as in Keras: an integer (stateless: the same numbers every call), a SeedGenerator
// (advances on every draw), or nothing (the global generator; deterministic after
// keras::utils::set_random_seed, otherwise seeded from the operating system).

#include <atomic>
#include <cstdint>
#include <optional>
#include <variant>

#include "keras/tensor/tensor.h"

namespace keras::random {

/// A stream of seeds for successive draws: draw k uses (seed, k).
class SeedGenerator {
 public:
  /// Seeded from the global generator when `seed` is not given.
  explicit SeedGenerator(std::optional<uint64_t> seed = std::nullopt);
  SeedGenerator(const SeedGenerator& other);
  SeedGenerator& operator=(const SeedGenerator& other);

  /// The (seed, counter) pair for the next draw, advancing the counter.
  std::pair<uint64_t, uint64_t> next();
  uint64_t initial_seed() const { return seed_; }
  /// Draws taken so far (the state Keras saves).
  uint64_t counter() const { return counter_.load(); }
  void set_counter(uint64_t c) { counter_.store(c); }

 private:
  uint64_t seed_;
  std::atomic<uint64_t> counter_{0};
};

/// The `seed` argument: nothing, an integer, or a generator (held by reference).
class Seed {
 public:
  Seed() = default;
  Seed(int seed) : value_(static_cast<uint64_t>(static_cast<int64_t>(seed))) {}  // NOLINT
  Seed(int64_t seed) : value_(static_cast<uint64_t>(seed)) {}  // NOLINT
  Seed(uint64_t seed) : value_(seed) {}  // NOLINT
  Seed(SeedGenerator& generator) : value_(&generator) {}  // NOLINT

  /// The (seed, counter) pair a draw uses.
  std::pair<uint64_t, uint64_t> resolve() const;

 private:
  std::variant<std::monostate, uint64_t, SeedGenerator*> value_;
};

/// Normal draws with the given mean and standard deviation (dtype defaults to floatx()).
Tensor normal(const Shape& shape, double mean = 0.0, double stddev = 1.0,
              std::optional<DType> dtype = std::nullopt, const Seed& seed = {});
/// Uniform draws in [minval, maxval).
Tensor uniform(const Shape& shape, double minval = 0.0, double maxval = 1.0,
               std::optional<DType> dtype = std::nullopt, const Seed& seed = {});
/// Normal draws truncated to two standard deviations around the mean.
Tensor truncated_normal(const Shape& shape, double mean = 0.0, double stddev = 1.0,
                        std::optional<DType> dtype = std::nullopt, const Seed& seed = {});

}  // namespace keras::random

namespace keras::utils {

/// Seeds the global generator, making seedless draws (and everything built on them)
/// reproducible, as keras.utils.set_random_seed does.
void set_random_seed(uint64_t seed);

}  // namespace keras::utils
