#pragma once
// KERAS_CUDA_DISABLE: fused capabilities the cuda backend leaves to the front end's
// decompositions, named as backend::name_of(Capability) names them ("conv,elementwise"), or
// "all". A switch to tell a fused kernel's fault from the rest on a GPU, and a way around one.

#include <cstdint>

namespace keras::cuda {

/// The capabilities `text` names, as bits (1 << Capability); 0 for null or empty text. Throws
/// ValueError naming an unknown name and the known ones.
uint32_t disabled_capabilities(const char* text);

}  // namespace keras::cuda
