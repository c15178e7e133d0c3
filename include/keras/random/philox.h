#pragma once
// The random number generator of keras-cpp: Philox4x32-10 (Salmon et al., "Parallel Random
// Numbers: As Easy as 1, 2, 3", SC 2011), counter-based, so element i of a draw is a pure
// function of (seed, counter, i). Every backend produces the same numbers from it, in any
// order and on any number of threads (the cuda backend runs these functions on the device:
// KERAS_HOST_DEVICE).
//
// Layout: the key is the 64-bit seed (low word k0, high word k1). Word w of a draw comes from
// block w / 4, lane w % 4, where block b runs Philox on the counter (lo(b), hi(b), lo(counter),
// hi(counter)). An element takes one word (32-bit outputs, float16/bfloat16/float32) or two
// (64-bit outputs), starting at word i * words_per_element:
//   Bits            the word(s), truncated to the output width;
//   Uniform         [0, 1) from the top mantissa-many bits: float32 w >> 8 scaled by 2^-24,
//                   float16 w >> 21 by 2^-11, bfloat16 w >> 24 by 2^-8, float64 53 bits;
//   Normal          Box-Muller in double over element pairs (2j, 2j+1): u1 from pair word 0
//                   (in (0, 1]), u2 from pair word 1; z = sqrt(-2 ln u1) (cos, sin)(2 pi u2);
//                   float64 uses two words per uniform;
//   TruncatedNormal inverse CDF in double: u in (0, 1) mapped into [Phi(-2), Phi(2)], then
//                   sqrt(2) erfinv(2u - 1); the values lie in [-2, 2].

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "keras/core/erfinv.h"
#include "keras/core/half.h"
#include "keras/core/host_device.h"

#pragma GCC visibility push(default)
namespace keras::random::philox {

/// The output of one Philox4x32 evaluation: four 32-bit words.
struct Block {
  /// The words, lanes 0 to 3.
  uint32_t w[4];
};

/// Philox4x32 with 10 rounds.
KERAS_HOST_DEVICE inline Block philox4x32(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0,
                        uint32_t k1) {
  constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = static_cast<uint64_t>(kM0) * c0;
    uint64_t p1 = static_cast<uint64_t>(kM1) * c2;
    uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
    uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
    uint32_t n0 = hi1 ^ c1 ^ k0, n1 = lo1, n2 = hi0 ^ c3 ^ k1, n3 = lo0;
    c0 = n0;
    c1 = n1;
    c2 = n2;
    c3 = n3;
    k0 += kW0;
    k1 += kW1;
  }
  return Block{{c0, c1, c2, c3}};
}

/// Word `index` of the stream (seed, counter).
KERAS_HOST_DEVICE inline uint32_t word(uint64_t seed, uint64_t counter, uint64_t index) {
  uint64_t b = index >> 2;
  Block blk = philox4x32(static_cast<uint32_t>(b), static_cast<uint32_t>(b >> 32),
                         static_cast<uint32_t>(counter), static_cast<uint32_t>(counter >> 32),
                         static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32));
  return blk.w[index & 3];
}

/// Sequential reader of words starting at some index (caches the current block).
class WordStream {
 public:
  /// A reader of the stream (seed, counter) whose first next() returns word `start`.
  KERAS_HOST_DEVICE WordStream(uint64_t seed, uint64_t counter, uint64_t start)
      : seed_(seed), counter_(counter), next_(start) {}
  /// The next word, equal to `word(seed, counter, index)`; computes a new block every fourth word.
  KERAS_HOST_DEVICE uint32_t next() {
    uint64_t b = next_ >> 2;
    if (b != block_index_ || !valid_) {
      block_ = philox4x32(static_cast<uint32_t>(b), static_cast<uint32_t>(b >> 32),
                          static_cast<uint32_t>(counter_), static_cast<uint32_t>(counter_ >> 32),
                          static_cast<uint32_t>(seed_), static_cast<uint32_t>(seed_ >> 32));
      block_index_ = b;
      valid_ = true;
    }
    return block_.w[next_++ & 3];
  }
  /// The next two words as one 64-bit value, the first as its low half.
  KERAS_HOST_DEVICE uint64_t next64() {
    uint64_t lo = next();
    uint64_t hi = next();
    return lo | (hi << 32);
  }

 private:
  uint64_t seed_, counter_, next_;
  uint64_t block_index_ = 0;
  bool valid_ = false;
  Block block_{};
};

/// The distributions, as backend::RandomKind (see the layout at the top of this header).
enum class Kind { Bits, Uniform, Normal, TruncatedNormal };

