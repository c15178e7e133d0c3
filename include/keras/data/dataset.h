#pragma once
// keras::data::Dataset: an input pipeline with tf.data's names and semantics, for fit, evaluate
// and predict (or a loop of your own).
//
//   auto ds = keras::data::Dataset::from_tensor_slices(x, y)
//                 .shuffle(1024, /*seed=*/42)
//                 .map(augment, /*num_parallel_calls=*/4)
//                 .batch(128)
//                 .prefetch(2);
//   model.fit(ds, {.epochs = 5});
//   for (const keras::data::Element& batch : ds) use(batch.x, batch.y);  // one pass
//
// A Dataset is a cheap handle on an immutable pipeline description; each iteration (each
// epoch in fit) creates fresh iterators, so a Dataset can be iterated any number of times.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "keras/core/errors.h"
#include "keras/trainers/options.h"

#pragma GCC visibility push(default)
namespace keras::data {

/// A producer's exception (a generator, map or filter function) as the consuming thread sees
/// it: the index of the element being produced (the batch, for a batched dataset) and the
/// original message.
class ProducerError : public Error {
 public:
  /// The failure of element `index` (the batch index, for a batched dataset) with the producer's
  /// message `cause`.
  ProducerError(int64_t index, std::string cause);
  /// The index of the element (or batch) being produced when the producer threw.
  int64_t index() const { return index_; }
  /// The producer's original exception message.
  const std::string& cause() const { return cause_; }

 private:
  int64_t index_;
  std::string cause_;
};

/// One element: (x, y, sample_weight), each a tensor, a list or a map of tensors; y and
/// sample_weight may be undefined (a dataset of features only).
using Element = StepData;

/// cardinality() for a dataset without end (repeat()), as tf.data.INFINITE_CARDINALITY.
inline constexpr int64_t INFINITE = -1;
/// cardinality() when the count is not known without iterating (generators, filter).
inline constexpr int64_t UNKNOWN = -2;
/// map's num_parallel_calls: one call per hardware thread (tf.data.AUTOTUNE).
inline constexpr int AUTOTUNE = -1;

/// A function producing the elements one by one; std::nullopt ends the data.
using Generator = std::function<std::optional<Element>()>;
/// Makes a fresh generator, called at the start of every iteration (every epoch).
using GeneratorFactory = std::function<Generator()>;
/// The function map() applies to each element.
using MapFn = std::function<Element(const Element&)>;
/// The test filter() keeps an element by.
using Predicate = std::function<bool(const Element&)>;

namespace detail {
class Node;
class NodeIterator;
}  // namespace detail

/// A pipeline of elements for fit(), evaluate() and predict(), as tf.data.Dataset: a source (tensor
/// slices or a generator) and transformations (batch, shuffle, map, ...); each transformation
/// returns a new Dataset.
class Dataset {
 public:
  /// Iterates one pass over a dataset. Move-only; destroying it stops and joins any
  /// background threads (prefetch, parallel map) of this pass.
  class Iterator {
   public:
    Iterator() = default;
    /// Takes over another iterator's pass.
    Iterator(Iterator&&) noexcept;
    /// Stops this pass (joining its threads) and takes over another's.
    Iterator& operator=(Iterator&&) noexcept;
    ~Iterator();
    /// The next element, or std::nullopt at the end. A producer's exception is rethrown here
    /// as a ProducerError.
    std::optional<Element> next();
    /// Elements returned so far.
    int64_t index() const { return index_; }

   private:
    friend class Dataset;
    explicit Iterator(std::unique_ptr<detail::NodeIterator> impl);
    std::unique_ptr<detail::NodeIterator> impl_;
    int64_t index_ = 0;
  };

  /// Slices x (and y, sample_weight) along axis 0: element i holds sample i of every tensor.
  static Dataset from_tensor_slices(const TensorStruct& x, const TensorStruct& y = {},
                                    const TensorStruct& sample_weight = {});
  /// Elements from a one-shot generator: a second iteration continues where the first
  /// stopped (as a Python generator passed to Keras does).
  static Dataset from_generator(Generator generator);
  /// Elements from a fresh generator per iteration (tf.data.Dataset.from_generator calls its
  /// callable each time, so every epoch sees the whole data).
  static Dataset from_generator(GeneratorFactory factory);

  /// Groups consecutive elements into batches, stacking each tensor along a new axis 0.
  Dataset batch(int64_t batch_size, bool drop_remainder = false) const;
  /// Shuffles with a buffer of `buffer_size` elements (tf.data's algorithm). The same seed
  /// gives the same orders; with reshuffle_each_iteration every pass gets a new order.
  Dataset shuffle(int64_t buffer_size, std::optional<uint64_t> seed = std::nullopt,
                  bool reshuffle_each_iteration = true) const;
  /// Applies fn to every element; with num_parallel_calls > 1 (or AUTOTUNE) on worker
  /// threads, the output keeping the input's order.
  Dataset map(MapFn fn, int num_parallel_calls = 1) const;
  /// Keeps the elements for which predicate is true.
  Dataset filter(Predicate predicate) const;
  /// Repeats the data `count` times; -1 forever.
  Dataset repeat(int64_t count = -1) const;
  /// The first `count` elements; -1 all of them.
  Dataset take(int64_t count) const;
  /// All but the first `count` elements; -1 skips everything.
  Dataset skip(int64_t count) const;
  /// Keeps the elements of the first complete pass in memory and replays them afterwards.
  Dataset cache() const;
  /// Produces up to `buffer_size` elements ahead on a background thread (AUTOTUNE: 2).
  Dataset prefetch(int64_t buffer_size = AUTOTUNE) const;

  /// The number of elements; INFINITE or UNKNOWN as tf.data.
  int64_t cardinality() const;

  /// A fresh pass over the elements.
  Iterator iterator() const;

  /// Range-for support: `for (const Element& e : ds)` runs a fresh pass.
  struct Sentinel {};
  /// The range-for iterator: holds a pass and its current element.
  class Cursor {
   public:
    /// Starts at the first element of `it`'s pass.
    explicit Cursor(Iterator it);
    /// The current element.
    const Element& operator*() const { return *current_; }
    /// The current element.
    const Element* operator->() const { return &*current_; }
    /// Advances to the next element (a producer's exception is rethrown as a ProducerError).
    Cursor& operator++();
    /// True at the end of the pass.
    bool operator==(Sentinel) const { return !current_; }

   private:
    std::shared_ptr<Iterator> it_;
    std::optional<Element> current_;
  };
  /// A fresh pass, positioned at its first element.
  Cursor begin() const { return Cursor(iterator()); }
  /// The end of any pass.
  Sentinel end() const { return {}; }

 private:
  explicit Dataset(std::shared_ptr<const detail::Node> node);
  std::shared_ptr<const detail::Node> node_;
};

}  // namespace keras::data

#pragma GCC visibility pop
