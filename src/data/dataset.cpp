// keras::data::Dataset: argument checks, the sources (tensor slices, generators) and
// iteration with producer errors reported by element index. The transformations live in
// transforms.cpp and threaded.cpp.

#include "keras/data/dataset.h"

#include <mutex>
#include <thread>

#include "data/node.h"
#include "keras/core/errors.h"
#include "keras/ops/ops.h"
#include "keras/random/random.h"

namespace keras::data {

namespace detail {

namespace {

TensorStruct sample(const TensorStruct& s, int64_t i) {
  if (!s.defined()) return s;
  TensorList parts = s.slice(i, i + 1).flat();
  for (Tensor& t : parts) t = ops::squeeze(t, {0});
  return s.with_flat(parts);
}

TensorStruct rows(const TensorStruct& s, int64_t start, int64_t stop) {
  return s.defined() ? s.slice(start, stop) : s;
}

class SlicesIterator : public NodeIterator {
 public:
  explicit SlicesIterator(std::shared_ptr<const SlicesNode> node) : node_(std::move(node)) {}
  std::optional<Element> next() override {
    if (i_ >= node_->cardinality()) return std::nullopt;
    return node_->at(i_++);
  }

 private:
  std::shared_ptr<const SlicesNode> node_;
  int64_t i_ = 0;
};

// A generator shared by every pass (one-shot, like a Python generator) or made per pass.
class GeneratorNode : public Node {
 public:
  explicit GeneratorNode(Generator generator)
      : shared_(std::make_shared<Shared>(std::move(generator))) {}
  explicit GeneratorNode(GeneratorFactory factory) : factory_(std::move(factory)) {}

  std::unique_ptr<NodeIterator> iterate() const override {
    struct It : NodeIterator {
      std::shared_ptr<Shared> shared;
      Generator own;
      std::optional<Element> next() override {
        if (shared) {
          std::lock_guard lock(shared->mutex);
          return shared->generator();
        }
        return own();
      }
    };
    auto it = std::make_unique<It>();
    if (shared_) {
      it->shared = shared_;
    } else {
      it->own = factory_();
      check(static_cast<bool>(it->own),
            "Dataset.from_generator: the factory returned an empty "
            "generator; return a callable producing elements.");
    }
    return it;
  }
  int64_t cardinality() const override { return UNKNOWN; }

