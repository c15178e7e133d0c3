#pragma once
// SIGINT during Model::fit: while a fit runs, the first SIGINT only raises a flag, which fit
// reads after each batch (it then throws KeyboardInterrupt); the handler puts the previous
// disposition back at once, so a second Ctrl-C acts as it would without fit (by default, ends
// the process). The previous handler is restored when the last running fit returns.

namespace keras::trainers {

/// Installs the handler for its lifetime (nested and concurrent fits share one). A process
/// that ignores SIGINT (nohup, a background job) keeps ignoring it.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
};

/// Whether SIGINT arrived since the outermost running fit began.
bool interrupt_requested();

}  // namespace keras::trainers
