// Parts of traced tensors, for CallTracer (call_tracer.h):
//   read: an array that takes some of a traced value's elements (x[:, 2:5], x[..., ::-1],
//     x[:, 0]) is a Slice of the value (starts, ends, steps per axis), then the usual view.
//   write: an op that fills its output in parts (concatenate and stack copy each input into a
//     slab of it; pad fills, then copies the input into the middle) leaves the storage in
//     parts; the first read joins them with a Concat along the one axis they split, the parts
//     written with constants (or never written: pad's border) read from memory.
// Anything else (parts along several axes, a write into a value already read, a slice of the
// batch axis) is refused with its reason.

#include <algorithm>
#include <cstring>
#include <limits>

#include "call_tracer.h"
#include "compiler/backend_call.h"
#include "keras/core/errors.h"
#include "trace_call.h"

namespace keras::onnx {

using backend::Array;

namespace {

std::vector<int64_t> row_major_strides(const Shape& shape) {
  std::vector<int64_t> strides(static_cast<size_t>(shape.rank()), 1);
  for (int d = shape.rank() - 2; d >= 0; --d) strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

int64_t storage_elements(const Array& a) {
  return static_cast<int64_t>(a.storage->nbytes() / itemsize(a.dtype));
}

// The axis along which `part` (a view of a row-major tensor of `total` elements) does not span
// the whole tensor, given that it spans it along every other axis; -1 if it spans all of it,
// -2 if it falls short along several axes or is not such a view.
int short_axis(const Array& part, int64_t total) {
  int axis = -1;
  for (int d = 0; d < part.rank(); ++d) {
    const int64_t outer = d == 0 ? total : part.strides[d - 1];
    if (part.strides[d] <= 0) return -2;
    if (part.shape[d] * part.strides[d] == outer) continue;
    if (axis != -1) return -2;
    axis = d;
  }
  return axis;
}

// Whether every example (index along axis 0) of `region` holds the same values as the first.
bool same_for_every_example(const Array& region) {
  std::vector<char> memory(region.storage->nbytes());
  compiler::detail::as_backend_call([&] {
    region.storage->owner().copy_to_host(memory.data(), *region.storage, 0, memory.size());
  });
  const size_t item = itemsize(region.dtype);
  const int64_t per_example = region.numel() / std::max<int64_t>(region.shape[0], 1);
  for (int64_t i = 0; i < per_example; ++i) {
    int64_t rest = i, at = region.offset;
    for (int d = region.rank() - 1; d >= 1; --d) {
      at += (rest % region.shape[d]) * region.strides[d];
      rest /= region.shape[d];
    }
    for (int64_t b = 1; b < region.shape[0]; ++b)
      if (std::memcmp(memory.data() + at * item,
                      memory.data() + (at + b * region.strides[0]) * item, item) != 0)
        return false;
  }
  return true;
}

}  // namespace

bool covers_storage(const Array& a) {
  return a.offset == 0 && a.is_contiguous() && a.numel() == storage_elements(a);
}

void CallTracer::write_part(const Array& out, const std::string& value) {
  const backend::Storage* storage = out.storage.get();
  if (values_.count(storage))
    unmapped("a write into part of a tensor computed from the inputs (a slice update)");
  // Storages written in parts by constant work alone are never joined: drop those nobody else
  // holds any more, so a long trace does not keep their memory.
  std::erase_if(parts_, [](const auto& entry) {
    const Parts& p = entry.second;
    return !p.traced && p.list.front().array.storage->use_count() == static_cast<int>(p.list.size());
  });
  Parts& parts = parts_[storage];
  parts.list.push_back({out, value});
  parts.traced = parts.traced || !value.empty();
}

CallTracer::Value CallTracer::join(const backend::Storage* storage) {
  Parts parts = std::move(parts_.at(storage));
  parts_.erase(storage);
  const Array& first = parts.list.front().array;
  const int64_t total = storage_elements(first);
  auto refuse = [&]() {
    unmapped("a tensor written in parts that are not slabs along one axis (a pad of several " +
             std::string("axes, an update of a slice)"));
  };
  int axis = -1;
  for (const Part& p : parts.list) {
    if (p.array.rank() != first.rank() || p.array.strides != first.strides) refuse();
    const int a = short_axis(p.array, total);
    if (a == -2 || (a >= 0 && axis >= 0 && a != axis)) refuse();
    if (a >= 0) axis = a;
  }
  if (axis < 0) refuse();
  if (axis == 0 && dynamic_batch_)
    unmapped("a join (concatenate, stack, pad) along the batch axis");
  const int64_t step = first.strides[axis];
  Shape whole = first.shape;
  whole[axis] = (axis == 0 ? total : first.strides[axis - 1]) / step;

  // The parts in order along the axis; later writes of the same slab replace earlier ones.
  struct Slab {
    int64_t begin, end;
    const Part* part;
  };
  std::vector<Slab> slabs;
  for (const Part& p : parts.list) {
    const int64_t begin = p.array.offset / step, end = begin + p.array.shape[axis];
    if (p.array.offset % step != 0 || end > whole[axis]) refuse();
    std::erase_if(slabs, [&](const Slab& s) { return s.begin == begin && s.end == end; });
    for (const Slab& s : slabs)
      if (s.begin < end && begin < s.end) refuse();  // overlapping writes of different slabs
    slabs.push_back({begin, end, &p});
  }
  std::sort(slabs.begin(), slabs.end(), [](const Slab& x, const Slab& y) { return x.begin < y.begin; });

  // Each slab's value; the gaps and constant slabs from memory. A constant slab as long as
  // the batch (a pad of a feature axis, a learned token broadcast to every example) must be the
  // same for every example: it is stored once and expanded to the batch of a traced slab.
  std::string batch_shape;
  auto from_memory = [&](int64_t begin, int64_t end) {
    Array region = first;
    region.offset = begin * step;
    region.shape[axis] = end - begin;
    if (!dynamic_batch_ || region.shape[0] != kTraceBatch) return constant(region, true);
    if (!same_for_every_example(region))
      unmapped("a join (concatenate, stack, pad) with constants that differ between the " +
               std::string("examples of the batch"));
    if (batch_shape.empty()) {
      const std::string& traced_slab =
          std::find_if(parts.list.begin(), parts.list.end(),
                       [](const Part& p) { return !p.value.empty(); })->value;
      batch_shape = g_.node("Shape", {traced_slab}, {{"end", int64_t{1}}}, scope());
    }
    std::vector<int64_t> rest(region.shape.begin() + 1, region.shape.end());
    const std::string target = g_.node(
        "Concat", {batch_shape, g_.constant_i64(scope() + "/shape", rest)}, {{"axis", int64_t{0}}},
        scope());
    region.shape[0] = 1;
    return g_.node("Expand", {constant(region, true), target}, {}, scope());
  };
  std::vector<std::string> pieces;
  int64_t at = 0;
  for (const Slab& s : slabs) {
    if (s.begin > at) pieces.push_back(from_memory(at, s.begin));
    pieces.push_back(s.part->value.empty() ? from_memory(s.begin, s.end) : s.part->value);
    at = s.end;
  }
  if (at < whole[axis]) pieces.push_back(from_memory(at, whole[axis]));
  const std::string name =
      pieces.size() == 1 ? pieces[0]
                         : g_.node("Concat", pieces, {{"axis", int64_t{axis}}}, scope());
  return values_[storage] = Value{first.storage, name, whole};
}

// `a` takes, along each axis of the value, every step-th element of a run (a reversed run for
// a negative step) or one element: a Slice, then a view of the sliced value.
std::string CallTracer::slice(const Value& base, const Array& a, bool full) {
  auto refuse = [&]() {
    unmapped("a strided view of a traced tensor that is no slice of it (a diagonal, " +
             std::string("overlapping windows)"));
  };
  const Shape& dims = base.shape;
  const int rank = dims.rank();
  const std::vector<int64_t> stride = row_major_strides(dims);
  if (a.offset < 0 || a.offset >= dims.numel()) refuse();
  std::vector<int64_t> start(rank), step(rank, 1), count(rank, 1);
  for (int b = 0; b < rank; ++b) start[b] = (a.offset / stride[b]) % dims[b];
  std::vector<bool> used(rank, false);
  std::vector<int> axis_of(static_cast<size_t>(a.rank()), -1);
  for (int d = 0; d < a.rank(); ++d) {
    if (a.shape[d] == 1 || a.strides[d] == 0) continue;
    const int64_t magnitude = std::abs(a.strides[d]), n = a.shape[d];
    // The outermost free axis whose stride divides the array's and whose extent holds the run.
    for (int b = 0; b < rank && axis_of[d] < 0; ++b) {
      if (used[b] || dims[b] == 1 || magnitude % stride[b] != 0) continue;
      const int64_t s = magnitude / stride[b] * (a.strides[d] < 0 ? -1 : 1);
      const int64_t last = start[b] + s * (n - 1);
      if (last < 0 || last >= dims[b]) continue;
      used[b] = true, axis_of[d] = b, step[b] = s, count[b] = n;
    }
    if (axis_of[d] < 0) refuse();
  }
  if (dynamic_batch_ && rank > 0 && dims[0] == kTraceBatch &&
      !(start[0] == 0 && step[0] == 1 && count[0] == dims[0]))
    unmapped("a slice of the batch axis (or one example of the batch)");

  std::vector<int64_t> starts, ends, axes, steps;
  Shape sliced;
  for (int b = 0; b < rank; ++b) {
    sliced.push_back(count[b]);
    if (start[b] == 0 && step[b] == 1 && count[b] == dims[b]) continue;
    int64_t end = start[b] + step[b] * (count[b] - 1) + (step[b] > 0 ? 1 : -1);
    // A negative end counts from the back in ONNX: before the first element is INT64_MIN.
    if (end < 0) end = std::numeric_limits<int64_t>::min();
    starts.push_back(start[b]);
    ends.push_back(end);
    axes.push_back(b);
    steps.push_back(step[b]);
  }
  const std::string name = axes.empty() ? base.name : g_.node(
      "Slice",
      {base.name, g_.constant_i64(scope() + "/starts", starts),
       g_.constant_i64(scope() + "/ends", ends), g_.constant_i64(scope() + "/axes", axes),
       g_.constant_i64(scope() + "/steps", steps)},
      {}, scope());
  // The same elements as `a`, now read from the sliced value in order.
  const std::vector<int64_t> sliced_stride = row_major_strides(sliced);
  Array inner = a;
  inner.offset = 0;
  for (int d = 0; d < a.rank(); ++d)
    inner.strides[d] = axis_of[d] >= 0 ? sliced_stride[axis_of[d]] : a.strides[d] == 0 ? 0 : 1;
  return view(Value{base.storage, name, sliced}, inner, full, /*may_slice=*/false);
}

}  // namespace keras::onnx
