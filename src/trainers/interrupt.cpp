// The SIGINT handler of Model::fit. The flag and the saved disposition are process-wide by
// nature (a signal disposition is); a mutex orders the fits that install and restore them.

#include "trainers/interrupt.h"

#include <signal.h>

#include <atomic>
#include <mutex>

namespace keras::trainers {
namespace {

std::atomic<bool> requested{false};  // lock-free: written by the signal handler
struct sigaction previous {};
int depth = 0;  // running fits, under `mutex`
std::mutex mutex;

void on_sigint(int) {
  requested.store(true, std::memory_order_relaxed);
  sigaction(SIGINT, &previous, nullptr);  // async-signal-safe: a second Ctrl-C is not ours
}

}  // namespace

InterruptGuard::InterruptGuard() {
  std::lock_guard<std::mutex> lock(mutex);
  if (depth++ > 0) return;
  requested.store(false);
  struct sigaction current {};
  sigaction(SIGINT, nullptr, &current);
  previous = current;
  if (current.sa_handler == SIG_IGN && !(current.sa_flags & SA_SIGINFO)) return;
  struct sigaction ours {};
  ours.sa_handler = on_sigint;
  sigemptyset(&ours.sa_mask);
  ours.sa_flags = SA_RESTART;  // a read or write the signal lands in carries on
  sigaction(SIGINT, &ours, nullptr);
}

InterruptGuard::~InterruptGuard() {
  std::lock_guard<std::mutex> lock(mutex);
  if (--depth > 0) return;
  sigaction(SIGINT, &previous, nullptr);
  requested.store(false);
}

bool interrupt_requested() {
  return requested.load(std::memory_order_relaxed);
}

}  // namespace keras::trainers
