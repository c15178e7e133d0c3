#pragma once
// A fixed pool of worker threads sized to the machine. Small jobs run on the calling thread:
// waking a worker costs microseconds, more than a tiny op takes.

#include <cstdint>
#include <functional>

namespace keras::cpu {

/// Number of threads parallel_for uses (the calling thread included).
int num_threads();
/// Changes it (1 runs everything on the calling thread). Takes effect for the next job.
void set_num_threads(int n);

/// Runs fn(begin, end) over [0, n) in chunks of at least `grain` iterations, spread over the
/// pool; blocks until all chunks are done. Nested calls run inline.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

/// Runs fn(i) for every i in [0, count), handing tasks out one at a time to whichever thread
/// is free (the caller included): balances uneven or late-starting threads (a worker that the
/// OS schedules late, on a loaded machine) better than parallel_for's one chunk per thread.
/// Nested calls run inline.
void parallel_tasks(int64_t count, const std::function<void(int64_t)>& fn);

/// True on a thread that is running a parallel_for task (where nested calls run inline).
bool in_parallel_region();

/// The grain that keeps a chunk of simple elementwise work above the cost of a wake-up.
inline constexpr int64_t kElementwiseGrain = 32768;

}  // namespace keras::cpu
