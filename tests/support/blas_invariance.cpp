#include "blas_invariance.h"

#include <iostream>

#include "keras/keras.h"

namespace keras::test {

bool matmul_rows_are_invariant() {
  static const bool invariant = [] {
    // Sizes with tail tiles on every side, and a K longer than a block.
    const int64_t m = 37, k = 301, n = 29;
    Tensor a = ops::sin(ops::reshape(ops::arange(0, m * k, 1, DType::Float32), {m, k}));
    Tensor b = ops::cos(ops::reshape(ops::arange(0, k * n, 1, DType::Float32), {k, n}));
    const std::vector<float> whole = ops::matmul(a, b).to_vector<float>();
    bool same = true;
    for (auto [lo, hi] : {std::pair<int64_t, int64_t>{0, 1}, {1, 17}, {17, 37}, {5, 6}}) {
      Tensor part = ops::matmul(a.slice({{lo, hi}}).contiguous(), b);
      const std::vector<float> got = part.to_vector<float>();
      for (int64_t r = 0; r < hi - lo && same; ++r)
        for (int64_t c = 0; c < n && same; ++c)
          same = got[static_cast<size_t>(r * n + c)] == whole[static_cast<size_t>((lo + r) * n + c)];
    }
    if (!same)
      std::cout << "[ note ] this BLAS rounds a product's rows differently by the rows computed "
                   "with them: bit-for-bit comparisons of fused or batched results become 1e-5 "
                   "relative ones\n";
    return same;
  }();
  return invariant;
}

}  // namespace keras::test
