// reduce, arg_reduce, scan, sort, gather, scatter and matmul, mapped to ATen.

#include <vector>

#include "aten_views.h"
#include "keras/core/errors.h"
#include "parallel_gemm.h"
#include "torch_backend.h"

namespace keras::torch_backend {
namespace {

using backend::ReduceOp;
using backend::ScanOp;
using backend::ScatterReduce;

std::vector<int64_t> axes_of(uint64_t mask, int rank) {
  std::vector<int64_t> dims;
  for (int d = 0; d < rank; ++d)
    if (mask >> d & 1) dims.push_back(d);
  return dims;
}

// The 1-d index of a take (index_select): one entry per position along `axis`, broadcast over
// every other axis (stride 0 there), as the front end passes it. Undefined for any other index.
// ATen's index_select then copies whole rows, where gather would read an index materialized at
// the output's size element by element.
at::Tensor index_line(const Array& index, int axis) {
  for (int d = 0; d < index.rank(); ++d)
    if (d != axis && index.shape[d] > 1 && index.strides[d] != 0) return {};
  at::Tensor line = view(index);
  for (int d = index.rank() - 1; d >= 0; --d)  // from the last axis, so `axis` keeps its number
    if (d != axis) line = line.select(d, 0);
  return line;
}

// ATen's prod/any/all take one axis at a time.
template <typename F>
at::Tensor one_axis_at_a_time(at::Tensor x, const std::vector<int64_t>& dims, F&& reduce) {
  for (int64_t d : dims) x = reduce(x, d);
  return x;
}

// Floating sums and products accumulate in float64, as the cpu backend's do, so the two
// backends round the same exact value once.
at::Tensor accumulating_view(const Array& a) {
  at::Tensor t = compute_view(a);
  return t.is_floating_point() ? t.to(at::kDouble) : t;
}

}  // namespace

void TorchBackend::reduce(backend::ReduceOp op, const Array& out, const Array& x,
                          uint64_t axes) {
  if (out.numel() == 0) return;
  const bool accumulates = op == ReduceOp::Sum || op == ReduceOp::Mean || op == ReduceOp::Prod;
  at::Tensor t = accumulates ? accumulating_view(x) : compute_view(x);
  const std::vector<int64_t> dims = axes_of(axes, x.rank());
  if (dims.empty()) {
    assign(out, op == ReduceOp::Any || op == ReduceOp::All ? t != 0 : t);
    return;
  }
  at::Tensor r;
  switch (op) {
    case ReduceOp::Sum: r = at::sum(t, dims, /*keepdim=*/true); break;
    case ReduceOp::Mean: r = at::mean(t, dims, /*keepdim=*/true); break;
    case ReduceOp::Prod:
      r = one_axis_at_a_time(t, dims, [](const at::Tensor& v, int64_t d) {
        return at::prod(v, d, /*keepdim=*/true);
      });
      break;
    case ReduceOp::Max:
    case ReduceOp::Min:
      if (at::Tensor dst = out_view(out, {&x});
          dst.defined() && dst.scalar_type() == t.scalar_type()) {
        op == ReduceOp::Max ? at::amax_out(dst, t, dims, /*keepdim=*/true)
                            : at::amin_out(dst, t, dims, /*keepdim=*/true);
        return;
      }
      r = op == ReduceOp::Max ? at::amax(t, dims, /*keepdim=*/true)
                              : at::amin(t, dims, /*keepdim=*/true);
      break;
    case ReduceOp::Any:
      r = one_axis_at_a_time(t != 0, dims, [](const at::Tensor& v, int64_t d) {
        return at::any(v, d, /*keepdim=*/true);
      });
      break;
    case ReduceOp::All:
      r = one_axis_at_a_time(t != 0, dims, [](const at::Tensor& v, int64_t d) {
        return at::all(v, d, /*keepdim=*/true);
      });
      break;
    case ReduceOp::kCount: throw RuntimeError("torch backend: unknown reduction");
  }
  assign(out, r);
}

void TorchBackend::arg_reduce(backend::ArgReduceOp op, const Array& out, const Array& x,
                              int axis) {
  if (out.numel() == 0) return;
  at::Tensor t = compute_view(x);
  if (t.scalar_type() == at::kBool) t = t.to(at::kByte);
  assign(out, op == backend::ArgReduceOp::ArgMax ? at::argmax(t, axis, /*keepdim=*/true)
                                                 : at::argmin(t, axis, /*keepdim=*/true));
}

void TorchBackend::scan(backend::ScanOp op, const Array& out, const Array& x, int axis) {
  if (out.numel() == 0) return;
  const bool accumulates = op == ScanOp::CumSum || op == ScanOp::CumProd;
  at::Tensor t = accumulates ? accumulating_view(x) : compute_view(x);
  switch (op) {
    case ScanOp::CumSum: assign(out, at::cumsum(t, axis)); return;
    case ScanOp::CumProd: assign(out, at::cumprod(t, axis)); return;
    case ScanOp::CumMax: assign(out, std::get<0>(at::cummax(t, axis))); return;
    case ScanOp::CumMin: assign(out, std::get<0>(at::cummin(t, axis))); return;
    case ScanOp::kCount: break;
  }
  throw RuntimeError("torch backend: unknown scan");
}

void TorchBackend::sort(const Array& values, const Array& indices, const Array& x,
                        bool descending) {
  if (x.numel() == 0) return;
  at::Tensor t = compute_view(x);
  auto [v, i] = at::sort(t, /*stable=*/true, /*dim=*/-1, descending);
  if (values.storage) assign(values, v);
  if (indices.storage) assign(indices, i);
}

void TorchBackend::gather(const Array& out, const Array& x, const Array& index, int axis) {
  if (out.numel() == 0) return;
  at::Tensor src = view(x);
  at::Tensor line = index_line(index, axis);
  if (!line.defined()) {
    assign(out, at::gather(src, axis, view(index).to(at::kLong)));
    return;
  }
  line = line.to(at::kLong);
  if (at::Tensor dst = out_view(out, {&x, &index});
      dst.defined() && dst.scalar_type() == src.scalar_type()) {
    at::index_select_out(dst, src, axis, line);
    return;
  }
  assign(out, at::index_select(src, axis, line));
}

void TorchBackend::scatter(const Array& out, const Array& index, const Array& src, int axis,
                           backend::ScatterReduce reduce) {
  if (src.numel() == 0) return;
  at::Tensor target = compute_view(out).clone();
  at::Tensor idx = view(index).to(at::kLong);
  at::Tensor values = compute_view(src);
  switch (reduce) {
    case ScatterReduce::Assign: target.scatter_(axis, idx, values); break;
    case ScatterReduce::Add: target.scatter_add_(axis, idx, values); break;
    case ScatterReduce::Mul: target.scatter_reduce_(axis, idx, values, "prod"); break;
    case ScatterReduce::Max: target.scatter_reduce_(axis, idx, values, "amax"); break;
    case ScatterReduce::Min: target.scatter_reduce_(axis, idx, values, "amin"); break;
    case ScatterReduce::kCount: throw RuntimeError("torch backend: unknown scatter");
  }
  assign(out, target);
}

void TorchBackend::matmul(const Array& out, const Array& a, const Array& b) {
  if (out.numel() == 0) return;
  at::Tensor x = compute_view(a), y = compute_view(b);
  if (a.shape[a.rank() - 1] == 0) {  // an empty inner dimension sums nothing
    assign(out, at::zeros(sizes_of(out), x.options()));
    return;
  }
  if (x.scalar_type() == at::kBool) {
    // ATen has no boolean GEMM: a sum of products is true when any product is.
    assign(out, at::matmul(x.to(at::kInt), y.to(at::kInt)) != 0);
    return;
  }
  if (at::Tensor dst = out_view(out, {&a, &b});
      dst.defined() && dst.scalar_type() == x.scalar_type() && y.scalar_type() == x.scalar_type()) {
    matmul_into(dst, x, y);
    return;
  }
  assign(out, at::matmul(x, y));
}

}  // namespace keras::torch_backend