 private:
  struct Shared {
    explicit Shared(Generator g) : generator(std::move(g)) {}
    std::mutex mutex;
    Generator generator;
  };
  std::shared_ptr<Shared> shared_;
  GeneratorFactory factory_;
};

}  // namespace

SlicesNode::SlicesNode(Element data) : data_(std::move(data)) {
  check(data_.x.defined(), "Dataset.from_tensor_slices: x is empty; pass at least one tensor.");
  num_samples_ = data_.x.num_samples("x");
  for (const TensorList& tensors : {data_.x.flat(), data_.y.flat(), data_.sample_weight.flat()})
    for (const Tensor& t : tensors)
      check(t.ndim() >= 1, "Dataset.from_tensor_slices: cannot slice a scalar (shape ", t.shape(),
            "); every tensor needs a first axis to slice.");
  const char* names[] = {"y", "sample_weight"};
  const TensorStruct* others[] = {&data_.y, &data_.sample_weight};
  for (int k = 0; k < 2; ++k) {
    if (!others[k]->defined()) continue;
    int64_t n = others[k]->num_samples(names[k]);
    check(n == num_samples_, "Dataset.from_tensor_slices: x has ", num_samples_, " samples but ",
          names[k], " has ", n, "; the first axes must match.");
  }
}

std::unique_ptr<NodeIterator> SlicesNode::iterate() const {
  return std::make_unique<SlicesIterator>(self<SlicesNode>());
}

Element SlicesNode::range(int64_t start, int64_t stop) const {
  return {rows(data_.x, start, stop), rows(data_.y, start, stop),
          rows(data_.sample_weight, start, stop)};
}

Element SlicesNode::at(int64_t i) const {
  return {sample(data_.x, i), sample(data_.y, i), sample(data_.sample_weight, i)};
}

}  // namespace detail

ProducerError::ProducerError(int64_t index, std::string cause)
    : Error(keras::detail::cat("Dataset: producing element ", index,
                               " (the batch index, for a batched dataset) failed: ", cause)),
      index_(index),
      cause_(std::move(cause)) {}

Dataset::Dataset(std::shared_ptr<const detail::Node> node) : node_(std::move(node)) {}

Dataset Dataset::from_tensor_slices(const TensorStruct& x, const TensorStruct& y,
                                    const TensorStruct& sample_weight) {
  return Dataset(std::make_shared<detail::SlicesNode>(Element{x, y, sample_weight}));
}

Dataset Dataset::from_generator(Generator generator) {
  check(static_cast<bool>(generator), "Dataset.from_generator: the generator is empty.");
  return Dataset(std::make_shared<detail::GeneratorNode>(std::move(generator)));
}

Dataset Dataset::from_generator(GeneratorFactory factory) {
  check(static_cast<bool>(factory), "Dataset.from_generator: the generator factory is empty.");
  return Dataset(std::make_shared<detail::GeneratorNode>(std::move(factory)));
}

Dataset Dataset::batch(int64_t batch_size, bool drop_remainder) const {
  check(batch_size >= 1, "Dataset.batch: batch_size must be a positive integer; got ", batch_size,
        ".");
  return Dataset(detail::make_batch(node_, batch_size, drop_remainder));
}

Dataset Dataset::shuffle(int64_t buffer_size, std::optional<uint64_t> seed,
                         bool reshuffle_each_iteration) const {
  check(buffer_size >= 1, "Dataset.shuffle: buffer_size must be a positive integer; got ",
        buffer_size, ".");
  // Without a seed, take one from keras's global generator: reproducible after
  // keras::utils::set_random_seed, as tf.data follows the global seed.
  uint64_t s = seed ? *seed : random::SeedGenerator().initial_seed();
  return Dataset(detail::make_shuffle(node_, buffer_size, s, reshuffle_each_iteration));
}

Dataset Dataset::map(MapFn fn, int num_parallel_calls) const {
  check(static_cast<bool>(fn), "Dataset.map: the function is empty.");
  check(num_parallel_calls >= 1 || num_parallel_calls == AUTOTUNE,
        "Dataset.map: num_parallel_calls must be >= 1 or AUTOTUNE (-1); got ", num_parallel_calls,
        ".");
  int threads = num_parallel_calls;
  if (threads == AUTOTUNE) threads = std::max(2u, std::thread::hardware_concurrency());
  return Dataset(detail::make_map(node_, std::move(fn), threads));
}

Dataset Dataset::filter(Predicate predicate) const {
  check(static_cast<bool>(predicate), "Dataset.filter: the predicate is empty.");
  return Dataset(detail::make_filter(node_, std::move(predicate)));
}

Dataset Dataset::repeat(int64_t count) const {
  check(count >= -1, "Dataset.repeat: count must be >= 0, or -1 to repeat forever; got ", count,
        ".");
  return Dataset(detail::make_repeat(node_, count));
}

Dataset Dataset::take(int64_t count) const {
  check(count >= -1, "Dataset.take: count must be >= 0, or -1 for every element; got ", count, ".");
  return Dataset(detail::make_take(node_, count));
}

Dataset Dataset::skip(int64_t count) const {
  check(count >= -1, "Dataset.skip: count must be >= 0, or -1 to skip every element; got ", count,
        ".");
  return Dataset(detail::make_skip(node_, count));
}

Dataset Dataset::cache() const {
  return Dataset(detail::make_cache(node_));
}

Dataset Dataset::prefetch(int64_t buffer_size) const {
  check(buffer_size >= 0 || buffer_size == AUTOTUNE,
        "Dataset.prefetch: buffer_size must be >= 0 or AUTOTUNE (-1); got ", buffer_size, ".");
  if (buffer_size == 0) return *this;
  return Dataset(detail::make_prefetch(node_, buffer_size == AUTOTUNE ? 2 : buffer_size));
}

int64_t Dataset::cardinality() const {
  return node_->cardinality();
}

Dataset::Iterator Dataset::iterator() const {
  return Iterator(node_->iterate());
}

Dataset::Iterator::Iterator(std::unique_ptr<detail::NodeIterator> impl) : impl_(std::move(impl)) {}
Dataset::Iterator::Iterator(Iterator&&) noexcept = default;
Dataset::Iterator& Dataset::Iterator::operator=(Iterator&&) noexcept = default;
Dataset::Iterator::~Iterator() = default;

std::optional<Element> Dataset::Iterator::next() {
  check(impl_ != nullptr, "Dataset iterator: this iterator is empty (moved from).");
  try {
    std::optional<Element> e = impl_->next();
    if (e) ++index_;
    return e;
  } catch (const std::exception& error) {
    // The producer may run on a worker thread; the consumer learns where and why here.
    throw ProducerError(index_, error.what());
  }
}

Dataset::Cursor::Cursor(Iterator it)
    : it_(std::make_shared<Iterator>(std::move(it))), current_(it_->next()) {}

Dataset::Cursor& Dataset::Cursor::operator++() {
  current_ = it_->next();
  return *this;
}

}  // namespace keras::data
