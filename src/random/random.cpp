#include "keras/random/random.h"

#include <mutex>
#include <random>

#include "keras/backend/registry.h"
#include "keras/core/config.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"

namespace keras::random {
namespace {

struct GlobalGenerator {
  std::mutex mutex;
  std::optional<SeedGenerator> generator;
};

GlobalGenerator& global() {
  static GlobalGenerator* g = new GlobalGenerator();
  return *g;
}

uint64_t os_seed() {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

// Every draw of the global generator (and every seedless generator) comes from here.
std::pair<uint64_t, uint64_t> global_next() {
  GlobalGenerator& g = global();
  std::lock_guard<std::mutex> lock(g.mutex);
  if (!g.generator) g.generator.emplace(os_seed());
  return g.generator->next();
}

Tensor draw(backend::RandomKind kind, const Shape& shape, DType dtype, const Seed& seed) {
  auto [s, counter] = seed.resolve();
  auto& b = backend::current();
  Tensor out = ops::detail::empty(shape, dtype, b);
  if (out.size() > 0) b.random(out.array(), kind, s, counter);
  return out;
}

DType float_dtype(std::string_view op, std::optional<DType> dtype) {
  DType t = dtype.value_or(config::floatx());
  check<TypeError>(is_floating(t), op, ": dtype must be a float type; got ", t, ".");
  return t;
}

Tensor scale_shift(const Tensor& x, double scale, double shift) {
  Tensor y = scale == 1.0 ? x : ops::multiply(x, scale);
  return shift == 0.0 ? y : ops::add(y, shift);
}

}  // namespace

SeedGenerator::SeedGenerator(std::optional<uint64_t> seed)
    : seed_(seed ? *seed : global_next().first ^ 0x9E3779B97F4A7C15ull) {}

SeedGenerator::SeedGenerator(const SeedGenerator& other)
    : seed_(other.seed_), counter_(other.counter_.load()) {}

SeedGenerator& SeedGenerator::operator=(const SeedGenerator& other) {
  seed_ = other.seed_;
  counter_.store(other.counter_.load());
  return *this;
}

std::pair<uint64_t, uint64_t> SeedGenerator::next() { return {seed_, counter_.fetch_add(1)}; }

std::pair<uint64_t, uint64_t> Seed::resolve() const {
  if (auto* s = std::get_if<uint64_t>(&value_)) return {*s, 0};
  if (auto* g = std::get_if<SeedGenerator*>(&value_)) return (*g)->next();
  return global_next();
}

Tensor normal(const Shape& shape, double mean, double stddev, std::optional<DType> dtype,
              const Seed& seed) {
  DType t = float_dtype("random::normal", dtype);
  return scale_shift(draw(backend::RandomKind::Normal, shape, t, seed), stddev, mean);
}

Tensor uniform(const Shape& shape, double minval, double maxval, std::optional<DType> dtype,
               const Seed& seed) {
  DType t = float_dtype("random::uniform", dtype);
  check(maxval >= minval, "random::uniform: maxval (", maxval, ") must be >= minval (", minval,
        ").");
  return scale_shift(draw(backend::RandomKind::Uniform, shape, t, seed), maxval - minval, minval);
}

Tensor truncated_normal(const Shape& shape, double mean, double stddev,
                        std::optional<DType> dtype, const Seed& seed) {
  DType t = float_dtype("random::truncated_normal", dtype);
  return scale_shift(draw(backend::RandomKind::TruncatedNormal, shape, t, seed), stddev, mean);
}

}  // namespace keras::random

namespace keras::utils {

void set_random_seed(uint64_t seed) {
  auto& g = random::global();
  std::lock_guard<std::mutex> lock(g.mutex);
  g.generator.emplace(seed);
}

}  // namespace keras::utils
