#pragma once
// keras.ops.rearrange: einops-style axis rearrangement (Keras 3.15's keras/src/ops/einops.py),
// a reshape that splits grouped input axes, a transpose, and a reshape that merges groups.
//
//   ops::rearrange(images, "b h w c -> b c h w");                       // (B, C, H, W)
//   ops::rearrange(images, "b (h h1) (w w1) c -> b h w (c h1 w1)", {{"h1", 2}, {"w1", 2}});

#include <cstdint>
#include <map>
#include <string>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace einops {

/// Rearranges `tensor`'s axes as `pattern` ("input axes -> output axes") says: names are
/// axes, "(a b)" groups them (split on the input side, merged on the output side). An input
/// group may leave one axis's length out; `axes_lengths` gives the others. ValueError for a
/// pattern that does not match the tensor's rank, an axis missing on one side, or lengths
/// that do not divide.
Tensor rearrange(const Tensor& tensor, const std::string& pattern,
                 const std::map<std::string, int64_t>& axes_lengths = {});

}  // namespace einops
}  // namespace keras::ops

#pragma GCC visibility pop
