#pragma once
// Elementwise fusion: a run of consecutive elementwise calls (unary, binary, where, copy) over
// one flat index space becomes one call of the backend's elementwise capability, which makes a
// single pass over memory. Buffers that only the run writes and reads become temporaries of
// the chain and leave the arena. Values are unchanged, bit for bit: the backend runs the same
// kernels block by block (see Backend::elementwise).

#include <cstddef>

#include "compiler/trace.h"

namespace keras::compiler::detail {

struct FusionStats {
  size_t chains = 0;        // fused calls made
  size_t fused_calls = 0;   // elementwise calls they replaced
  size_t copies_in_place = 0;  // copies of a value just computed, made unnecessary in a chain
};

/// Rewrites `trace.instructions` in place. Runs after dead-code removal and before memory
/// planning (a planned arena may reuse one buffer for two arrays that a chain touches at once).
FusionStats fuse_elementwise(Trace& trace);

/// Turns the pass off on this thread while alive (for tests and the benchmark's comparison).
class ElementwiseFusionOff {
 public:
  ElementwiseFusionOff();
  ~ElementwiseFusionOff();
  ElementwiseFusionOff(const ElementwiseFusionOff&) = delete;
  ElementwiseFusionOff& operator=(const ElementwiseFusionOff&) = delete;

 private:
  bool previous_;
};

}  // namespace keras::compiler::detail
