#include "thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace keras::cpu {
namespace {

thread_local bool inside_pool_job = false;

// How long a worker (or a caller waiting for its workers) spins before it sleeps. A training
// step issues hundreds of parallel regions a few microseconds apart; sleeping on a futex and
// being woken costs each of them two system calls, which are slow on a virtual machine (5% of a
// CNN training step on 2 cores). Spinning briefly keeps the worker ready for the next region,
// and 50 us is short enough not to hold a core from other processes when work stops.
constexpr auto kSpin = std::chrono::microseconds(50);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Spins until ready() or kSpin has passed; returns ready().
template <typename Ready>
bool spin_until(Ready ready) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() >= until) return ready();
  }
}

// One parallel_for call. It lives on the caller's stack; the caller returns only after every
// worker that picked it up has let go of it.
struct Job {
  const std::function<void(int64_t)>* fn;
  int64_t total;
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> done{0};
  std::atomic<int> users{0};  // workers holding a pointer to this job (taken under the mutex)
  std::exception_ptr error;
};

class ThreadPool {
 public:
  explicit ThreadPool(int threads) {
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  void run(int64_t chunks, const std::function<void(int64_t)>& chunk_fn) {
    // One job at a time; a second thread that finds the pool busy (concurrent inference) runs
    // its job alone, each chunk as a pool thread would (nested calls inline, gemm unsplit), so
    // that the work is split the same way, and gives the same bits, either way.
    std::unique_lock<std::mutex> busy(job_mutex_, std::try_to_lock);
    if (!busy) {
      struct Inside {
        bool was = inside_pool_job;
        Inside() { inside_pool_job = true; }
        ~Inside() { inside_pool_job = was; }
      } inside;
      for (int64_t i = 0; i < chunks; ++i) chunk_fn(i);
      return;
    }
    Job job;
    job.fn = &chunk_fn;
    job.total = chunks;
    int sleepers;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      current_ = &job;
      published_.store(++generation_, std::memory_order_release);
      sleepers = sleeping_;
    }
    // Workers that are still spinning see the new generation without a wake-up call.
    if (sleepers > 0) wake_.notify_all();
    process(job);
    auto finished = [&] { return job.done.load() == job.total && job.users.load() == 0; };
    spin_until(finished);
    std::unique_lock<std::mutex> lock(mutex_);
    finished_.wait(lock, finished);
    current_ = nullptr;
    if (job.error) std::rethrow_exception(job.error);
  }

 private:
  void process(Job& job) {
    bool was_inside = inside_pool_job;
    inside_pool_job = true;
    for (;;) {
      int64_t i = job.next.fetch_add(1);
      if (i >= job.total) break;
      try {
        (*job.fn)(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!job.error) job.error = std::current_exception();
      }
      if (job.done.fetch_add(1) + 1 == job.total) {
        std::lock_guard<std::mutex> lock(mutex_);
        finished_.notify_all();
      }
    }
    inside_pool_job = was_inside;
  }

  void work() {
    uint64_t seen = 0;
    for (;;) {
      Job* job;
      spin_until([&] { return published_.load(std::memory_order_acquire) != seen; });
      {
        std::unique_lock<std::mutex> lock(mutex_);
        auto ready = [&] { return stopping_ || (generation_ != seen && current_); };
        if (!stopping_ && generation_ != seen && !current_) {  // that job is over: spin again
          seen = generation_;
          continue;
        }
        if (!ready()) {
          ++sleeping_;
          wake_.wait(lock, ready);
          --sleeping_;
        }
        if (stopping_) return;
        seen = generation_;
        job = current_;
        ++job->users;
      }
      process(*job);
      std::lock_guard<std::mutex> lock(mutex_);
      if (--job->users == 0) finished_.notify_all();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex job_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  Job* current_ = nullptr;
  uint64_t generation_ = 0;
  std::atomic<uint64_t> published_{0};  // generation_, readable without the mutex
  int sleeping_ = 0;                    // workers blocked on wake_ (guarded by mutex_)
  bool stopping_ = false;
};

int default_threads() {
  if (const char* env = std::getenv("KERAS_CPU_THREADS")) {
    int n = std::atoi(env);
    if (n > 0) return n;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

std::atomic<int> requested_threads{0};

ThreadPool& pool() {
  // Never destroyed: worker threads must not be joined during static destruction.
  static ThreadPool* p = new ThreadPool(default_threads());
  return *p;
}

}  // namespace

int num_threads() {
  int n = requested_threads.load();
  return n > 0 ? n : pool().size();
}

bool in_parallel_region() { return inside_pool_job; }

void parallel_tasks(int64_t count, const std::function<void(int64_t)>& fn) {
  if (count <= 0) return;
  if (count == 1 || inside_pool_job || std::min(num_threads(), pool().size()) <= 1) {
    for (int64_t i = 0; i < count; ++i) fn(i);
    return;
  }
  pool().run(count, fn);
}

void set_num_threads(int n) { requested_threads.store(std::max(1, n)); }

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  int threads = std::min(num_threads(), pool().size());
  int64_t chunks = std::min<int64_t>(threads, (n + grain - 1) / grain);
  if (chunks <= 1 || inside_pool_job) {
    fn(0, n);
    return;
  }
  int64_t step = (n + chunks - 1) / chunks;
  pool().run(chunks, [&](int64_t c) {
    int64_t begin = c * step;
    int64_t end = std::min(n, begin + step);
    if (begin < end) fn(begin, end);
  });
}

}  // namespace keras::cpu
