// get_item and Tensor::index: NumPy indexing. Integers, slices, Ellipsis and NewAxis become one
// strided view. Index tensors (and boolean masks, turned into coordinates on the host) then
// select along the axes they index with one gather over those axes merged into one, so the
// gradient is the gather's scatter-add.

#include <algorithm>
#include <sstream>

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::ops {
inline namespace numpy {

namespace {

constexpr std::string_view kGetItemOp = "get_item";

// An index tensor (an "advanced" index) and where it applies: `span` consecutive axes of the
// basic view starting at `view_axis` (more than one for a boolean mask, whose index holds flat
// positions within the masked block).
struct Advanced {
  Tensor index;          // integers, not yet normalized (or flat positions from a mask)
  int view_axis = 0;
  int span = 1;
  bool checked = false;  // already in range and non-negative (mask positions)
  int source_axis = 0;   // the axis of x it indexes (for messages)
};

// The flat positions of the true entries of a mask (NumPy's nonzero, raveled): the result's
// size depends on the data, so this reads the mask on the host once.
Tensor mask_positions(const Tensor& mask, const Tensor& like) {
  std::vector<uint8_t> bits(static_cast<size_t>(mask.size()));
  mask.copy_to_host(bits.data(), DType::Bool);
  size_t count = 0;
  for (uint8_t b : bits) count += b != 0;
  std::vector<int64_t> positions;
  positions.reserve(count);
  for (size_t i = 0; i < bits.size(); ++i)
    if (bits[i]) positions.push_back(static_cast<int64_t>(i));
  return detail::index_tensor(positions, like);
}

std::string key_string(std::span<const Index> key) {
  std::ostringstream s;
  s << '[';
  for (size_t i = 0; i < key.size(); ++i) {
    if (i) s << ", ";
    std::visit(
        [&](const auto& v) {
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<V, int64_t>) {
            s << v;
          } else if constexpr (std::is_same_v<V, Slice>) {
            if (v.start) s << *v.start;
            s << ':';
            if (v.stop) s << *v.stop;
            if (v.step) s << ':' << *v.step;
          } else if constexpr (std::is_same_v<V, EllipsisType>) {
            s << "...";
          } else if constexpr (std::is_same_v<V, NewAxisType>) {
            s << "None";
          } else {
            s << "tensor" << v.shape() << ' ' << v.dtype();
          }
        },
        key[i]);
  }
  s << ']';
  return s.str();
}

// The shape all advanced indices broadcast to (IndexError when they cannot).
Shape broadcast_indices(const std::vector<Advanced>& adv, std::span<const Index> key) {
  Shape b = adv[0].index.shape();
  for (const Advanced& a : adv) {
    try {
      b = detail::broadcast_shapes(kGetItemOp, b, a.index.shape());
    } catch (const ValueError&) {
      throw IndexError(keras::detail::cat(kGetItemOp, ": the index tensors of ", key_string(key),
                                          " cannot be broadcast together."));
    }
  }
  return b;
}

}  // namespace

Tensor get_item(const Tensor& x, std::span<const Index> key) {
  check(x.defined(), kGetItemOp, ": the input is an undefined tensor.");
  // Resolve 0-d integer tensors to integers (as NumPy does) and check index tensor dtypes.
  std::vector<Index> items(key.begin(), key.end());
  int consumed = 0, ellipses = 0;
  bool any_tensor = false;
  for (Index& item : items) {
    if (auto* t = std::get_if<Tensor>(&item)) {
      check(t->defined(), kGetItemOp, ": an index tensor is undefined.");
      detail::common_backend(kGetItemOp, {&x, t});
      const DType dt = t->dtype();
      check<IndexError>(is_integer(dt) || dt == DType::Bool, kGetItemOp,
                        ": index tensors must be integer or bool; got dtype ", dt, " in ",
                        key_string(key), ".");
      if (is_integer(dt) && t->ndim() == 0) {
        item = t->item<int64_t>();
        continue;
      }
      any_tensor = true;
      consumed += dt == DType::Bool ? t->ndim() : 1;
    } else if (std::holds_alternative<int64_t>(item) || std::holds_alternative<Slice>(item)) {
      ++consumed;
    } else if (std::holds_alternative<EllipsisType>(item)) {
      ++ellipses;
    }
  }
  check<IndexError>(ellipses <= 1, kGetItemOp, ": an index can only have a single Ellipsis; got ",
                    key_string(key), ".");
  check<IndexError>(consumed <= x.ndim(), kGetItemOp, ": too many indices for a tensor of shape ",
                    x.shape(), ": ", key_string(key), " indexes ", consumed, " axes.");

  // One pass over the key: the basic spec over x's axes, the positions of new axes in the
  // view, and the advanced indices with their view axes and key positions.
  std::vector<detail::AxisIndex> spec = detail::full_spec(x.shape());
  std::vector<int> new_axes;
  std::vector<Advanced> adv;
  std::vector<int> adv_slots;  // key positions of advanced entries (integers included)
  int src = 0, view = 0;
  for (size_t slot = 0; slot < items.size(); ++slot) {
    const Index& item = items[slot];
    if (const auto* i = std::get_if<int64_t>(&item)) {
      spec[src] = detail::resolve_index(kGetItemOp, *i, x.shape()[src], src);
      ++src;
      if (any_tensor) adv_slots.push_back(static_cast<int>(slot));
    } else if (const auto* s = std::get_if<Slice>(&item)) {
      spec[src] = detail::resolve_slice(kGetItemOp, *s, x.shape()[src], src);
      ++src;
      ++view;
    } else if (std::holds_alternative<NewAxisType>(item)) {
      new_axes.push_back(view++);
    } else if (std::holds_alternative<EllipsisType>(item)) {
      const int width = x.ndim() - consumed;
      src += width;
      view += width;
    } else {
      const Tensor& t = std::get<Tensor>(item);
      adv_slots.push_back(static_cast<int>(slot));
      if (t.dtype() != DType::Bool) {
        adv.push_back({t, view++, 1, false, src});
        ++src;
      } else if (t.ndim() == 0) {
        // x[True] adds an axis of extent 1 and selects it once; x[False] selects nothing.
        new_axes.push_back(view);
        std::vector<int64_t> pick;
        if (t.item<bool>()) pick.push_back(0);
        adv.push_back({detail::index_tensor(pick, x), view++, 1, true, src});
      } else {
        for (int d = 0; d < t.ndim(); ++d)
          check<IndexError>(t.shape()[d] == x.shape()[src + d], kGetItemOp,
                            ": the boolean index of "
                            "shape ",
                            t.shape(),
                            " does not match the indexed axes of a tensor of "
                            "shape ",
                            x.shape(), " (starting at axis ", src, ").");
        adv.push_back({mask_positions(t, x), view, t.ndim(), true, src});
        view += t.ndim();
        src += t.ndim();
      }
    }
  }
  Tensor basic = detail::basic_view(x, spec);
  if (!new_axes.empty()) basic = expand_dims(basic, std::vector<int>(new_axes.begin(), new_axes.end()));
  if (adv.empty()) return basic;

  // NumPy's placement rule: the selected axes replace the indexed ones when every advanced
  // entry (integers included) is adjacent in the key; otherwise they go first.
  const bool adjacent = adv_slots.back() - adv_slots.front() + 1 ==
                        static_cast<int>(adv_slots.size());
  const Shape b = broadcast_indices(adv, key);
  // Move the indexed axes together (they already are when adjacent), merge them into one, and
  // gather there with the linear index.
  std::vector<int> perm;
  const int first = adv.front().view_axis;
  std::vector<bool> selected(static_cast<size_t>(basic.ndim()), false);
  for (int d = 0; d < first; ++d) perm.push_back(d);
  for (const Advanced& a : adv)
    for (int j = 0; j < a.span; ++j) {
      perm.push_back(a.view_axis + j);
      selected[a.view_axis + j] = true;
    }
  for (int d = first; d < basic.ndim(); ++d)
    if (!selected[d]) perm.push_back(d);
  Tensor moved = transpose(basic, perm);
  int k = 0;
  for (const Advanced& a : adv) k += a.span;
  Shape merged, result;
  for (int d = 0; d < first; ++d) merged.push_back(moved.shape()[d]);
  merged.push_back(1);
  for (int d = first + k; d < moved.ndim(); ++d) merged.push_back(moved.shape()[d]);
  // The linear index into the merged axes: ((i0 * n1) + i1) * n2 + ... over the entries.
  Tensor linear;
  int at = first;
  for (const Advanced& a : adv) {
    int64_t n = 1;
    for (int j = 0; j < a.span; ++j) n *= moved.shape()[at + j];
    at += a.span;
    Tensor idx =
        a.checked ? a.index : detail::normalize_indices(kGetItemOp, a.index, n, a.source_axis);
    idx = detail::cast(idx, DType::Int64);
    linear = !linear.defined()
                 ? idx
                 : detail::run_binary(backend::BinaryOp::Add,
                                      detail::run_binary(backend::BinaryOp::Mul, linear,
                                                         detail::scalar_tensor(n, DType::Int64, x.backend())),
                                      idx);
    merged[first] *= n;
  }
  linear = broadcast_to(linear, b);
  Tensor picked = detail::index_select(reshape(moved, merged), ravel(linear), first);
  for (int d = 0; d < first; ++d) result.push_back(merged[d]);
  for (int64_t s : b) result.push_back(s);
  for (int d = first + 1; d < merged.rank(); ++d) result.push_back(merged[d]);
  Tensor out = reshape(picked, result);
  if (adjacent || first == 0) return out;
  std::vector<int> src_axes, dst_axes;
  for (int i = 0; i < b.rank(); ++i) {
    src_axes.push_back(first + i);
    dst_axes.push_back(i);
  }
  return moveaxis(out, src_axes, dst_axes);
}

Tensor get_item(const Tensor& x, std::initializer_list<Index> key) {
  return get_item(x, std::span<const Index>(key.begin(), key.size()));
}

}  // namespace numpy
}  // namespace keras::ops

namespace keras {

Tensor Tensor::index(
    std::initializer_list<std::variant<int64_t, Slice, EllipsisType, NewAxisType, Tensor>> indices)
    const {
  return ops::get_item(*this, std::span<const ops::Index>(indices.begin(), indices.size()));
}

}  // namespace keras
