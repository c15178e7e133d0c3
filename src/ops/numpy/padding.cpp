// pad: constant padding is one fill and one copy (its gradient a slice of the incoming one);
// the other modes gather along each padded axis with an index computed on the host from the
// extents alone, so their gradient is the gather's scatter-add.

#include <algorithm>
#include <string>

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::ops {
inline namespace numpy {

namespace {

enum class PadMode { Constant, Edge, Reflect, Symmetric, Wrap };

PadMode parse_mode(std::string_view mode) {
  if (mode == "constant") return PadMode::Constant;
  if (mode == "edge") return PadMode::Edge;
  if (mode == "reflect") return PadMode::Reflect;
  if (mode == "symmetric") return PadMode::Symmetric;
  if (mode == "wrap" || mode == "circular") return PadMode::Wrap;
  throw ValueError(keras::detail::cat("pad: unsupported mode '", mode, "'. Supported modes: "
                                      "'constant', 'edge', 'reflect', 'symmetric', 'wrap' "
                                      "('circular')."));
}

// The source position along an axis of extent n for output position p (p < 0 or p >= n lie
// in the padding).
int64_t source_index(PadMode mode, int64_t p, int64_t n) {
  auto wrap = [](int64_t v, int64_t m) { return ((v % m) + m) % m; };
  switch (mode) {
    case PadMode::Edge:
      return std::clamp<int64_t>(p, 0, n - 1);
    case PadMode::Wrap:
      return wrap(p, n);
    case PadMode::Reflect: {
      if (n == 1) return 0;
      const int64_t period = 2 * (n - 1), m = wrap(p, period);
      return m < n ? m : period - m;
    }
    case PadMode::Symmetric: {
      const int64_t m = wrap(p, 2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case PadMode::Constant:
      break;
  }
  return p;
}

std::string widths_string(const std::vector<std::pair<int64_t, int64_t>>& w) {
  std::string s = "(";
  for (size_t i = 0; i < w.size(); ++i)
    s += keras::detail::cat(i ? ", " : "", "(", w[i].first, ", ", w[i].second, ")");
  return s + (w.size() == 1 ? ",)" : ")");
}

}  // namespace

Tensor pad(const Tensor& x, const PadWidth& pad_width, std::string_view mode,
           std::optional<Scalar> constant_values) {
  constexpr std::string_view op = "pad";
  check(x.defined(), op, ": the input is an undefined tensor.");
  const PadMode m = parse_mode(mode);
  check(!constant_values || m == PadMode::Constant, op,
        ": constant_values can only be given with mode 'constant'; got mode '", mode, "'.");
  std::vector<std::pair<int64_t, int64_t>> widths = pad_width.widths();
  check(widths.size() == 1 || static_cast<int>(widths.size()) == x.ndim(), op,
        ": pad_width ", widths_string(widths), " must have one (before, after) pair per axis of "
        "the input of shape ", x.shape(), ", or a single pair for all axes.");
  if (widths.size() == 1) widths.assign(static_cast<size_t>(x.ndim()), widths[0]);
  for (auto [before, after] : widths)
    check(before >= 0 && after >= 0, op, ": pad widths must be non-negative; got ",
          widths_string(pad_width.widths()), ".");

  if (m == PadMode::Constant) {
    Shape shape = x.shape();
    std::vector<detail::AxisIndex> inner = detail::full_spec(x.shape());
    for (int d = 0; d < x.ndim(); ++d) {
      shape[d] += widths[d].first + widths[d].second;
      inner[d].start = widths[d].first;
    }
    auto& be = x.backend();
    Tensor out = shape.numel() > x.size()
                     ? detail::filled(shape, constant_values.value_or(Scalar(0)), x.dtype(), be)
                     : detail::empty(shape, x.dtype(), be);
    if (x.size() > 0) detail::copy_into(be, detail::spec_view(out, inner).array(), x.array());
    if (autograd::should_record(x)) {
      autograd::record(op, {x}, out, [inner](const autograd::Context&, const Tensor& g) {
        return TensorList{detail::basic_view(g, inner)};
      });
    }
    return out;
  }

  Tensor out = x;
  for (int d = 0; d < x.ndim(); ++d) {
    auto [before, after] = widths[d];
    if (before == 0 && after == 0) continue;
    const int64_t n = x.shape()[d];
    check(n > 0, op, ": cannot pad axis ", d, " of extent 0 (input shape ", x.shape(),
          ") with mode '", mode, "'; only 'constant' can extend an empty axis.");
    std::vector<int64_t> index;
    index.reserve(static_cast<size_t>(before + n + after));
    for (int64_t p = -before; p < n + after; ++p) index.push_back(source_index(m, p, n));
    out = detail::index_select(out, detail::index_tensor(index, x), d);
  }
  return out;
}

}  // namespace numpy
}  // namespace keras::ops
