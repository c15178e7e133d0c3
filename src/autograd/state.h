#pragma once
// Per-thread autograd state: whether grad mode is on and how many tapes are alive.

namespace keras::autograd {

struct ThreadState {
  bool grad_mode = true;
  int active_tapes = 0;
};

inline ThreadState& state() {
  thread_local ThreadState s;
  return s;
}

}  // namespace keras::autograd