template <typename T>
/// The words one element of type T takes: 2 for 64-bit types, 1 otherwise.
constexpr int words_per_element() {
  return sizeof(T) == 8 ? 2 : 1;
}

/// A uniform double in [0, 1) from 53 bits (1 - unit53 gives (0, 1]).
KERAS_HOST_DEVICE inline double unit53(uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

/// erfinv in double (Giles's approximation refined by two Newton steps), the same on every
/// backend.
KERAS_HOST_DEVICE inline double erfinv(double y) {
  if (y <= -1) return -INFINITY;
  if (y >= 1) return INFINITY;
  double x = keras::detail::erfinv_guess(y);
  for (int i = 0; i < 2; ++i) x -= (std::erf(x) - y) / (1.1283791670955126 * std::exp(-x * x));
  return x;
}

/// The next element of a Bits, Uniform or TruncatedNormal draw from a word stream.
template <typename T>
KERAS_HOST_DEVICE T from_words(Kind kind, WordStream& s) {
  constexpr bool is64 = words_per_element<T>() == 2;
  switch (kind) {
    case Kind::Bits:
      if constexpr (std::is_same_v<T, bool>) return (s.next() & 1u) != 0;
      if constexpr (is64) return static_cast<T>(s.next64());
      return static_cast<T>(s.next());
    case Kind::Uniform:
      if constexpr (std::is_same_v<T, double>) return unit53(s.next64());
      if constexpr (std::is_same_v<T, float16_t>) return T(static_cast<float>(s.next() >> 21) * 0x1.0p-11f);
      if constexpr (std::is_same_v<T, bfloat16_t>) return T(static_cast<float>(s.next() >> 24) * 0x1.0p-8f);
      return static_cast<T>(static_cast<float>(s.next() >> 8) * 0x1.0p-24f);
    case Kind::TruncatedNormal: {
      double u = is64 ? (static_cast<double>(s.next64() >> 11) + 0.5) * 0x1.0p-53
                      : (static_cast<double>(s.next()) + 0.5) * 0x1.0p-32;
      constexpr double lo = 0.022750131948179195, hi = 0.9772498680518208;  // Phi(-2), Phi(2)
      double z = 1.4142135623730951 * erfinv(2.0 * (lo + u * (hi - lo)) - 1.0);
      z = z < -2.0 ? -2.0 : (z > 2.0 ? 2.0 : z);
      if constexpr (std::is_same_v<T, double>) return z;
      return T(static_cast<float>(z));
    }
    case Kind::Normal: break;
  }
  return T();
}

/// The two normals of Box-Muller pair `pair`.
template <typename T>
KERAS_HOST_DEVICE void normal_pair(uint64_t seed, uint64_t counter, uint64_t pair, T& z0, T& z1) {
  constexpr int wpe = words_per_element<T>();
  WordStream s(seed, counter, pair * 2 * wpe);
  double u1, u2;
  if constexpr (wpe == 2) {
    u1 = 1.0 - unit53(s.next64());
    u2 = unit53(s.next64());
  } else {
    u1 = (static_cast<double>(s.next()) + 1.0) * 0x1.0p-32;
    u2 = static_cast<double>(s.next()) * 0x1.0p-32;
  }
  double r = std::sqrt(-2.0 * std::log(u1));
  double theta = 6.283185307179586 * u2;
  if constexpr (std::is_same_v<T, double>) {
    z0 = r * std::cos(theta);
    z1 = r * std::sin(theta);
  } else {
    z0 = T(static_cast<float>(r * std::cos(theta)));
    z1 = T(static_cast<float>(r * std::sin(theta)));
  }
}

/// Fills elements [begin, end) of a flat draw into out[0 .. end - begin).
template <typename T>
void generate(Kind kind, T* out, uint64_t begin, uint64_t end, uint64_t seed, uint64_t counter) {
  if (kind == Kind::Normal) {
    T z0, z1;
    for (uint64_t i = begin & ~uint64_t{1}; i < end; i += 2) {
      normal_pair<T>(seed, counter, i >> 1, z0, z1);
      if (i >= begin) out[i - begin] = z0;
      if (i + 1 >= begin && i + 1 < end) out[i + 1 - begin] = z1;
    }
    return;
  }
  WordStream s(seed, counter, begin * words_per_element<T>());
  for (uint64_t i = begin; i < end; ++i) out[i - begin] = from_words<T>(kind, s);
}

}  // namespace keras::random::philox

#pragma GCC visibility pop
