// keras::data::Dataset against tf.data's documented behaviour: element structure, batch
// counts, seeded shuffles, repeat/take/skip/filter/cache values and cardinalities, ordered
// parallel map, prefetch threads that stop with their iterator, and producer errors.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <numeric>
#include <random>
#include <set>
#include <thread>

#include "keras/keras.h"

namespace keras {
namespace {

using data::Dataset;
using data::Element;

Tensor iota(int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0.0f);
  return Tensor::from_vector(v, {n});
}

// The first value of every element's x, in order (one pass).
std::vector<float> firsts(const Dataset& ds) {
  std::vector<float> out;
  for (const Element& e : ds) out.push_back(e.x.flat()[0].to_vector<float>()[0]);
  return out;
}

std::vector<float> range_f(int a, int b) {
  std::vector<float> v;
  for (int i = a; i < b; ++i) v.push_back(static_cast<float>(i));
  return v;
}

TEST(Dataset, FromTensorSlicesSlicesAxisZeroOfEveryTensor) {
  Tensor x = iota(10).reshape({5, 2});
  Tensor y = iota(5);
  Dataset ds = Dataset::from_tensor_slices(x, y);
  EXPECT_EQ(ds.cardinality(), 5);
  int i = 0;
  for (const Element& e : ds) {
    EXPECT_EQ(e.x.single().shape(), Shape({2}));
    EXPECT_EQ(e.y.single().shape(), Shape({}));
    EXPECT_EQ(e.x.single().to_vector<float>(), std::vector<float>({2.0f * i, 2.0f * i + 1}));
    EXPECT_EQ(e.y.single().item<float>(), static_cast<float>(i));
    ++i;
  }
  EXPECT_EQ(i, 5);
  // A map of tensors keeps its keys.
  Dataset by_name = Dataset::from_tensor_slices(
      TensorStruct(std::map<std::string, Tensor>{{"a", iota(3)}, {"b", iota(6).reshape({3, 2})}}));
  auto it = by_name.iterator();
  it.next();
  Element second = *it.next();
  EXPECT_EQ(second.x.map().at("a").item<float>(), 1.0f);
  EXPECT_EQ(second.x.map().at("b").to_vector<float>(), std::vector<float>({2, 3}));
  EXPECT_THROW(Dataset::from_tensor_slices(iota(3), iota(4)), ValueError);
}

TEST(Dataset, BatchStacksAlongANewAxisAndCountsAsTfData) {
  // 10 elements in batches of 3: 4 batches (3, 3, 3, 1); drop_remainder: 3.
  Tensor x = iota(20).reshape({10, 2});
  Dataset slices = Dataset::from_tensor_slices(x, iota(10));
  // The identity map forces the general stacking path (slices batch without stacking).
  Dataset stacked = slices.map([](const Element& e) { return e; });
  for (const Dataset& base : {slices, stacked}) {
    Dataset b = base.batch(3);
    EXPECT_EQ(b.cardinality(), 4);
    std::vector<int64_t> sizes;
    for (const Element& e : b) {
      sizes.push_back(e.x.single().shape()[0]);
      EXPECT_EQ(e.x.single().shape()[1], 2);
      EXPECT_EQ(e.y.single().ndim(), 1);
    }
    EXPECT_EQ(sizes, std::vector<int64_t>({3, 3, 3, 1}));
    EXPECT_EQ(base.batch(3, true).cardinality(), 3);
    EXPECT_EQ(firsts(base.batch(3, true)), std::vector<float>({0, 6, 12}));
  }
  // Both paths give the same values (batch 1 = x[3:6]).
  auto a = slices.batch(3).iterator(), b = stacked.batch(3).iterator();
  a.next();
  b.next();
  EXPECT_EQ(a.next()->x.single().to_vector<float>(), b.next()->x.single().to_vector<float>());
  EXPECT_EQ(stacked.cardinality(), 10);
}

TEST(Dataset, ShuffleWithASeedIsAReproduciblePermutationPerEpoch) {
  Dataset base = Dataset::from_tensor_slices(iota(50));
  auto orders = [&](uint64_t seed, bool reshuffle, int epochs) {
    Dataset ds = base.shuffle(20, seed, reshuffle);
    std::vector<std::vector<float>> out;
    for (int e = 0; e < epochs; ++e) out.push_back(firsts(ds));
    return out;
  };
  auto run1 = orders(7, true, 3), run2 = orders(7, true, 3);
  EXPECT_EQ(run1, run2);  // same seed, same orders epoch by epoch
  for (const auto& order : run1) {
    std::vector<float> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, range_f(0, 50));  // a permutation
    EXPECT_NE(order, range_f(0, 50));
  }
  EXPECT_NE(run1[0], run1[1]);  // reshuffle_each_iteration=true
  EXPECT_NE(run1[1], run1[2]);
  EXPECT_NE(orders(8, true, 1)[0], run1[0]);
  auto fixed = orders(7, false, 2);
  EXPECT_EQ(fixed[0], fixed[1]);
  // buffer_size 1 keeps the order (tf.data: a buffer of one element does not shuffle).
  EXPECT_EQ(firsts(base.shuffle(1, 3)), range_f(0, 50));
  // A buffer of 20 moves an element at most 19 places earlier: the first output is in 0..19.
  EXPECT_LT(run1[0][0], 20.0f);
  EXPECT_THROW(base.shuffle(0), ValueError);
}

