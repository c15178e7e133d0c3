// Memory, fill, arange and the strided, casting copy.

#include <cstring>

#include "allocator.h"
#include "cpu_backend.h"
#include "dtype_traits.h"
#include "elementwise_loops.h"
#include "loops.h"

namespace keras::cpu {

Ref<backend::Storage> CpuBackend::allocate(size_t nbytes) {
  return make_ref<backend::Storage>(this, cached_alloc(nbytes), nbytes);
}

void CpuBackend::deallocate(void* data, size_t nbytes) { cached_free(data, nbytes); }

void CpuBackend::copy_from_host(backend::Storage& dst, size_t byte_offset, const void* src,
                                size_t nbytes) {
  if (nbytes) std::memcpy(static_cast<char*>(dst.data()) + byte_offset, src, nbytes);
}

void CpuBackend::copy_to_host(void* dst, const backend::Storage& src, size_t byte_offset,
                              size_t nbytes) {
  if (nbytes) std::memcpy(dst, static_cast<const char*>(src.data()) + byte_offset, nbytes);
}

void CpuBackend::fill(const Array& out, const Scalar& value) {
  visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    const T v = value.to<T>();
    run_loop(make_loop<1>(out.shape, {&out}), [v](char** p, const int64_t* s, int64_t n) {
      if (s[0] == sizeof(T)) {
        T* o = reinterpret_cast<T*>(p[0]);
        for (int64_t i = 0; i < n; ++i) o[i] = v;
      } else {
        for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(p[0] + i * s[0]) = v;
      }
    });
  });
}

void CpuBackend::arange(const Array& out, double start, double step) {
  visit_dtype(out.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* o = out.data_as<T>();
    int64_t n = out.numel();
    parallel_for(n, kElementwiseGrain, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
          o[i] = static_cast<T>(static_cast<int64_t>(start) + i * static_cast<int64_t>(step));
        } else {
          o[i] = convert<T>(start + static_cast<double>(i) * step);
        }
      }
    });
  });
}

bool has_internal_overlap(const Array& a) {
  // Sort the axes by |stride|; the view is free of overlap when each stride is at least the
  // span of all smaller-stride axes (a sufficient condition, exact for the views we make).
  int64_t dims[kMaxLoopDims], strides[kMaxLoopDims];
  int n = 0;
  for (int d = 0; d < a.rank(); ++d) {
    if (a.shape[d] <= 1) continue;
    if (a.strides[d] == 0) return true;
    dims[n] = a.shape[d];
    strides[n] = a.strides[d] < 0 ? -a.strides[d] : a.strides[d];
    ++n;
  }
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && strides[j] < strides[j - 1]; --j) {
      std::swap(strides[j], strides[j - 1]);
      std::swap(dims[j], dims[j - 1]);
    }
  int64_t span = 1;
  for (int i = 0; i < n; ++i) {
    if (strides[i] < span) return true;
    span = strides[i] * (dims[i] - 1) + span;
  }
  return false;
}

namespace {

template <typename To, typename From>
void copy_typed(const StridedLoop<2>& loop, bool accumulate, int64_t grain) {
  if (!accumulate) {
    run_loop(loop, [](char** p, const int64_t* s, int64_t n) {
      if constexpr (std::is_same_v<To, From>) {
        if (s[0] == sizeof(To) && s[1] == sizeof(From)) {
          std::memcpy(p[0], p[1], static_cast<size_t>(n) * sizeof(To));
          return;
        }
      }
      if (s[0] == sizeof(To) && s[1] == sizeof(From)) {
        To* o = reinterpret_cast<To*>(p[0]);
        const From* x = reinterpret_cast<const From*>(p[1]);
        for (int64_t i = 0; i < n; ++i) o[i] = convert<To>(x[i]);
      } else {
        for (int64_t i = 0; i < n; ++i)
          *reinterpret_cast<To*>(p[0] + i * s[0]) =
              convert<To>(*reinterpret_cast<const From*>(p[1] + i * s[1]));
      }
    }, grain);
    return;
  }
  using C = compute_t<To>;
  run_loop(loop, [](char** p, const int64_t* s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      To& o = *reinterpret_cast<To*>(p[0] + i * s[0]);
      if constexpr (std::is_same_v<To, bool>) {
        o = o || convert<bool>(*reinterpret_cast<const From*>(p[1] + i * s[1]));
      } else {
        o = convert<To>(static_cast<C>(convert<C>(o) +
                                       convert<C>(*reinterpret_cast<const From*>(p[1] + i * s[1]))));
      }
    }
  }, grain);
}

}  // namespace

void copy_on_loop(DType to, DType from, const StridedLoop<2>& loop, bool accumulate,
                  int64_t grain) {
  visit_dtype(to, [&](auto to_tag) {
    visit_dtype(from, [&](auto from_tag) {
      copy_typed<decltype(to_tag), decltype(from_tag)>(loop, accumulate, grain);
    });
  });
}

void CpuBackend::copy(const Array& dst, const Array& src, backend::CopyMode mode) {
  bool accumulate = mode == backend::CopyMode::Add;
  // Summing into a destination that overlaps itself must not race: one thread.
  int64_t grain = accumulate && has_internal_overlap(dst) ? INT64_MAX : kElementwiseGrain;
  copy_on_loop(dst.dtype, src.dtype, make_loop<2>(dst.shape, {&dst, &src}), accumulate, grain);
}

}  // namespace keras::cpu
