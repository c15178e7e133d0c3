// Seeds (SeedGenerator, Seed, the global generator), the draws straight from the primitive
// (normal, uniform, truncated_normal, randint) and the helpers every distribution shares.

#include "keras/random/random.h"

#include <limits>
#include <mutex>
#include <random>

#include "keras/backend/registry.h"
#include "keras/core/config.h"
#include "keras/ops/ops.h"
#include "keras/random/philox.h"
#include "ops/detail/op_utils.h"
#include "random/draw.h"
#include "random/replica_streams.h"
#include "keras/backend/trace_hook.h"

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

// A fresh 64-bit seed from one draw of the global generator: its first two words.
uint64_t derived_seed() {
  auto [seed, counter] = global_next();
  return philox::word(seed, counter, 0) | (uint64_t{philox::word(seed, counter, 1)} << 32);
}

Tensor scale_shift(const Tensor& x, double scale, double shift) {
  Tensor y = scale == 1.0 ? x : ops::multiply(x, scale);
  return shift == 0.0 ? y : ops::add(y, shift);
}

// The range of an integer dtype.
std::pair<int64_t, int64_t> int_range(DType t) {
  switch (t) {
    case DType::Int8: return {std::numeric_limits<int8_t>::min(), std::numeric_limits<int8_t>::max()};
    case DType::Int16:
      return {std::numeric_limits<int16_t>::min(), std::numeric_limits<int16_t>::max()};
    case DType::Int32:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    case DType::UInt8: return {0, std::numeric_limits<uint8_t>::max()};
    default: return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
}

}  // namespace

// ---- seeds -------------------------------------------------------------------------------------

namespace {

// This thread's replica stream (replica_streams.h): 0 outside a data-parallel step.
thread_local uint64_t stream_salt = 0;

std::pair<uint64_t, uint64_t> salted(std::pair<uint64_t, uint64_t> pair) {
  pair.first ^= stream_salt;
  return pair;
}

}  // namespace

namespace detail {

ReplicaStreamScope::ReplicaStreamScope(int replica) : previous_(stream_salt) {
  // Replica 0 keeps the single-process stream; the others get a seed offset that no small
  // difference of seeds reproduces (splitmix64's increment times the replica).
  stream_salt = static_cast<uint64_t>(replica) * 0x9E3779B97F4A7C15ull;
}

ReplicaStreamScope::~ReplicaStreamScope() { stream_salt = previous_; }

}  // namespace detail

SeedGenerator::SeedGenerator(std::optional<uint64_t> seed)
    : seed_(seed ? *seed : derived_seed()) {}

SeedGenerator::SeedGenerator(const SeedGenerator& other)
    : seed_(other.seed_), counter_(other.counter_.load()) {}

SeedGenerator& SeedGenerator::operator=(const SeedGenerator& other) {
  seed_ = other.seed_;
  counter_.store(other.counter_.load());
  return *this;
}

std::pair<uint64_t, uint64_t> SeedGenerator::next() { return {seed_, counter_.fetch_add(1)}; }

void SeedGenerator::set_state(uint64_t seed, uint64_t counter) {
  seed_ = seed;
  counter_.store(counter);
}

std::pair<uint64_t, uint64_t> Seed::resolve() const {
  if (auto* s = std::get_if<uint64_t>(&value_)) return {*s, 0};
  SeedGenerator* const* generator = std::get_if<SeedGenerator*>(&value_);
  const auto pair = salted(generator ? (*generator)->next() : global_next());
  // A trace ties the draw to its source, so a replay takes the next numbers from it too.
  if (auto* o = backend::detail::front_end_observer()) {
    std::function<std::pair<uint64_t, uint64_t>()> redraw = [] { return salted(global_next()); };
    if (generator) redraw = [gen = *generator] { return salted(gen->next()); };
    o->on_draw(pair.first, pair.second, std::move(redraw));
  }
  return pair;
}

// ---- shared helpers ----------------------------------------------------------------------------

