#pragma once
// One recorded backend call of a traced step, and the key two traces compare it by.

#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "keras/backend/backend.h"

namespace keras::compiler::detail {

/// Where the memory an instruction touches comes from.
enum class SlotKind : uint8_t {
  Input,      // a copy of the step's i-th input, refilled before every replay
  Variable,   // the home storage of a variable read or assigned by the step
  Captured,   // existed before the step and is only read by it (a constant tensor)
  Allocated,  // allocated by the step itself: planned into the arena
};

/// How an instruction runs again: the backend, its arrays (outputs first) and, for a random
/// primitive tied to a draw, this replay's (seed, counter) of that draw (else null).
using Runner = std::function<void(backend::Backend&, const backend::Array*,
                                  const std::pair<uint64_t, uint64_t>* draw)>;

struct Instruction {
  /// The primitive's name and every non-array parameter, as bytes: equal keys and equal array
  /// layouts mean the same call.
  std::string key;
  /// Outputs first (`num_outputs` of them), then inputs; an empty Array has no storage.
  std::vector<backend::Array> arrays;
  std::vector<int> slots;  // per array, its slot (-1 for an empty Array)
  int num_outputs = 0;
  /// The outputs are also read (scatter, copy with Add): their old contents matter.
  bool reads_outputs = false;
  /// A guard (a host check of input values): kept even though it writes nothing.
  bool guard = false;
  /// A host kernel (backend::run_host_kernel): its runner works on the host itself.
  bool host_kernel = false;
  /// The copy that brings a reassigned variable's final value back to its home memory.
  bool write_back = false;
  /// A random primitive tied to a draw: which draw, and which stream k of it.
  int draw = -1;
  uint64_t stream = 0;
  std::optional<backend::RandomKind> random_kind;  // of a random primitive
  /// For an elementwise primitive (unary, binary, where, copy): what it computes, so that the
  /// fusion pass can make a chain of them one call (registers unset here).
  std::optional<backend::ElementwiseStep> elementwise;
  /// A control instruction (ops::cond, ops::while_loop): no runner; the replay jumps to the
  /// Label instruction of `label` (a JumpIfFalse when arrays[0], a bool, holds false).
  std::optional<backend::ControlOp> control;
  int label = -1;
  /// How many recorded regions (branches, loop bodies) enclose the call: passes leave such
  /// calls where they are, since they run conditionally or repeatedly.
  int region = 0;
  /// The parameters of a convolution, pooling, epilogue or reduction call, for the passes that
  /// rewrite patterns of such calls into one fused call (fuse_conv_pool.h, fuse_linear.h).
  std::optional<backend::ConvSpec> conv_spec;
  std::optional<backend::PoolSpec> pool_spec;
  std::optional<backend::Activation> activation;
  std::optional<std::pair<backend::ReduceOp, uint64_t>> reduction;  // op, axes
  Runner run;

  bool writes(int slot) const {
    for (int i = 0; i < num_outputs; ++i)
      if (slots[i] == slot) return true;
    return false;
  }
};

/// Appends plain values to an instruction key.
class KeyWriter {
 public:
  explicit KeyWriter(std::string_view name) : key_(name) { key_.push_back('\0'); }
  template <typename T>
  KeyWriter& operator<<(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const char* p = reinterpret_cast<const char*>(&value);
    key_.append(p, sizeof(T));
    return *this;
  }
  KeyWriter& bytes(const void* data, size_t n) {
    key_.append(static_cast<const char*>(data), n);
    return *this;
  }
  std::string take() { return std::move(key_); }

 private:
  std::string key_;
};

/// The primitive name at the front of a key (for messages).
inline std::string primitive_of(const std::string& key) { return std::string(key.c_str()); }

}  // namespace keras::compiler::detail
