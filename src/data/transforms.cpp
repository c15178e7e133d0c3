// The single-threaded Dataset transformations: batch, shuffle, filter, repeat, take, skip and
// cache, with tf.data's cardinality rules.

#include <algorithm>
#include <atomic>
#include <mutex>
#include <random>
#include <vector>

#include "data/node.h"
#include "keras/core/errors.h"
#include "keras/ops/ops.h"

namespace keras::data::detail {

namespace {

using NodePtr = std::shared_ptr<const Node>;

// A node with one input; Derived supplies iterate() and cardinality().
class UnaryNode : public Node {
 public:
  explicit UnaryNode(NodePtr input) : input_(std::move(input)) {}

 protected:
  NodePtr input_;
};

// One tensor struct per element position, stacked along a new axis 0.
TensorStruct stack_all(const std::vector<Element>& elements, TensorStruct Element::*field) {
  const TensorStruct& first = elements[0].*field;
  if (!first.defined()) return first;
  size_t n = first.flat().size();
  std::vector<TensorList> columns(n);
  for (const Element& e : elements) {
    TensorList flat = (e.*field).flat();
    check(flat.size() == n, "Dataset.batch: elements differ in structure (", n, " vs ", flat.size(),
          " tensors); every element must have the same structure.");
    for (size_t i = 0; i < n; ++i) columns[i].push_back(flat[i]);
  }
  TensorList stacked;
  for (const TensorList& column : columns) stacked.push_back(ops::stack(column, 0));
  return first.with_flat(stacked);
}

class BatchNode : public UnaryNode {
 public:
  BatchNode(NodePtr input, int64_t size, bool drop)
      : UnaryNode(std::move(input)), size_(size), drop_(drop) {}

  std::unique_ptr<NodeIterator> iterate() const override {
    if (auto slices = std::dynamic_pointer_cast<const SlicesNode>(input_)) {
      struct It : NodeIterator {
        std::shared_ptr<const SlicesNode> slices;
        int64_t size = 0, start = 0;
        bool drop = false;
        std::optional<Element> next() override {
          int64_t n = slices->cardinality();
          int64_t stop = std::min(start + size, n);
          if (start >= n || (drop && stop - start < size)) return std::nullopt;
          Element e = slices->range(start, stop);
          start = stop;
          return e;
        }
      };
      auto it = std::make_unique<It>();
      it->slices = slices;
      it->size = size_;
      it->drop = drop_;
      return it;
    }
    struct It : NodeIterator {
      std::unique_ptr<NodeIterator> in;
      int64_t size = 0;
      bool drop = false;
      std::optional<Element> next() override {
        std::vector<Element> group;
        while (static_cast<int64_t>(group.size()) < size) {
          std::optional<Element> e = in->next();
          if (!e) break;
          group.push_back(std::move(*e));
        }
        if (group.empty() || (drop && static_cast<int64_t>(group.size()) < size))
          return std::nullopt;
        return Element{stack_all(group, &Element::x), stack_all(group, &Element::y),
                       stack_all(group, &Element::sample_weight)};
      }
    };
    auto it = std::make_unique<It>();
    it->in = input_->iterate();
    it->size = size_;
    it->drop = drop_;
    return it;
  }

  int64_t cardinality() const override {
    int64_t n = input_->cardinality();
    if (n < 0) return n;
    return n / size_ + (!drop_ && n % size_ != 0 ? 1 : 0);
  }

 private:
  int64_t size_;
  bool drop_;
};

class ShuffleNode : public UnaryNode {
 public:
  ShuffleNode(NodePtr input, int64_t buffer, uint64_t seed, bool reshuffle)
      : UnaryNode(std::move(input)), buffer_(buffer), seed_(seed), reshuffle_(reshuffle) {}

