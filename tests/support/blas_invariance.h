#pragma once
// Whether the BLAS under the cpu backend gives a row of a product the same bits whatever else is
// in the product (the rows it is computed with, how the product is split). Tests that compare a
// fused or batched computation with a separate one bit for bit rely on it. OpenBLAS's SkylakeX
// kernels have the property; the Haswell kernels OpenBLAS 0.3.21 picks on some AVX-512 machines
// round the tail tiles differently, so there the same values agree to about 1e-6 (sums that
// cancel lose more of it).

namespace keras::test {

/// Measured once per process with keras::ops::matmul on slices of a fixed product.
bool matmul_rows_are_invariant();

}  // namespace keras::test
