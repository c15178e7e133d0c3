#pragma once
// Helpers the preprocessing layers share: numbers and arrays in configs (as Keras writes
// np.array(...).tolist() and serialize_keras_object(np.ndarray)), data formats and seeds.

#include <optional>
#include <string>

#include "keras/core/json.h"
#include "keras/tensor/tensor.h"

namespace keras::layers::preprocessing_detail {

/// A host tensor as Keras's np.array(x).tolist(): a number for 0-d, nested lists otherwise.
Config tensor_to_config(const Tensor& t);
/// A number, a nested list of numbers or a {"class_name": "__numpy__", "config": {"value":
/// ...}} record as a float64 host tensor; null gives an undefined tensor.
Tensor config_to_tensor(const Config& c, const std::string& what);

/// "channels_last" or "channels_first" (empty: the configured image_data_format); ValueError
/// naming the layer otherwise.
std::string standardize_data_format(const std::string& layer, const std::string& data_format);

/// An integer seed or null.
Config seed_to_config(const std::optional<int64_t>& seed);
std::optional<int64_t> seed_from_config(const Config& c);

/// The seed a SeedGenerator starts from for a layer's `seed` argument.
std::optional<uint64_t> generator_seed(const std::optional<int64_t>& seed);

}  // namespace keras::layers::preprocessing_detail

namespace keras::layers::preprocessing_detail {

/// `t` moved to the backend of `like` (unless `like` is symbolic, which mixes with anything).
Tensor on_backend_of(const Tensor& t, const Tensor& like);

}  // namespace keras::layers::preprocessing_detail

namespace keras::layers::preprocessing_detail {

/// Keras's _compute_affine_matrix: the (batch, 8) inverse transforms (output -> input) that
/// scale, shear and rotate (in that order) about the point (center_x (width - 1),
/// center_y (height - 1)) and translate. `angle`, `shear_x` and `shear_y` are in degrees;
/// every argument but the centre and size is a (batch,) tensor of the angle's dtype.
Tensor compute_affine_matrix(double center_x, double center_y, const Tensor& angle,
                             const Tensor& translate_x, const Tensor& translate_y,
                             const Tensor& scale, const Tensor& shear_x, const Tensor& shear_y,
                             int64_t height, int64_t width);

}  // namespace keras::layers::preprocessing_detail

namespace keras::layers::preprocessing_detail {

/// NotImplementedError naming `layer` unless fill_mode is one of "reflect", "wrap",
/// "constant", "nearest" and interpolation "nearest" or "bilinear" (as Keras's affine layers).
void check_warp_options(const std::string& layer, const std::string& fill_mode,
                        const std::string& interpolation);

}  // namespace keras::layers::preprocessing_detail