TEST(Dataset, RepeatTakeSkipFilterValuesAndCardinality) {
  Dataset r = Dataset::from_tensor_slices(iota(42));  // tf.data.Dataset.range(42)
  EXPECT_EQ(r.cardinality(), 42);
  EXPECT_EQ(r.repeat().cardinality(), data::INFINITE);
  EXPECT_EQ(r.repeat().filter([](const Element&) { return true; }).cardinality(), data::UNKNOWN);
  EXPECT_EQ(r.repeat(3).cardinality(), 126);
  EXPECT_EQ(r.repeat(0).cardinality(), 0);
  EXPECT_EQ(r.take(10).cardinality(), 10);
  EXPECT_EQ(r.take(100).cardinality(), 42);
  EXPECT_EQ(r.take(-1).cardinality(), 42);
  EXPECT_EQ(r.repeat().take(5).cardinality(), 5);
  EXPECT_EQ(r.skip(40).cardinality(), 2);
  EXPECT_EQ(r.skip(50).cardinality(), 0);
  EXPECT_EQ(r.skip(-1).cardinality(), 0);
  EXPECT_EQ(r.repeat().skip(3).cardinality(), data::INFINITE);
  EXPECT_EQ(r.batch(10).cardinality(), 5);
  EXPECT_EQ(r.repeat().batch(10).cardinality(), data::INFINITE);

  Dataset small = Dataset::from_tensor_slices(iota(4));
  EXPECT_EQ(firsts(small.repeat(2)), std::vector<float>({0, 1, 2, 3, 0, 1, 2, 3}));
  EXPECT_EQ(firsts(small.repeat().take(6)), std::vector<float>({0, 1, 2, 3, 0, 1}));
  EXPECT_EQ(firsts(small.skip(1).take(2)), std::vector<float>({1, 2}));
  EXPECT_TRUE(firsts(small.skip(-1)).empty());
  EXPECT_EQ(firsts(small.take(-1)), range_f(0, 4));
  EXPECT_TRUE(firsts(small.repeat(0)).empty());
  auto even = small.filter(
      [](const Element& e) { return static_cast<int>(e.x.single().item<float>()) % 2 == 0; });
  EXPECT_EQ(firsts(even), std::vector<float>({0, 2}));
  EXPECT_EQ(firsts(even.repeat(2)), std::vector<float>({0, 2, 0, 2}));
  // An empty input repeated forever ends instead of spinning.
  EXPECT_TRUE(firsts(small.filter([](const Element&) { return false; }).repeat()).empty());

  EXPECT_THROW(small.take(-2), ValueError);
  EXPECT_THROW(small.skip(-3), ValueError);
  EXPECT_THROW(small.repeat(-2), ValueError);
  EXPECT_THROW(small.batch(0), ValueError);
  EXPECT_THROW(small.prefetch(-5), ValueError);
  EXPECT_THROW(small.map([](const Element& e) { return e; }, 0), ValueError);
  try {
    small.batch(0);
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("got 0"), std::string::npos) << e.what();
  }
}

TEST(Dataset, ParallelMapKeepsTheInputOrder) {
  std::atomic<int> concurrent{0}, most{0};
  auto slow = [&](const Element& e) {
    int now = ++concurrent;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    // Random sleeps make later elements finish first.
    thread_local std::mt19937 rng(std::hash<std::thread::id>()(std::this_thread::get_id()));
    std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 8));
    Element out = e;
    out.x = ops::multiply(e.x.single(), Tensor(2.0f));
    --concurrent;
    return out;
  };
  Dataset ds = Dataset::from_tensor_slices(iota(40)).map(slow, 6);
  std::vector<float> expected;
  for (int i = 0; i < 40; ++i) expected.push_back(2.0f * i);
  EXPECT_EQ(firsts(ds), expected);
  EXPECT_GT(most.load(), 1);  // the calls did overlap
  EXPECT_EQ(firsts(Dataset::from_tensor_slices(iota(40)).map(slow, data::AUTOTUNE)), expected);
}

