// The counter-based random primitive: keras/random/philox.h, over the thread pool.

#include "cpu_backend.h"
#include "dtype_traits.h"
#include "keras/random/philox.h"
#include "thread_pool.h"

namespace keras::cpu {

void CpuBackend::random(const Array& out, backend::RandomKind kind, uint64_t seed,
                        uint64_t counter) {
  auto k = static_cast<random::philox::Kind>(kind);
  visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* o = out.data_as<T>();
    parallel_for(out.numel(), 4096, [&](int64_t b, int64_t e) {
      random::philox::generate<T>(k, o + b, static_cast<uint64_t>(b), static_cast<uint64_t>(e),
                                  seed, counter);
    });
  });
}

}  // namespace keras::cpu
