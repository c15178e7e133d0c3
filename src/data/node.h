#pragma once
// The pipeline behind keras::data::Dataset: every transformation is an immutable Node holding
// its input node; iterate() starts one pass (one epoch) with fresh per-pass state, so a
// Dataset handle can be copied and iterated many times, from several threads.

#include <memory>
#include <optional>

#include "keras/data/dataset.h"

namespace keras::data::detail {

/// One pass over a node's elements. Used by one thread at a time.
class NodeIterator {
 public:
  virtual ~NodeIterator() = default;
  /// The next element, or std::nullopt at the end.
  virtual std::optional<Element> next() = 0;
};

class Node : public std::enable_shared_from_this<Node> {
 public:
  virtual ~Node() = default;
  /// Iterators hold their node through this, so a pass outlives the Dataset handle it
  /// came from (`auto it = Dataset::from_tensor_slices(x).iterator();`).
  template <typename T>
  std::shared_ptr<const T> self() const {
    return std::static_pointer_cast<const T>(shared_from_this());
  }
  virtual std::unique_ptr<NodeIterator> iterate() const = 0;
  /// A count, INFINITE or UNKNOWN.
  virtual int64_t cardinality() const = 0;
};

/// The tensors of from_tensor_slices (batch() slices them directly instead of stacking
/// single samples: the same values, far fewer ops).
class SlicesNode : public Node {
 public:
  explicit SlicesNode(Element data);
  std::unique_ptr<NodeIterator> iterate() const override;
  int64_t cardinality() const override { return num_samples_; }
  /// Samples [start, stop) of every tensor, keeping axis 0.
  Element range(int64_t start, int64_t stop) const;
  /// Sample i of every tensor, without axis 0.
  Element at(int64_t i) const;

 private:
  Element data_;
  int64_t num_samples_ = 0;
};

std::shared_ptr<const Node> make_batch(std::shared_ptr<const Node> input, int64_t batch_size,
                                       bool drop_remainder);
std::shared_ptr<const Node> make_shuffle(std::shared_ptr<const Node> input, int64_t buffer_size,
                                         uint64_t seed, bool reshuffle_each_iteration);
std::shared_ptr<const Node> make_filter(std::shared_ptr<const Node> input, Predicate predicate);
std::shared_ptr<const Node> make_repeat(std::shared_ptr<const Node> input, int64_t count);
std::shared_ptr<const Node> make_take(std::shared_ptr<const Node> input, int64_t count);
std::shared_ptr<const Node> make_skip(std::shared_ptr<const Node> input, int64_t count);
std::shared_ptr<const Node> make_cache(std::shared_ptr<const Node> input);
std::shared_ptr<const Node> make_map(std::shared_ptr<const Node> input, MapFn fn, int threads);
std::shared_ptr<const Node> make_prefetch(std::shared_ptr<const Node> input, int64_t buffer_size);

}  // namespace keras::data::detail
