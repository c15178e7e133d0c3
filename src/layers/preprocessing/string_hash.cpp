#include "string_hash.h"

#include <cmath>
#include <limits>
#include <utility>

#include "keras/core/errors.h"

namespace keras::layers::detail {
namespace {

// ---- byte access: little-endian loads whatever the host order, as FarmHash defines them ----

uint64_t load64(const char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

uint32_t load32(const char* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

uint64_t rotr(uint64_t v, int shift) {
  return shift == 0 ? v : (v >> shift) | (v << (64 - shift));
}
uint64_t rotl(uint64_t v, int shift) {
  return (v << shift) | (v >> (64 - shift));
}
uint64_t shift_mix(uint64_t v) {
  return v ^ (v >> 47);
}

// ---- FarmHash "na" (farmhashna::Hash64, which Fingerprint64 is) ----------------------------

constexpr uint64_t k0 = 0xc3a5c85c97cb3127ULL;
constexpr uint64_t k1 = 0xb492b66fbe98f273ULL;
constexpr uint64_t k2 = 0x9ae16a3b2f90404fULL;

// Murmur-style mix of two words with a multiplier (FarmHash's HashLen16).
uint64_t mix16(uint64_t u, uint64_t v, uint64_t mul) {
  uint64_t a = (u ^ v) * mul;
  a ^= a >> 47;
  uint64_t b = (v ^ a) * mul;
  b ^= b >> 47;
  return b * mul;
}

uint64_t hash_0_to_16(const char* s, size_t len) {
  if (len >= 8) {
    const uint64_t mul = k2 + len * 2;
    const uint64_t a = load64(s) + k2;
    const uint64_t b = load64(s + len - 8);
    const uint64_t c = rotr(b, 37) * mul + a;
    const uint64_t d = (rotr(a, 25) + b) * mul;
    return mix16(c, d, mul);
  }
  if (len >= 4) {
    const uint64_t mul = k2 + len * 2;
    const uint64_t a = load32(s);
    return mix16(len + (a << 3), load32(s + len - 4), mul);
  }
  if (len > 0) {
    const uint32_t a = static_cast<uint8_t>(s[0]);
    const uint32_t b = static_cast<uint8_t>(s[len >> 1]);
    const uint32_t c = static_cast<uint8_t>(s[len - 1]);
    const uint32_t y = a + (b << 8);
    const uint32_t z = static_cast<uint32_t>(len) + (c << 2);
    return shift_mix(uint64_t{y} * k2 ^ uint64_t{z} * k0) * k2;
  }
  return k2;
}

uint64_t hash_17_to_32(const char* s, size_t len) {
  const uint64_t mul = k2 + len * 2;
  const uint64_t a = load64(s) * k1;
  const uint64_t b = load64(s + 8);
  const uint64_t c = load64(s + len - 8) * mul;
  const uint64_t d = load64(s + len - 16) * k2;
  return mix16(rotr(a + b, 43) + rotr(c, 30) + d, a + rotr(b + k2, 18) + c, mul);
}

uint64_t hash_33_to_64(const char* s, size_t len) {
  const uint64_t mul = k2 + len * 2;
  const uint64_t a = load64(s) * k2;
  const uint64_t b = load64(s + 8);
  const uint64_t c = load64(s + len - 8) * mul;
  const uint64_t d = load64(s + len - 16) * k2;
  const uint64_t y = rotr(a + b, 43) + rotr(c, 30) + d;
  const uint64_t z = mix16(y, a + rotr(b + k2, 18) + c, mul);
  const uint64_t e = load64(s + 16) * mul;
  const uint64_t f = load64(s + 24);
  const uint64_t g = (y + load64(s + len - 32)) * mul;
  const uint64_t h = (z + load64(s + len - 24)) * mul;
  return mix16(rotr(e + f, 43) + rotr(g, 30) + h, e + rotr(f + a, 18) + g, mul);
}

using Pair = std::pair<uint64_t, uint64_t>;

// FarmHash's WeakHashLen32WithSeeds over the 32 bytes at s.
Pair weak_32(const char* s, uint64_t a, uint64_t b) {
  const uint64_t w = load64(s), x = load64(s + 8), y = load64(s + 16), z = load64(s + 24);
  a += w;
  b = rotr(b + a + z, 21);
  const uint64_t c = a;
  a += x;
  a += y;
  b += rotr(a, 44);
  return {a + z, b + c};
}

// Strings over 64 bytes: 64-byte blocks through a 56-byte state, then the last 64 bytes
// (overlapping the previous block when the length is not a multiple of 64).
uint64_t hash_long(const char* s, size_t len) {
  constexpr uint64_t seed = 81;
  uint64_t x = seed;
  uint64_t y = seed * k1 + 113;
  uint64_t z = shift_mix(y * k2 + 113) * k2;
  Pair v{0, 0}, w{0, 0};
  x = x * k2 + load64(s);
  const char* end = s + ((len - 1) / 64) * 64;
  const char* last64 = end + ((len - 1) & 63) - 63;
  do {
    x = rotr(x + y + v.first + load64(s + 8), 37) * k1;
    y = rotr(y + v.second + load64(s + 48), 42) * k1;
    x ^= w.second;
    y += v.first + load64(s + 40);
    z = rotr(z + w.first, 33) * k1;
    v = weak_32(s, v.second * k1, x + w.first);
    w = weak_32(s + 32, z + w.second, y + load64(s + 16));
    std::swap(z, x);
    s += 64;
  } while (s != end);
  const uint64_t mul = k1 + ((z & 0xff) << 1);
  s = last64;
  w.first += ((len - 1) & 63);
  v.first += w.first;
  w.first += v.first;
  x = rotr(x + y + v.first + load64(s + 8), 37) * mul;
  y = rotr(y + v.second + load64(s + 48), 42) * mul;
  x ^= w.second * 9;
  y += v.first * 9 + load64(s + 40);
  z = rotr(z + w.first, 33) * mul;
  v = weak_32(s, v.second * mul, x + w.first);
  w = weak_32(s + 32, z + w.second, y + load64(s + 16));
  std::swap(z, x);
  return mix16(mix16(v.first, w.first, mul) + shift_mix(y) * k0 + z,
               mix16(v.second, w.second, mul) + x, mul);
}

// ---- SipHash-2-4 ------------------------------------------------------------------------------

struct SipState {
  uint64_t v0, v1, v2, v3;

  void round() {
    v0 += v1;
    v2 += v3;
    v1 = rotl(v1, 13);
    v3 = rotl(v3, 16);
    v1 ^= v0;
    v3 ^= v2;
    v0 = rotl(v0, 32);
    v2 += v1;
    v0 += v3;
    v1 = rotl(v1, 17);
    v3 = rotl(v3, 21);
    v1 ^= v2;
    v3 ^= v0;
    v2 = rotl(v2, 32);
  }
  void absorb(uint64_t m) {
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }
};

int64_t checked_bucket(uint64_t hash, int64_t num_buckets, const char* op) {
  check(num_buckets >= 1, op, ": num_buckets must be >= 1; got ", num_buckets, ".");
  return static_cast<int64_t>(hash % static_cast<uint64_t>(num_buckets));
}

}  // namespace

uint64_t fingerprint64(std::string_view str) {
  const char* s = str.data();
  const size_t len = str.size();
  if (len <= 16) return hash_0_to_16(s, len);
  if (len <= 32) return hash_17_to_32(s, len);
  if (len <= 64) return hash_33_to_64(s, len);
  return hash_long(s, len);
}

uint64_t strong_keyed_hash(const std::array<uint64_t, 2>& key, std::string_view str) {
  // The key words XOR the ASCII of "somepseudorandomlygeneratedbytes" (SipHash's constants).
  SipState st{key[0] ^ 0x736f6d6570736575ULL, key[1] ^ 0x646f72616e646f6dULL,
              key[0] ^ 0x6c7967656e657261ULL, key[1] ^ 0x7465646279746573ULL};
  const size_t len = str.size();
  const size_t whole = len - len % 8;
  for (size_t i = 0; i < whole; i += 8) st.absorb(load64(str.data() + i));
  // The last word: the remaining bytes, zero padded, with the length mod 256 in the top byte.
  uint64_t last = static_cast<uint64_t>(len & 0xff) << 56;
  for (size_t i = whole; i < len; ++i)
    last |= static_cast<uint64_t>(static_cast<uint8_t>(str[i])) << (8 * (i - whole));
  st.absorb(last);
  st.v2 ^= 0xff;
  for (int i = 0; i < 4; ++i) st.round();
  return st.v0 ^ st.v1 ^ st.v2 ^ st.v3;
}

uint64_t fingerprint_cat64(uint64_t fp1, uint64_t fp2) {
  constexpr uint64_t mul = 0xc6a4a7935bd1e995ULL;
  uint64_t result = fp1 ^ mul;
  result ^= shift_mix(fp2 * mul) * mul;
  result *= mul;
  result = shift_mix(result) * mul;
  return shift_mix(result);
}

int64_t hash_bucket_fast(std::string_view s, int64_t num_buckets) {
  return checked_bucket(fingerprint64(s), num_buckets, "hash_bucket_fast");
}

int64_t hash_bucket_strong(std::string_view s, int64_t num_buckets, std::array<uint64_t, 2> key) {
  return checked_bucket(strong_keyed_hash(key, s), num_buckets, "hash_bucket_strong");
}

int64_t cross_hashed_bucket(const uint64_t* feature_hashes, size_t count, int64_t num_buckets,
                            uint64_t hash_key) {
  check(num_buckets >= 0, "cross_hashed: num_buckets must be >= 0; got ", num_buckets, ".");
  uint64_t h = hash_key;
  for (size_t i = 0; i < count; ++i) h = fingerprint_cat64(h, feature_hashes[i]);
  const uint64_t mod = num_buckets > 0 ? static_cast<uint64_t>(num_buckets)
                                       : static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  return static_cast<int64_t>(h % mod);
}

std::string int_as_string(int64_t v) {
  return std::to_string(v);
}

int64_t float_to_int64(double x) {
  // The representable range is [-2^63, 2^63); everything else (and NaN) is INT64_MIN.
  constexpr double lo = -9223372036854775808.0, hi = 9223372036854775808.0;
  if (!(x >= lo && x < hi)) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(x);
}

}  // namespace keras::layers::detail
