#pragma once
// The .weights.h5 writer without the atomic rename, for writers that place the file
// themselves (save_model puts it inside the .keras archive).

#include <string>

#include "keras/saving/save_weights.h"

namespace keras::saving {

/// Writes `model`'s weights in Keras's layout to the HDF5 file `file` (created or truncated);
/// `path` names the destination in errors.
void write_weights_file(const Layer& model, const std::string& file, const std::string& path,
                        const SaveWeightsOptions& options);

}  // namespace keras::saving
