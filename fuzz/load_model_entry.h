#pragma once
// The body of the libFuzzer target, shared with the corpus replay test (built with g++):
// arbitrary bytes go through every reader a .keras / .weights.h5 / legacy .h5 file meets.

#include <cstddef>
#include <cstdint>

namespace keras::fuzz {

/// Feeds `data` to the loaders. Returns normally when they accept it or refuse it with a
/// keras::Error; anything else (another exception, a crash, a sanitizer report) is a bug.
void load_model_one_input(const uint8_t* data, size_t size);

}  // namespace keras::fuzz
