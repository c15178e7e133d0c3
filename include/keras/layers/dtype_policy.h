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

namespace keras {

/// A mixed-precision policy: the dtype weights are stored in and the dtype a layer computes in.
struct DTypePolicy {
  /// "float32", "mixed_float16", "mixed_bfloat16", or a dtype name ("float64", ...).
  std::string name = "float32";
  DType variable_dtype = DType::Float32;
  DType compute_dtype = DType::Float32;

  /// The policy `name` names; ValueError otherwise.
  static DTypePolicy from_name(const std::string& name);
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
