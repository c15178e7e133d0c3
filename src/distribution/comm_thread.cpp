#include "distribution/comm_thread.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace keras::distribution::detail {
namespace {

class CommThread {
 public:
  CommThread() : worker_([this] { loop(); }) { worker_.detach(); }

  std::future<void> submit(std::function<void()> job) {
    ++pending_;
    std::packaged_task<void()> task([this, job = std::move(job)] {
      struct Done {
        std::atomic<int>& pending;
        ~Done() { --pending; }
      } done{pending_};
      job();
    });
    std::future<void> done = task.get_future();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      jobs_.push_back(std::move(task));
    }
    wake_.notify_one();
    return done;
  }

 private:
  void loop() {
    for (;;) {
      std::packaged_task<void()> task;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return !jobs_.empty(); });
        task = std::move(jobs_.front());
        jobs_.pop_front();
      }
      task();  // an exception goes to the task's future
    }
  }

 public:
  std::atomic<int> pending_{0};  // submitted jobs not finished

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::packaged_task<void()>> jobs_;
  std::thread worker_;
};

CommThread& comm_thread() {
  // Never destroyed: the detached thread waits on it until the process ends.
  static CommThread* thread = new CommThread;
  return *thread;
}

}  // namespace

std::future<void> submit_collective(std::function<void()> job) {
  return comm_thread().submit(std::move(job));
}

void run_collective(const std::function<void()>& job) {
  if (comm_thread().pending_.load() == 0) {
    job();
    return;
  }
  submit_collective(job).get();
}

}  // namespace keras::distribution::detail
