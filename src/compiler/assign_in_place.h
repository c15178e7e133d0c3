#pragma once
// An assigned value written straight into the variable's memory, found in a recorded program.
//
// `m.assign_add(d)` records an add into a new buffer F and a copy of F into m's memory; an
// optimizer step does that for every slot and every weight (Adam: three copies per weight).
// When F's only writer W could as well write m's memory, it does, F's readers read m, and the
// copy goes. Safe because:
// - W writes F whole, with the layout of m's memory (contiguous from offset 0, same dtype and
//   shape), and nothing else writes F;
// - W reads m's memory, if at all, only as an elementwise call (unary, binary, where) reading
//   it through the very view it writes: each element is read before that element is written,
//   on every backend (the contract's elementwise primitives compute element by element);
// - nothing between W and the copy touches m's memory, and nothing writes it again before F's
//   last reader, which from then on reads m;
// - F is not a result of the step, and no call involved runs inside an ops::cond or
//   ops::while_loop region, nor does a jump sit between them.
// The values are those of the unrewritten program, bit for bit: the same calls compute the
// same numbers, only where W's result lands changes.

#include <cstddef>

#include "compiler/trace.h"

namespace keras::compiler::detail {

/// Rewrites `trace.instructions` in place and returns how many copies it removed. Runs after
/// elementwise fusion (which already folds such a copy into a fused chain) and before memory
/// planning (F then needs no buffer).
size_t assign_in_place(Trace& trace);

/// Turns the pass off on this thread while alive (for tests).
class AssignInPlaceOff {
 public:
  AssignInPlaceOff();
  ~AssignInPlaceOff();
  AssignInPlaceOff(const AssignInPlaceOff&) = delete;
  AssignInPlaceOff& operator=(const AssignInPlaceOff&) = delete;

 private:
  bool previous_;
};

}  // namespace keras::compiler::detail