namespace detail {

DrawKey DrawKey::from(const Seed& seed) {
  auto [s, counter] = seed.resolve();
  return DrawKey{s, counter};
}

Tensor DrawKey::stream(backend::RandomKind kind, const Shape& shape, DType dtype,
                       backend::Backend& backend, uint64_t k) const {
  Tensor out = ops::detail::empty(shape, dtype, backend);
  if (out.size() > 0) backend.random(out.array(), kind, seed, counter + (k << 48));
  return out;
}

DType float_dtype(std::string_view op, std::optional<DType> dtype) {
  DType t = dtype.value_or(config::floatx());
  check(is_floating(t), op, " requires a floating point dtype; got dtype ", t, ".");
  return t;
}

Tensor param_to_shape(std::string_view op, std::string_view name, const Tensor& param,
                      const Shape& shape, backend::Backend& backend) {
  check(param.defined(), op, ": `", name, "` is an undefined tensor.");
  Tensor p = ops::stop_gradient(ops::detail::prepare(param, DType::Float64, backend));
  Shape joined = ops::detail::broadcast_shapes(op, p.shape(), shape);
  check(joined == shape, op, ": `", name, "` of shape ", p.shape(),
        " does not broadcast to the requested shape ", shape, ".");
  return ops::broadcast_to(p, shape);
}

}  // namespace detail

// ---- draws straight from the primitive ---------------------------------------------------------

Tensor normal(const Shape& shape, double mean, double stddev, std::optional<DType> dtype,
              const Seed& seed) {
  DType t = detail::float_dtype("random::normal", dtype);
  Tensor z = detail::DrawKey::from(seed).stream(backend::RandomKind::Normal, shape, t,
                                                backend::current());
  return scale_shift(z, stddev, mean);
}

Tensor uniform(const Shape& shape, double minval, double maxval, std::optional<DType> dtype,
               const Seed& seed) {
  DType t = detail::float_dtype("random::uniform", dtype);
  check(maxval >= minval, "random::uniform: maxval (", maxval, ") must be >= minval (", minval,
        ").");
  Tensor u = detail::DrawKey::from(seed).stream(backend::RandomKind::Uniform, shape, t,
                                                backend::current());
  return scale_shift(u, maxval - minval, minval);
}

Tensor truncated_normal(const Shape& shape, double mean, double stddev,
                        std::optional<DType> dtype, const Seed& seed) {
  DType t = detail::float_dtype("random::truncated_normal", dtype);
  Tensor z = detail::DrawKey::from(seed).stream(backend::RandomKind::TruncatedNormal, shape, t,
                                                backend::current());
  return scale_shift(z, stddev, mean);
}

Tensor randint(const Shape& shape, int64_t minval, int64_t maxval, std::optional<DType> dtype,
               const Seed& seed) {
  constexpr std::string_view op = "random::randint";
  DType t = dtype.value_or(DType::Int32);
  check(is_integer(t), op, " requires an integer dtype; got dtype ", t, ".");
  check(minval < maxval, op, ": maxval (", maxval, ") must be greater than minval (", minval,
        ").");
  auto [lo, hi] = int_range(t);
  check(minval >= lo && maxval - 1 <= hi, op, ": the range [", minval, ", ", maxval,
        ") does not fit dtype ", t, " (values ", lo, " to ", hi, ").");
  const uint64_t span = static_cast<uint64_t>(maxval) - static_cast<uint64_t>(minval);
  check(span <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()), op,
        ": maxval - minval must be below 2^63; got [", minval, ", ", maxval, ").");
  auto& be = backend::current();
  Tensor bits = detail::DrawKey::from(seed).stream(backend::RandomKind::Bits, shape,
                                                   DType::Int64, be);
  using backend::BinaryOp;
  auto int64_scalar = [&](int64_t v) {
    return ops::detail::scalar_tensor(Scalar::typed_int(v, DType::Int64), DType::Int64, be);
  };
  Tensor offset = ops::detail::run_binary(BinaryOp::Mod, bits,
                                          int64_scalar(static_cast<int64_t>(span)));
  if (minval != 0) offset = ops::detail::run_binary(BinaryOp::Add, offset, int64_scalar(minval));
  return t == DType::Int64 ? offset : ops::detail::run_copy(offset, t);
}

}  // namespace keras::random

namespace keras::utils {

void set_random_seed(uint64_t seed) {
  auto& g = random::global();
  std::lock_guard<std::mutex> lock(g.mutex);
  g.generator.emplace(seed);
}

}  // namespace keras::utils