  std::unique_ptr<NodeIterator> iterate() const override {
    // tf.data's algorithm: fill a buffer, emit a random slot, refill that slot from the input.
    struct It : NodeIterator {
      std::unique_ptr<NodeIterator> in;
      int64_t capacity = 0;
      std::vector<Element> buffer;
      std::mt19937_64 rng;
      bool input_done = false;
      std::optional<Element> next() override {
        while (!input_done && static_cast<int64_t>(buffer.size()) < capacity) {
          std::optional<Element> e = in->next();
          if (!e) {
            input_done = true;
            break;
          }
          buffer.push_back(std::move(*e));
        }
        if (buffer.empty()) return std::nullopt;
        size_t k = std::uniform_int_distribution<size_t>(0, buffer.size() - 1)(rng);
        Element out = std::move(buffer[k]);
        buffer[k] = std::move(buffer.back());
        buffer.pop_back();
        return out;
      }
    };
    // Each pass gets the next seed of a fixed sequence: the same seed gives the same orders,
    // pass after pass, in every run.
    uint64_t pass = reshuffle_ ? passes_->fetch_add(1) : 0;
    std::seed_seq seq{static_cast<uint32_t>(seed_), static_cast<uint32_t>(seed_ >> 32),
                      static_cast<uint32_t>(pass), static_cast<uint32_t>(pass >> 32)};
    auto it = std::make_unique<It>();
    it->in = input_->iterate();
    it->capacity = buffer_;
    it->rng.seed(seq);
    return it;
  }
  int64_t cardinality() const override { return input_->cardinality(); }

 private:
  int64_t buffer_;
  uint64_t seed_;
  bool reshuffle_;
  std::shared_ptr<std::atomic<uint64_t>> passes_ = std::make_shared<std::atomic<uint64_t>>(0);
};

class FilterNode : public UnaryNode {
 public:
  FilterNode(NodePtr input, Predicate p) : UnaryNode(std::move(input)), predicate_(std::move(p)) {}
  std::unique_ptr<NodeIterator> iterate() const override {
    struct It : NodeIterator {
      std::shared_ptr<const FilterNode> node;
      std::unique_ptr<NodeIterator> in;
      std::optional<Element> next() override {
        while (std::optional<Element> e = in->next())
          if (node->predicate_(*e)) return e;
        return std::nullopt;
      }
    };
    auto it = std::make_unique<It>();
    it->node = self<FilterNode>();
    it->in = input_->iterate();
    return it;
  }
  // Always UNKNOWN, even for an infinite input (tf.data's documented example).
  int64_t cardinality() const override { return UNKNOWN; }

 private:
  Predicate predicate_;
};

class RepeatNode : public UnaryNode {
 public:
  RepeatNode(NodePtr input, int64_t count) : UnaryNode(std::move(input)), count_(count) {}
  std::unique_ptr<NodeIterator> iterate() const override {
    struct It : NodeIterator {
      NodePtr input;
      std::unique_ptr<NodeIterator> in;
      int64_t remaining = 0;  // passes left after the current one; -1 forever
      std::optional<Element> next() override {
        while (in) {
          if (std::optional<Element> e = in->next()) {
            produced_this_pass = true;
            return e;
          }
          // An empty pass would loop forever without producing: stop as tf.data does.
          if (remaining == 0 || !produced_this_pass) {
            in.reset();
            break;
          }
          if (remaining > 0) --remaining;
          in = input->iterate();
          produced_this_pass = false;
        }
        return std::nullopt;
      }
      bool produced_this_pass = false;
    };
    auto it = std::make_unique<It>();
    it->input = input_;
    if (count_ != 0) it->in = input_->iterate();
    it->remaining = count_ < 0 ? -1 : count_ - 1;
    return it;
  }
  int64_t cardinality() const override {
    int64_t n = input_->cardinality();
    if (count_ < 0) return n == 0 ? 0 : INFINITE;
    if (count_ == 0 || n == 0) return 0;
    if (n < 0) return n;
    return n * count_;
  }

 private:
  int64_t count_;
};

class TakeNode : public UnaryNode {
 public:
  TakeNode(NodePtr input, int64_t count) : UnaryNode(std::move(input)), count_(count) {}
  std::unique_ptr<NodeIterator> iterate() const override {
    struct It : NodeIterator {
      std::unique_ptr<NodeIterator> in;
      int64_t left = 0;
      std::optional<Element> next() override {
        if (left == 0) return std::nullopt;
        if (left > 0) --left;
        return in->next();
      }
    };
    auto it = std::make_unique<It>();
    it->in = input_->iterate();
    it->left = count_;
    return it;
  }
  int64_t cardinality() const override {
    int64_t n = input_->cardinality();
    if (count_ < 0) return n;
    if (n == INFINITE) return count_;
    if (n == UNKNOWN) return count_ == 0 ? 0 : UNKNOWN;
    return std::min(n, count_);
  }

