#pragma once
// KERAS_CUDA_DISABLE: fused capabilities the cuda backend leaves to the front end's
// decompositions, named as backend::name_of(Capability) names them ("conv,elementwise"), and
// "graphs" (compiled steps replayed call by call instead of as CUDA graphs), or "all". A switch
// to tell a fused kernel's fault from the rest on a GPU, and a way around one.

#include <cstdint>

namespace keras::cuda {

/// The bit of "graphs" in disabled_capabilities().
inline constexpr uint32_t kGraphsBit = uint32_t{1} << 31;

/// The capabilities `text` names, as bits (1 << Capability, and kGraphsBit); 0 for null or empty
/// text. Throws ValueError naming an unknown name and the known ones.
uint32_t disabled_capabilities(const char* text);

/// disabled_capabilities() of the environment's KERAS_CUDA_DISABLE, read once per process.
uint32_t disabled_by_environment();

}  // namespace keras::cuda
