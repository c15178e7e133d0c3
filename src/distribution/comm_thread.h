#pragma once
// The thread that runs a process's collectives when a step overlaps them with its backward pass:
// every collective a step issues (started early or waited for at once) goes through it, in the
// order the step issues them, which is the same on every process.

#include <functional>
#include <future>

namespace keras::distribution::detail {

/// Runs `job` on the communication thread after the jobs submitted before it.
std::future<void> submit_collective(std::function<void()> job);

/// Runs `job` and waits for it (its exception, if any, is rethrown here): on this thread when no
/// submitted job is pending, else on the communication thread after them (so that the
/// collectives keep the order the step issued them in).
void run_collective(const std::function<void()>& job);

}  // namespace keras::distribution::detail
