// keras.DTypePolicy and the global default (keras/src/dtype_policies/dtype_policy.py).

#include "keras/layers/dtype_policy.h"

#include <mutex>
#include <optional>

#include "keras/core/config.h"
#include "keras/core/errors.h"

namespace keras {
namespace {

struct DefaultPolicy {
  std::mutex mutex;
  std::optional<DTypePolicy> policy;  // unset: follow floatx()
};

DefaultPolicy& default_policy_state() {
  static DefaultPolicy state;
  return state;
}

}  // namespace

DTypePolicy DTypePolicy::from_name(const std::string& name) {
  DTypePolicy p;
  p.name = name;
  if (name == "mixed_float16" || name == "mixed_bfloat16") {
    p.variable_dtype = DType::Float32;
    p.compute_dtype = name == "mixed_float16" ? DType::Float16 : DType::BFloat16;
    return p;
  }
  try {
    DType t = dtype_from_string(name);
    p.variable_dtype = p.compute_dtype = t;
  } catch (const ValueError&) {
    throw ValueError("Invalid dtype policy '" + name +
                     "'. Expected a dtype name (\"float32\", ...), \"mixed_float16\" or "
                     "\"mixed_bfloat16\".");
  }
  return p;
}

DTypePolicy DTypePolicy::default_policy() { return config::dtype_policy(); }

namespace config {

void set_dtype_policy(const std::string& policy) { set_dtype_policy(DTypePolicy::from_name(policy)); }

void set_dtype_policy(const DTypePolicy& policy) {
  DefaultPolicy& s = default_policy_state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.policy = policy;
}

DTypePolicy dtype_policy() {
  DefaultPolicy& s = default_policy_state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.policy) return *s.policy;
  }
  return DTypePolicy::from_name(std::string(dtype_name(floatx())));
}

namespace detail {
void reset_dtype_policy() {
  DefaultPolicy& s = default_policy_state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.policy.reset();
}
}  // namespace detail

}  // namespace config
}  // namespace keras
