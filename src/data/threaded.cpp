// The Dataset transformations that use threads: map with num_parallel_calls (ordered output)
// and prefetch (a producer thread). Every thread belongs to one pass's iterator and is joined
// when that iterator is destroyed, even mid-pass; a producer's exception is carried to the
// consumer, which rethrows it.

#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <thread>
#include <variant>

#include "data/node.h"

namespace keras::data::detail {

namespace {

using NodePtr = std::shared_ptr<const Node>;

class MapNode : public Node {
 public:
  MapNode(NodePtr input, MapFn fn, int threads)
      : input_(std::move(input)), fn_(std::move(fn)), threads_(threads) {}

  std::unique_ptr<NodeIterator> iterate() const override {
    // The consumer reads the input itself (upstream stays single-threaded) and keeps up to
    // `threads` calls in flight; futures are taken from the front, so the order is kept.
    // A std::async future's destructor waits for its call: no call outlives the pass.
    struct It : NodeIterator {
      std::shared_ptr<const MapNode> node;
      std::unique_ptr<NodeIterator> in;
      std::deque<std::future<Element>> in_flight;
      bool input_done = false;
      std::optional<Element> next() override {
        if (node->threads_ <= 1) {
          std::optional<Element> e = in->next();
          if (!e) return std::nullopt;
          return node->fn_(*e);
        }
        while (!input_done && static_cast<int>(in_flight.size()) < node->threads_) {
          std::optional<Element> e = in->next();
          if (!e) {
            input_done = true;
            break;
          }
          in_flight.push_back(
              std::async(std::launch::async, [n = node, x = std::move(*e)] { return n->fn_(x); }));
        }
        if (in_flight.empty()) return std::nullopt;
        std::future<Element> front = std::move(in_flight.front());
        in_flight.pop_front();
        return front.get();
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
    Item item = std::move(queue_.front());
    // The end marker and an error stay in the queue: every later call sees them again.
    if (std::holds_alternative<Element>(item)) queue_.pop_front();
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
