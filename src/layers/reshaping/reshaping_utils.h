#pragma once
// Helpers shared by the reshaping layers: data formats, Keras's InputSpec(ndim) check, the
// cropping/padding argument forms and their configs, and the upsampling kernels.

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "keras/core/json.h"
#include "keras/layers/layer.h"
#include "keras/layers/reshaping/side_pairs.h"

namespace keras::layers::detail {

using Pairs = std::vector<std::pair<int64_t, int64_t>>;

/// Keras's standardize_data_format: empty -> image_data_format(); lowercased; ValueError
/// unless "channels_last" or "channels_first".
std::string standardize_data_format(const std::string& data_format);

/// Keras's InputSpec(ndim=rank) check: ValueError naming the layer and the shape.
void check_input_rank(const Layer& layer, const Shape& shape, int rank);

/// One (start, end) pair from a SidePair; ValueError for negative amounts.
std::pair<int64_t, int64_t> resolve_pair(const SidePair& pair, const std::string& who,
                                         const std::string& arg);
/// `n` (start, end) pairs from a SidePairs (an int for all, or n entries); ValueError for
/// negative amounts or a wrong count.
Pairs resolve_pairs(const SidePairs& pairs, int n, const std::string& who, const std::string& arg);

/// [start, end] / [[s, e], ...] as Keras's configs hold them.
Config pair_config(const std::pair<int64_t, int64_t>& pair);
Config pairs_config(const Pairs& pairs);
/// An int, [s, e] or a list of ints and pairs, read back into the argument types.
SidePair side_pair_from_config(const Config& value, const std::string& who);
SidePairs side_pairs_from_config(const Config& value, const std::string& who);

/// `n` positive factors from Keras's "int or tuple of n ints" (standardize_tuple).
std::vector<int64_t> resolve_factors(const std::vector<int64_t>& values, bool scalar, int n,
                                     const std::string& who, const std::string& arg);

/// The first spatial axis: 1 for channels_last, 2 for channels_first.
inline int first_spatial_axis(const std::string& data_format) {
  return data_format == "channels_first" ? 2 : 1;
}

/// x with each axis first_axis + i repeated factors[i] times (one copy for all axes).
Tensor upsample_nearest(const Tensor& x, int first_axis, const std::vector<int64_t>& factors);
/// x enlarged factors[i] times along axis first_axis + i by linear interpolation with
/// half-pixel centers and clamped edges (bilinear for two axes).
Tensor upsample_linear(const Tensor& x, int first_axis, const std::vector<int64_t>& factors);

}  // namespace keras::layers::detail
