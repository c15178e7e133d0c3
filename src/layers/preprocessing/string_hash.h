#pragma once
// The string hashes TensorFlow's preprocessing ops use, bit for bit, so that Hashing,
// HashedCrossing and the lookup layers' extra OOV buckets put every value in the bucket Keras
// (which calls these TF ops) puts it in:
//   tf.strings.to_hash_bucket_fast    fingerprint64(s) % num_buckets      (FarmHash Fingerprint64)
//   tf.strings.to_hash_bucket_strong  strong_keyed_hash(key, s) % num_buckets  (SipHash-2-4)
//   tf.sparse.cross_hashed            fingerprint_cat64 over the features' hashes
// All are defined on bytes (UTF-8 as stored; NULs are ordinary bytes) and independent of the
// machine's byte order.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace keras::layers::detail {

/// TensorFlow's Fingerprint64: FarmHash's Fingerprint64 (farmhashna::Hash64) of the bytes.
uint64_t fingerprint64(std::string_view s);

/// TensorFlow's StrongKeyedHash: SipHash-2-4 of the bytes keyed by the two 64-bit words.
uint64_t strong_keyed_hash(const std::array<uint64_t, 2>& key, std::string_view s);

/// TensorFlow's FingerprintCat64: combines two fingerprints (order matters).
uint64_t fingerprint_cat64(uint64_t fp1, uint64_t fp2);

/// tf.strings.to_hash_bucket_fast(s, num_buckets): fingerprint64(s) % num_buckets.
/// ValueError unless num_buckets >= 1.
int64_t hash_bucket_fast(std::string_view s, int64_t num_buckets);

/// tf.strings.to_hash_bucket_strong(s, num_buckets, key): strong_keyed_hash(key, s) %
/// num_buckets. ValueError unless num_buckets >= 1.
int64_t hash_bucket_strong(std::string_view s, int64_t num_buckets, std::array<uint64_t, 2> key);

/// The hash key tf.sparse.cross_hashed uses when none is given (0xDECAFCAFFE).
inline constexpr uint64_t kCrossHashKey = 0xDECAFCAFFEULL;

/// How tf.sparse.cross_hashed hashes one feature before crossing: a string by fingerprint64,
/// an int64 by its own bits (no fingerprint).
inline uint64_t cross_feature_hash(std::string_view s) {
  return fingerprint64(s);
}
inline uint64_t cross_feature_hash(int64_t v) {
  return static_cast<uint64_t>(v);
}

/// The bucket of one cross of features (already hashed with cross_feature_hash), as
/// tf.sparse.cross_hashed(inputs, num_buckets) computes it: starting from hash_key, each
/// feature's hash is folded in with fingerprint_cat64 in input order; the result modulo
/// num_buckets (num_buckets 0: modulo INT64_MAX, TF's way of keeping it non-negative).
int64_t cross_hashed_bucket(const uint64_t* feature_hashes, size_t count, int64_t num_buckets,
                            uint64_t hash_key = kCrossHashKey);

/// tf.as_string of an int64 (and of every integer dtype): plain decimal, '-' for negatives.
std::string int_as_string(int64_t v);

/// tf.cast(x, "int64") of a float, as TensorFlow computes it on the CPU: truncation toward
/// zero; NaN and values outside the int64 range give INT64_MIN (the x86 conversion's answer,
/// which TF returns).
int64_t float_to_int64(double x);

}  // namespace keras::layers::detail
