// The Dataset transformations that use threads: map with num_parallel_calls (a worker pool,
// ordered output) and prefetch (a producer thread). Every thread belongs to one pass's iterator and
// is joined when that iterator is destroyed, even mid-pass; a producer's exception is carried to
// the consumer, which rethrows it.

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <variant>
#include <vector>

#include "data/node.h"

namespace keras::data::detail {

namespace {

using NodePtr = std::shared_ptr<const Node>;

// One pass of a parallel map: a fixed pool of `threads` workers. The consumer reads the input
// itself (upstream stays single-threaded), queues up to 2 * threads elements, and takes the
// results in input order; a worker's exception travels in its slot to the consumer.
class ParallelMapIterator : public NodeIterator {
 public:
  ParallelMapIterator(std::unique_ptr<NodeIterator> in, const MapFn* fn, int threads)
      : in_(std::move(in)), fn_(fn), depth_(2 * static_cast<size_t>(threads)) {
    for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }

  ~ParallelMapIterator() override {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    task_ready_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  std::optional<Element> next() override {
    while (!input_done_ && order_.size() < depth_) {
      std::optional<Element> e = in_->next();
      if (!e) {
        input_done_ = true;
        break;
      }
      auto slot = std::make_shared<Slot>();
      order_.push_back(slot);
      {
        std::lock_guard lock(mutex_);
        tasks_.emplace_back(std::move(*e), slot);
      }
      task_ready_.notify_one();
    }
    if (order_.empty()) return std::nullopt;
    std::shared_ptr<Slot> front = std::move(order_.front());
    order_.pop_front();
    std::unique_lock lock(mutex_);
    result_ready_.wait(lock, [&] { return front->done; });
    if (front->error) std::rethrow_exception(front->error);
    return std::move(front->result);
  }

 private:
  struct Slot {
    bool done = false;
    std::optional<Element> result;
    std::exception_ptr error;
  };

  void work() {
    while (true) {
      std::pair<Element, std::shared_ptr<Slot>> task;
      {
        std::unique_lock lock(mutex_);
        task_ready_.wait(lock, [&] { return stop_ || !tasks_.empty(); });
        if (stop_) return;
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      std::optional<Element> out;
      std::exception_ptr error;
      try {
        out = (*fn_)(task.first);
      } catch (...) {
        error = std::current_exception();
      }
      {
        std::lock_guard lock(mutex_);
        task.second->result = std::move(out);
        task.second->error = error;
        task.second->done = true;
      }
      result_ready_.notify_one();  // only the consumer waits on it
    }
  }

  std::unique_ptr<NodeIterator> in_;
  const MapFn* fn_;  // owned by the MapNode, which the iterator keeps alive
  size_t depth_;
  bool input_done_ = false;
  std::deque<std::shared_ptr<Slot>> order_;  // consumer-only: the results to hand out, in order
  std::mutex mutex_;
  std::condition_variable task_ready_, result_ready_;
  std::deque<std::pair<Element, std::shared_ptr<Slot>>> tasks_;
  bool stop_ = false;
  std::vector<std::thread> workers_;  // last: started once everything above exists
};

class MapNode : public Node {
 public:
  MapNode(NodePtr input, MapFn fn, int threads)
      : input_(std::move(input)), fn_(std::move(fn)), threads_(threads) {}

  std::unique_ptr<NodeIterator> iterate() const override {
    if (threads_ > 1) {
      // The iterator holds the node (and so fn_) through a small wrapper.
      struct It : NodeIterator {
        std::shared_ptr<const MapNode> node;
        std::unique_ptr<ParallelMapIterator> pool;
        std::optional<Element> next() override { return pool->next(); }
      };
      auto it = std::make_unique<It>();
      it->node = self<MapNode>();
      it->pool = std::make_unique<ParallelMapIterator>(input_->iterate(), &fn_, threads_);
      return it;
    }
    struct It : NodeIterator {
      std::shared_ptr<const MapNode> node;
      std::unique_ptr<NodeIterator> in;
      std::optional<Element> next() override {
        std::optional<Element> e = in->next();
        if (!e) return std::nullopt;
        return node->fn_(*e);
      }
    };
    auto it = std::make_unique<It>();
    it->node = self<MapNode>();
    it->in = input_->iterate();
    return it;
  }
  int64_t cardinality() const override { return input_->cardinality(); }

 private:
  NodePtr input_;
  MapFn fn_;
  int threads_;
};

// One pass of prefetch: a producer thread fills a bounded queue with the input's elements.
class PrefetchIterator : public NodeIterator {
 public:
  PrefetchIterator(std::unique_ptr<NodeIterator> in, int64_t capacity)
      : in_(std::move(in)), capacity_(static_cast<size_t>(capacity)) {
    producer_ = std::thread([this] { produce(); });
  }

  ~PrefetchIterator() override {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    producer_.join();
  }

  std::optional<Element> next() override {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !queue_.empty(); });
    // The end marker and an error stay in the queue (copied, not moved out): every later call
    // sees them again.
    Item item;
    if (std::holds_alternative<Element>(queue_.front())) {
      item = std::move(queue_.front());
      queue_.pop_front();
    } else {
      item = queue_.front();
    }
    lock.unlock();
    changed_.notify_all();
    if (auto* e = std::get_if<Element>(&item)) return std::move(*e);
    if (auto* error = std::get_if<std::exception_ptr>(&item)) std::rethrow_exception(*error);
    return std::nullopt;
  }

 private:
  struct End {};
  using Item = std::variant<Element, End, std::exception_ptr>;

  void produce() {
    while (true) {
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return stop_ || queue_.size() < capacity_; });
        if (stop_) return;
      }
      Item item;
      try {
        std::optional<Element> e = in_->next();
        item = e ? Item(std::move(*e)) : Item(End{});
      } catch (...) {
        item = std::current_exception();
      }
      bool last = !std::holds_alternative<Element>(item);
      {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(item));
      }
      changed_.notify_all();
      if (last) return;
    }
  }

  std::unique_ptr<NodeIterator> in_;
  size_t capacity_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Item> queue_;
  bool stop_ = false;
  std::thread producer_;
};

class PrefetchNode : public Node {
 public:
  PrefetchNode(NodePtr input, int64_t buffer) : input_(std::move(input)), buffer_(buffer) {}
  std::unique_ptr<NodeIterator> iterate() const override {
    return std::make_unique<PrefetchIterator>(input_->iterate(), buffer_);
  }
  int64_t cardinality() const override { return input_->cardinality(); }

 private:
  NodePtr input_;
  int64_t buffer_;
};

}  // namespace

std::shared_ptr<const Node> make_map(NodePtr input, MapFn fn, int threads) {
  return std::make_shared<MapNode>(std::move(input), std::move(fn), threads);
}
std::shared_ptr<const Node> make_prefetch(NodePtr input, int64_t buffer_size) {
  return std::make_shared<PrefetchNode>(std::move(input), buffer_size);
}

}  // namespace keras::data::detail
