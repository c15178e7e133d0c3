#pragma once
// The .weights.h5 file as bytes, for writers that place it themselves (save_weights writes it
// atomically, save_model puts it inside the .keras archive).

#include <cstdint>
#include <string>
#include <vector>

#include "keras/saving/save_weights.h"

namespace keras::saving {

/// `model`'s weights in Keras's layout as an HDF5 file built in memory (libhdf5's core driver), as bytes: for writers that place
/// them themselves, so no temporary HDF5 file is ever on disk.
std::vector<uint8_t> weights_image(const Layer& model, const std::string& path,
                                   const SaveWeightsOptions& options);

}  // namespace keras::saving