 private:
  int64_t count_;
};

class SkipNode : public UnaryNode {
 public:
  SkipNode(NodePtr input, int64_t count) : UnaryNode(std::move(input)), count_(count) {}
  std::unique_ptr<NodeIterator> iterate() const override {
    struct It : NodeIterator {
      std::unique_ptr<NodeIterator> in;
      int64_t to_skip = 0;  // -1: everything
      std::optional<Element> next() override {
        while (to_skip != 0) {
          if (!in->next()) return std::nullopt;
          if (to_skip > 0) --to_skip;
        }
        return in->next();
      }
    };
    auto it = std::make_unique<It>();
    it->in = input_->iterate();
    it->to_skip = count_;
    return it;
  }
  int64_t cardinality() const override {
    int64_t n = input_->cardinality();
    if (n < 0) return count_ < 0 && n == UNKNOWN ? 0 : n;
    if (count_ < 0) return 0;
    return std::max<int64_t>(0, n - count_);
  }

 private:
  int64_t count_;
};

class CacheNode : public UnaryNode {
 public:
  explicit CacheNode(NodePtr input) : UnaryNode(std::move(input)) {}
  std::unique_ptr<NodeIterator> iterate() const override {
    struct It : NodeIterator {
      std::shared_ptr<const CacheNode> node;
      std::unique_ptr<NodeIterator> in;  // null when replaying
      std::vector<Element> recorded;
      size_t pos = 0;
      std::optional<Element> next() override {
        if (!in) {
          if (pos >= node->elements_.size()) return std::nullopt;
          return node->elements_[pos++];
        }
        std::optional<Element> e = in->next();
        if (e) {
          recorded.push_back(*e);
          return e;
        }
        // Only a complete pass fills the cache (a partial one is dropped, as tf.data).
        std::lock_guard lock(node->mutex_);
        if (!node->complete_) {
          node->elements_ = std::move(recorded);
          node->complete_ = true;
        }
        in.reset();
        pos = node->elements_.size();
        return std::nullopt;
      }
    };
    auto it = std::make_unique<It>();
    it->node = self<CacheNode>();
    std::lock_guard lock(mutex_);
    if (!complete_) it->in = input_->iterate();
    return it;
  }
  int64_t cardinality() const override { return input_->cardinality(); }

 private:
  // Filled once by the first complete pass, then only read.
  mutable std::mutex mutex_;
  mutable bool complete_ = false;
  mutable std::vector<Element> elements_;
};

}  // namespace

std::shared_ptr<const Node> make_batch(NodePtr input, int64_t batch_size, bool drop_remainder) {
  return std::make_shared<BatchNode>(std::move(input), batch_size, drop_remainder);
}
std::shared_ptr<const Node> make_shuffle(NodePtr input, int64_t buffer_size, uint64_t seed,
                                         bool reshuffle_each_iteration) {
  return std::make_shared<ShuffleNode>(std::move(input), buffer_size, seed,
                                       reshuffle_each_iteration);
}
std::shared_ptr<const Node> make_filter(NodePtr input, Predicate predicate) {
  return std::make_shared<FilterNode>(std::move(input), std::move(predicate));
}
std::shared_ptr<const Node> make_repeat(NodePtr input, int64_t count) {
  return std::make_shared<RepeatNode>(std::move(input), count);
}
std::shared_ptr<const Node> make_take(NodePtr input, int64_t count) {
  return std::make_shared<TakeNode>(std::move(input), count);
}
std::shared_ptr<const Node> make_skip(NodePtr input, int64_t count) {
  return std::make_shared<SkipNode>(std::move(input), count);
}
std::shared_ptr<const Node> make_cache(NodePtr input) {
  return std::make_shared<CacheNode>(std::move(input));
}

}  // namespace keras::data::detail
