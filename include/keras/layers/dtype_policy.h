#pragma once
// keras.DTypePolicy and the global default policy (keras.config.set_dtype_policy).
//
//   keras::config::set_dtype_policy("mixed_float16");   // layers made from now on compute in
//   auto dense = keras::layers::Dense(10);              // float16 with float32 weights
//
// A layer under a mixed policy casts its floating inputs to the compute dtype, reads its
// weights in the compute dtype (an AutocastScope around call(); the weights stay float32 and
// the optimizer updates them in float32) and returns compute-dtype outputs.

#include <string>

#include "keras/core/dtype.h"
#include "keras/core/json.h"

#pragma GCC visibility push(default)
namespace keras {

/// A mixed-precision policy: the dtype weights are stored in and the dtype a layer computes in.
struct DTypePolicy {
  /// "float32", "mixed_float16", "mixed_bfloat16", or a dtype name ("float64", ...); a
  /// quantized policy is "<mode>_from_<source>" ("int8_from_float32", "int4/128_from_float32").
  std::string name = "float32";
  /// The dtype weights are stored in (Keras's `variable_dtype`).
  DType variable_dtype = DType::Float32;
  /// The dtype layers compute in (Keras's `compute_dtype`; float16 under "mixed_float16").
  DType compute_dtype = DType::Float32;
  /// "int8", "int4" or "float8" for a quantized policy; empty for a float policy.
  std::string quantization_mode;
  /// int4 only: the block size of "int4/<block_size>" (-1: one scale per output channel).
  int64_t block_size = -1;
  /// float8 only: QuantizedFloat8DTypePolicy's amax_history_length.
  int64_t amax_history_length = 1024;

  /// The policy `name` names; ValueError otherwise.
  static DTypePolicy from_name(const std::string& name);
  /// The float policy a quantized one quantizes ("float32" for "int8_from_float32"); the
  /// policy's own name for a float policy.
  std::string source_name() const;
  /// Keras's serialized policy: DTypePolicy, QuantizedDTypePolicy, Int4DTypePolicy or
  /// QuantizedFloat8DTypePolicy, as a layer's "dtype" config holds it.
  Config serialize() const;
  /// The policy of a layer's "dtype" config entry (a name or a serialized policy).
  static DTypePolicy deserialize(const Config& dtype);
  /// The global default: the policy set by keras::config::set_dtype_policy, else floatx().
  static DTypePolicy default_policy();
  /// True when weights and computation differ in dtype (a "mixed" policy).
  bool is_mixed() const { return variable_dtype != compute_dtype; }
};

namespace config {
/// Sets the default dtype policy of layers created from now on ("mixed_float16",
/// "mixed_bfloat16", "float32", ...; Keras's keras.config.set_dtype_policy). ValueError for
/// an unknown name.
void set_dtype_policy(const std::string& policy);
/// Sets the default dtype policy of layers created from now on, as a policy object.
void set_dtype_policy(const DTypePolicy& policy);
/// The current default policy (Keras's keras.config.dtype_policy()): the one set, else the
/// policy named by floatx().
DTypePolicy dtype_policy();
namespace detail {
/// Forgets the policy set, so the default follows floatx() again (clear_session).
void reset_dtype_policy();
}  // namespace detail
}  // namespace config

}  // namespace keras

#pragma GCC visibility pop
