// Loading files cut short, with bytes flipped, or rewritten while they are read: the loaders
// refuse them with a keras::Error naming the file (never a crash or another exception), a
// failed load_weights leaves the model's weights as they were, and a load that succeeds
// returns exactly one of the versions written, never a mix.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "fault_util.h"
#include "keras/keras.h"
#include "keras/saving/save_model.h"
#include "keras/saving/weights.h"
#include "safety_util.h"

namespace keras {
namespace {

using test::SafetyTempDir;

ModelPtr<SequentialModel> small_model() {
  backend::clear_session();
  return Sequential({Input({8}), layers::Dense(16, {.activation = "relu"}), layers::Dense(4)});
}

void write_bytes(const std::string& path, const std::string& bytes, size_t n) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(n));
}

// About 300 cut points spread over the file, plus every length near both ends (headers at the
// start; the zip directory and HDF5's end-of-file checks at the end).
std::vector<size_t> cut_points(size_t size) {
  std::vector<size_t> cuts;
  for (size_t n = 0; n < std::min<size_t>(size, 96); ++n) cuts.push_back(n);
  for (size_t n = 96; n < size; n += std::max<size_t>(1, size / 300)) cuts.push_back(n);
  for (size_t n = size > 96 ? size - 96 : 0; n < size; ++n) cuts.push_back(n);
  return cuts;
}

// Runs `load`; returns "" when it threw a keras::Error naming `path`, else what went wrong.
std::string refusal_problem(const std::function<void()>& load, const std::string& path) {
  try {
    load();
    return "loaded";
  } catch (const Error& e) {
    std::string what = e.what();
    return what.find(path) == std::string::npos ? "names no path: " + what : "";
  } catch (const std::exception& e) {
    return std::string("not a keras::Error: ") + e.what();
  }
}

TEST(Truncation, KerasArchiveCutAnywhereIsRefused) {
  SafetyTempDir dir("cut");
  const std::string full = dir.file("full.keras"), cut = dir.file("cut.keras");
  small_model()->save(full);
  const std::string bytes = test::file_bytes(full);
  int checked = 0;
  for (size_t n : cut_points(bytes.size())) {
    write_bytes(cut, bytes, n);
    std::string problem = refusal_problem([&] { saving::load_model(cut); }, cut);
    EXPECT_EQ(problem, "") << "cut at " << n << " of " << bytes.size();
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

TEST(Truncation, WeightsFileCutAnywhereIsRefusedAndChangesNothing) {
  SafetyTempDir dir("cut");
  const std::string full = dir.file("full.weights.h5"), cut = dir.file("cut.weights.h5");
  auto saved = small_model();
  saved->save_weights(full);
  const std::string bytes = test::file_bytes(full);
  auto target = small_model();  // other random weights
  const std::vector<Tensor> original = target->get_weights();
  for (size_t n : cut_points(bytes.size())) {
    write_bytes(cut, bytes, n);
    std::string problem = refusal_problem([&] { target->load_weights(cut); }, cut);
    EXPECT_EQ(problem, "") << "cut at " << n << " of " << bytes.size();
  }
  std::vector<Tensor> now = target->get_weights();
  for (size_t i = 0; i < now.size(); ++i)
    EXPECT_EQ(now[i].to_vector<float>(), original[i].to_vector<float>()) << "weight " << i;
  target->load_weights(full);  // the whole file still loads
  EXPECT_EQ(target->get_weights()[0].to_vector<float>(),
            saved->get_weights()[0].to_vector<float>());
}

// A flipped byte anywhere in a .keras archive: refused (the zip's CRC-32 covers the members),
// or, in a field nothing reads, loaded unchanged.
TEST(Truncation, KerasArchiveWithAFlippedByteIsRefusedOrIntact) {
  SafetyTempDir dir("flip");
  const std::string full = dir.file("full.keras"), bad = dir.file("bad.keras");
  auto model = small_model();
  model->save(full);
  const std::vector<float> kernel = model->get_weights()[0].to_vector<float>();
  const std::string bytes = test::file_bytes(full);
  int refused = 0, loaded = 0;
  for (size_t at = 0; at < bytes.size(); at += std::max<size_t>(1, bytes.size() / 400)) {
    std::string flipped = bytes;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x5a);
    write_bytes(bad, flipped, flipped.size());
    try {
      auto back = saving::load_model(bad);
      EXPECT_EQ(back->get_weights()[0].to_vector<float>(), kernel) << "flip at " << at;
      ++loaded;
    } catch (const Error&) {
      ++refused;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "flip at " << at << ": not a keras::Error: " << e.what();
    }
  }
  EXPECT_GT(refused, 300);
  std::printf("[flips] %d refused, %d loaded unchanged\n", refused, loaded);
}

// A file rewritten in place (not atomically: truncate, then write in pieces) by another thread
// while it is loaded again and again: each load is one whole version or a keras::Error.
TEST(Truncation, FileRewrittenWhileReadIsOneVersionOrRefused) {
  SafetyTempDir dir("race");
  const std::string path = dir.file("m.keras");
  auto a = small_model();
  auto b = small_model();
  a->save(path);
  const std::string bytes_a = test::file_bytes(path);
  b->save(path);
  const std::string bytes_b = test::file_bytes(path);
  const std::vector<float> kernel_a = a->get_weights()[0].to_vector<float>();
  const std::vector<float> kernel_b = b->get_weights()[0].to_vector<float>();
  ASSERT_NE(kernel_a, kernel_b);

  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (int k = 0; !stop; ++k) {
      const std::string& bytes = k % 2 ? bytes_b : bytes_a;
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      for (size_t at = 0; at < bytes.size(); at += 1000) {
        out.write(bytes.data() + at,
                  static_cast<std::streamsize>(std::min<size_t>(1000, bytes.size() - at)));
        out.flush();
      }
    }
  });
  int whole = 0, refused = 0;
  for (int i = 0; i < 200; ++i) {
    try {
      auto back = saving::load_model(path);
      auto kernel = back->get_weights()[0].to_vector<float>();
      EXPECT_TRUE(kernel == kernel_a || kernel == kernel_b) << "a mix of two versions";
      ++whole;
    } catch (const Error&) {
      ++refused;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not a keras::Error: " << e.what();
    }
  }
  stop = true;
  writer.join();
  EXPECT_EQ(whole + refused, 200);
  std::printf("[rewrite race] %d whole versions, %d refused\n", whole, refused);
}

}  // namespace
}  // namespace keras