TEST(Dataset, PrefetchThreadStopsWhenTheIteratorIsDestroyedMidPass) {
  std::atomic<int> produced{0};
  auto factory = [&]() -> data::Generator {
    return [&produced]() -> std::optional<Element> {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      return Element{Tensor(static_cast<float>(produced++)), {}, {}};
    };
  };
  Dataset ds = Dataset::from_generator(factory).prefetch(3);
  EXPECT_EQ(ds.cardinality(), data::UNKNOWN);
  {
    auto it = ds.iterator();
    EXPECT_EQ(it.next()->x.single().item<float>(), 0.0f);
    EXPECT_EQ(it.next()->x.single().item<float>(), 1.0f);
  }  // an infinite generator: only the join can end the producer
  int after = produced.load();
  EXPECT_LE(after, 2 + 3 + 1);  // bounded by the buffer
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(produced.load(), after);  // the thread is gone
  // Destroying the whole pipeline mid-pass (handle and iterator) is clean as well.
  auto it = std::make_unique<Dataset::Iterator>(Dataset::from_generator(factory)
                                                    .map([](const Element& e) { return e; }, 3)
                                                    .prefetch(2)
                                                    .iterator());
  it->next();
  it.reset();
}

TEST(Dataset, AThrowingProducerIsReportedWithTheBatchIndex) {
  auto factory = []() -> data::Generator {
    return [n = 0]() mutable -> std::optional<Element> {
      if (n == 5) throw std::runtime_error("sensor 5 is unplugged");
      return Element{Tensor(static_cast<float>(n++)), {}, {}};
    };
  };
  // Elements 0..4 fill batches 0 and 1 (and half of 2): batch 2 fails.
  for (const Dataset& ds : {Dataset::from_generator(factory).batch(2),
                            Dataset::from_generator(factory).batch(2).prefetch(2)}) {
    auto it = ds.iterator();
    it.next();
    it.next();
    // The error stays: a second call after it reports it again (the prefetch queue once moved
    // it out and rethrew a null exception_ptr: a crash).
    for (int again = 0; again < 2; ++again) {
      try {
        it.next();
        FAIL() << "no error";
      } catch (const Error& e) {
        std::string m = e.what();
        EXPECT_NE(m.find("element 2"), std::string::npos) << m;
        EXPECT_NE(m.find("sensor 5 is unplugged"), std::string::npos) << m;
      }
    }
  }
  Dataset bad_map = Dataset::from_tensor_slices(iota(6)).map(
      [](const Element& e) -> Element {
        if (e.x.single().item<float>() == 3.0f) throw ValueError("bad sample");
        return e;
      },
      3);
  auto it = bad_map.iterator();
  for (int i = 0; i < 3; ++i) it.next();
  EXPECT_THROW(it.next(), Error);
}

TEST(Dataset, CacheReplaysTheFirstCompletePass) {
  std::atomic<int> passes{0};
  auto factory = [&]() -> data::Generator {
    ++passes;
    return [n = 0]() mutable -> std::optional<Element> {
      if (n == 4) return std::nullopt;
      return Element{Tensor(static_cast<float>(n++)), {}, {}};
    };
  };
  Dataset ds = Dataset::from_generator(factory).cache();
  {
    auto partial = ds.iterator();
    partial.next();
  }  // a partial pass does not fill the cache
  EXPECT_EQ(firsts(ds), range_f(0, 4));
  EXPECT_EQ(firsts(ds), range_f(0, 4));
  EXPECT_EQ(firsts(ds), range_f(0, 4));
  EXPECT_EQ(passes.load(), 2);
}

TEST(Dataset, OneShotGeneratorsContinueAndFactoriesRestart) {
  int n = 0;
  Dataset once = Dataset::from_generator([&n]() -> std::optional<Element> {
    if (n >= 5) return std::nullopt;
    return Element{Tensor(static_cast<float>(n++)), {}, {}};
  });
  EXPECT_EQ(firsts(once.take(2)), std::vector<float>({0, 1}));
  EXPECT_EQ(firsts(once), std::vector<float>({2, 3, 4}));  // a Python generator's behaviour
  EXPECT_TRUE(firsts(once).empty());
}

}  // namespace
}  // namespace keras
