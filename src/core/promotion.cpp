#include "keras/core/promotion.h"

#include <array>
#include <cstdint>
#include <string>

#include "keras/core/config.h"
#include "keras/core/errors.h"

namespace keras {
namespace {

// Nodes of Keras's lattice (uint16/32/64 are kept so the upper bounds match Keras exactly,
// even though keras-cpp tensors never hold them).
enum Node : int { b1, u1, u2, u4, u8, i1, i2, i4, i8, i_, f_, bf, f2, f4, f8, c8, c16, kNodes };
using Mask = uint32_t;

constexpr Mask bit(int n) { return Mask{1} << n; }

// The edges of keras/src/backend/common/dtypes.py::_type_promotion_lattice (c8: complex64,
// c16: complex128).
constexpr std::array<Mask, kNodes> kEdges = {
    /*b1*/ bit(i_),
    /*u1*/ bit(i2) | bit(u2),
    /*u2*/ bit(i4) | bit(u4),
    /*u4*/ bit(i8) | bit(u8),
    /*u8*/ bit(f_),
    /*i1*/ bit(i2),
    /*i2*/ bit(i4),
    /*i4*/ bit(i8),
    /*i8*/ bit(f_),
    /*i_*/ bit(u1) | bit(i1) | bit(c8),
    /*f_*/ bit(bf) | bit(f2),
    /*bf*/ bit(f4),
    /*f2*/ bit(f4),
    /*f4*/ bit(f8) | bit(c8),
    /*f8*/ bit(c16),
    /*c8*/ bit(c16),
    /*c16*/ 0,
};

// upper_bounds[n]: every node reachable from n, n included.
std::array<Mask, kNodes> compute_upper_bounds() {
  std::array<Mask, kNodes> ub{};
  for (int n = 0; n < kNodes; ++n) {
    Mask reach = bit(n);
    for (;;) {
      Mask next = reach;
      for (int m = 0; m < kNodes; ++m)
        if (reach & bit(m)) next |= kEdges[m];
      if (next == reach) break;
      reach = next;
    }
    ub[n] = reach;
  }
  return ub;
}

const std::array<Mask, kNodes>& upper_bounds() {
  static const std::array<Mask, kNodes> ub = compute_upper_bounds();
  return ub;
}

Node node_of(DType t) {
  switch (t) {
    case DType::Bool: return b1;
    case DType::UInt8: return u1;
    case DType::Int8: return i1;
    case DType::Int16: return i2;
    case DType::Int32: return i4;
    case DType::Int64: return i8;
    case DType::BFloat16: return bf;
    case DType::Float16: return f2;
    case DType::Float32: return f4;
    case DType::Float64: return f8;
    case DType::Complex64: return c8;
    case DType::Complex128: return c16;
    case DType::String:
      // Strings are outside Keras's lattice: they meet only strings (the fast path).
      throw ValueError("dtype='string' is not a valid dtype for Keras type promotion: strings "
                       "meet only strings; the text layers turn them into numbers "
                       "(docs/strings.md).");
  }
  return f4;
}

// _respect_weak_type: a weak input stands for its kind, not its width.
Node weak_node(const DTypeLike& d) {
  if (!d.weak || d.dtype == DType::Bool) return node_of(d.dtype);
  return is_floating(d.dtype) ? f_ : i_;
}

Node least_upper_bound(Mask nodes, std::span<const DTypeLike> inputs) {
  const auto& ub = upper_bounds();
  Mask common = ~Mask{0};
  for (int n = 0; n < kNodes; ++n)
    if (nodes & bit(n)) common &= ub[n];
  Mask lub = common & nodes;
  if (!lub) {
    for (int c = 0; c < kNodes; ++c)
      if ((common & bit(c)) && (common & ~ub[c]) == 0) lub |= bit(c);
  }
  if (lub == 0 || (lub & (lub - 1)) != 0) {
    std::string names;
    for (const auto& d : inputs) {
      if (!names.empty()) names += ", ";
      names += d.weak ? (is_floating(d.dtype) ? "float" : "int") : std::string(dtype_name(d.dtype));
    }
    throw ValueError("Input dtypes (" + names +
                     ") have no available implicit dtype promotion path. Cast the inputs "
                     "explicitly to the desired dtype.");
  }
  return static_cast<Node>(__builtin_ctz(lub));
}

DType dtype_of_node(Node n) {
  switch (n) {
    case b1: return DType::Bool;
    case u1: return DType::UInt8;
    case i1: return DType::Int8;
    case i2: return DType::Int16;
    case i4: return DType::Int32;
    case i8: return DType::Int64;
    case bf: return DType::BFloat16;
    case f2: return DType::Float16;
    case f4: return DType::Float32;
    case f8: return DType::Float64;
    case c8: return DType::Complex64;
    case c16: return DType::Complex128;
    case u2:
    case u4:
    case u8: return DType::Int64;  // unreachable from keras-cpp dtypes
    case i_:
    case f_:
    case kNodes: break;
  }
  return DType::Float32;
}

// _resolve_weak_type: a weak result takes the width of floatx.
DType resolve_weak(bool is_float) {
  DType fx = config::floatx();
  if (is_float) return fx;
  if (fx == DType::Float64) return DType::Int64;
  if (fx == DType::Float16) return DType::Int16;
  return DType::Int32;
}

}  // namespace

DType result_type(std::span<const DTypeLike> dtypes) {
  if (dtypes.empty()) return config::floatx();
  // Fast path for the overwhelmingly common case: all the same strong dtype.
  bool same = true, any_strong = false, all_weak = true;
  for (const auto& d : dtypes) {
    same = same && d.dtype == dtypes[0].dtype;
    any_strong = any_strong || !d.weak;
    all_weak = all_weak && d.weak;
  }
  if (dtypes.size() == 1) {
    const auto& d = dtypes[0];
    if (!d.weak || d.dtype == DType::Bool) return d.dtype;
    return resolve_weak(is_floating(d.dtype));
  }
  if (same && any_strong) return dtypes[0].dtype;

  Mask nodes = 0;
  if (all_weak) {
    // Bound of the strong counterparts, then weak again (avoids e.g. a weak int16).
    for (const auto& d : dtypes) nodes |= bit(node_of(d.dtype));
    Node n = least_upper_bound(nodes, dtypes);
    if (n == b1) return DType::Bool;
    return resolve_weak(is_floating(dtype_of_node(n)));
  }
  for (const auto& d : dtypes) nodes |= bit(weak_node(d));
  Node n = least_upper_bound(nodes, dtypes);
  if (n == i_ || n == f_) return resolve_weak(n == f_);
  return dtype_of_node(n);
}

DType float_result_type(DType t) {
  if (is_floating(t) || is_complex(t)) return t;
  return result_type({DTypeLike(t), weak_float});
}

}  // namespace keras
