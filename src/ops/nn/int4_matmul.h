#pragma once
// The product of a weight-only int4 Dense (Keras's _int4_call without an inputs quantizer) in
// one backend call where the backend has Int4Matmul: the kernel stays packed and is unpacked
// panel by panel inside the GEMM instead of whole, with eight elementwise ops, on every call.
// The layer stays a plain `call` on ops; the choice lives here.

#include <cstdint>

#include "keras/tensor/tensor.h"

namespace keras::ops::detail {

/// x (..., K) float32 times the int4 kernel packed (K, ceil(units / 2)) int8 (Keras's
/// pack_int4 along the units axis): per channel (zero undefined) x @ q / scale, scale (units);
/// per group x @ ((q - zero[g_idx]) * scale[g_idx]), scale (G, units) float32, zero (G, units)
/// int8, g_idx (K) float32. Forward only: the layer records its own gradient. An undefined
/// tensor where the fused kernel does not apply (x not float32, gradients being recorded for
/// x, the backend lacks Int4Matmul, another layout), and the caller takes the ops path.
Tensor int4_matmul(const Tensor& x, const Tensor& packed, int64_t units, const Tensor& scale,
                   const Tensor& zero, const Tensor& g_idx);

}  // namespace keras::ops::detail
