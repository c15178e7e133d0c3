// The cpu backend's allocator keeps small blocks per thread: tensors made on one thread and
// released on another, or outliving the thread that made them, keep their own memory.

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "keras/keras.h"

namespace keras {
namespace {

TEST(SmallBlocks, TensorsCrossThreadsAndOutliveThem) {
  std::vector<Tensor> made;
  std::thread producer([&] {
    for (int i = 0; i < 200; ++i) made.push_back(ops::full({i % 7 + 1}, static_cast<double>(i)));
    // Some released on this thread before it exits (into its own cache, then the shared one).
    for (int i = 0; i < 50; ++i) Tensor tmp = ops::add(made[i], 1.0);
  });
  producer.join();
  // New small tensors on this thread must not reuse the blocks of tensors still alive.
  std::vector<Tensor> fresh;
  for (int i = 0; i < 200; ++i) fresh.push_back(ops::full({i % 7 + 1}, -1.0));
  for (int i = 0; i < 200; ++i) {
    for (float v : made[i].to_vector<float>()) ASSERT_EQ(v, static_cast<float>(i));
    for (float v : fresh[i].to_vector<float>()) ASSERT_EQ(v, -1.0f);
  }
  // Released here, made there: then reused here.
  made.clear();
  std::vector<Tensor> again;
  for (int i = 0; i < 200; ++i) again.push_back(ops::full({3}, static_cast<double>(i)));
  for (int i = 0; i < 200; ++i)
    for (float v : again[i].to_vector<float>()) ASSERT_EQ(v, static_cast<float>(i));
  for (int i = 0; i < 200; ++i)
    for (float v : fresh[i].to_vector<float>()) ASSERT_EQ(v, -1.0f);
}

}  // namespace
}  // namespace keras
