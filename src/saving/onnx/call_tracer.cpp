#include "call_tracer.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "compiler/backend_call.h"
#include "keras/autograd/variable.h"
#include "keras/core/errors.h"
#include "keras/tensor/keras_mask.h"
#include "layer_call.h"
#include "trace_call.h"

namespace keras::onnx {

using backend::Array;
using compiler::detail::as_backend_call;

CallTracer::CallTracer(Graph& g, Layer& root, bool dynamic_batch)
    : g_(g), root_(root), dynamic_batch_(dynamic_batch) {
  for (const Variable& v : root.weights())
    weight_paths_[v.value().array().storage.get()] = v.path();
  previous_trace_ = backend::detail::set_thread_observer(this);
  previous_layer_observer_ = keras::detail::layer_call_observer();
  keras::detail::layer_call_observer() = this;
}

CallTracer::~CallTracer() {
  keras::detail::layer_call_observer() = previous_layer_observer_;
  backend::detail::set_thread_observer(previous_trace_);
}

void CallTracer::bind(const Tensor& t, const std::string& value) {
  values_[t.array().storage.get()] = Value{t.array().storage, value, t.shape()};
}

bool CallTracer::traced(const Array& a) const {
  if (!a.storage) return false;
  if (values_.count(a.storage.get()) > 0) return true;
  auto parts = parts_.find(a.storage.get());
  return parts != parts_.end() && parts->second.traced;
}

Shape CallTracer::keras_shape(const Shape& s) const {
  Shape out = s;
  if (dynamic_batch_ && out.rank() > 0 && out[0] == kTraceBatch) out[0] = -1;
  return out;
}

void CallTracer::refuse_mask(const Tensor& t, const std::string& what) const {
  if (get_keras_mask(t).defined())
    unmapped(what + " that carries a mask (Embedding(mask_zero), Masking); ONNX graphs have " +
             "no masks");
}

const Layer& CallTracer::current() const {
  for (auto it = frames_.rbegin(); it != frames_.rend(); ++it)
    if (!it->converted) return *it->layer;
  return root_;
}

const std::string& CallTracer::scope() const { return current().name(); }

void CallTracer::unmapped(const std::string& what) const {
  const Layer& layer = current();
  throw ValueError("export: layer \"" + layer.name() + "\" (" + layer.class_name() +
                   ") cannot be exported to ONNX: its call() uses " + what +
                   ", which has no ONNX mapping (docs/deployment.md lists the ops that export).");
}

// ---- values ---------------------------------------------------------------------------------

void CallTracer::define(const Array& out, const std::string& value) {
  if (!covers_storage(out)) return write_part(out, value);
  parts_.erase(out.storage.get());
  values_[out.storage.get()] = Value{out.storage, value, out.shape};
}

void CallTracer::constant_written(const Array& out) {
  if (!covers_storage(out)) return write_part(out, "");
  constant_written(out.storage.get());
}

void CallTracer::constant_written(const backend::Storage* storage) {
  values_.erase(storage);
  parts_.erase(storage);
}

std::string CallTracer::value_of(const Array& a, bool full) {
  auto it = values_.find(a.storage.get());
  if (it != values_.end()) return view(it->second, a, full);
  if (traced(a)) return view(join(a.storage.get()), a, full);
  return constant(a, full);
}

std::string CallTracer::reshape(const std::string& x, const Shape& from, const Shape& to) {
  std::vector<int64_t> dims = to.to_vector();
  int inferred = 0;
  for (size_t i = 0; i < dims.size() && dynamic_batch_; ++i) {
    // The batch axis, or the batch axis merged with others (matmul folds (batch, n, k) into
    // (batch * n, k); kTraceBatch is a prime no other extent is a multiple of): copied from
    // the input where it stays first, else inferred.
    if (dims[i] == 0 || dims[i] % kTraceBatch != 0) continue;
    if (i == 0 && dims[0] == kTraceBatch && from.rank() > 0 && from[0] == kTraceBatch) {
      dims[i] = 0;
    } else {
      dims[i] = -1;
      ++inferred;
    }
  }
  if (inferred > 1)
    unmapped("a reshape to " + shape_string(to) + " that splits the batch axis");
  return g_.node("Reshape", {x, g_.constant_i64(scope() + "/shape", dims)}, {}, scope());
}

std::string CallTracer::expand(const std::string& x, const Shape& shape) {
  std::vector<int64_t> dims = shape.to_vector();
  // Expand broadcasts both ways: a 1 keeps the input's extent (the batch axis).
  if (dynamic_batch_ && !dims.empty() && dims[0] == kTraceBatch) dims[0] = 1;
  return g_.node("Expand", {x, g_.constant_i64(scope() + "/shape", dims)}, {}, scope());
}

// An array over a traced value: the value's elements in another order (its axes permuted),
// some axes of extent 1 added or broadcast (stride 0). Anything else (a slice, a reversed
// axis) is a Slice first (traced_parts.cpp).
std::string CallTracer::view(const Value& base, const Array& a, bool full, bool may_slice) {
  if (a.offset == 0 && a.shape == base.shape && a.is_contiguous()) return base.name;
  const int rank = a.rank();
  std::vector<int> kept;  // axes that walk through the value's elements
  for (int d = 0; d < rank; ++d)
    if (a.shape[d] != 1 && a.strides[d] != 0) kept.push_back(d);
  std::vector<int> order = kept;  // the same axes, outermost in memory first
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return a.strides[x] > a.strides[y]; });
  int64_t expected = 1;
  bool dense = a.offset == 0;
  for (auto it = order.rbegin(); it != order.rend() && dense; ++it) {
    dense = a.strides[*it] == expected;
    expected *= a.shape[*it];
  }
  if (!dense || expected != base.shape.numel()) {
    if (may_slice) return slice(base, a, full);
    unmapped("a strided view of a traced tensor that is no slice of it");
  }

  std::string x = base.name;
  Shape current = base.shape;
  Shape memory_order;
  for (int d : order) memory_order.push_back(a.shape[d]);
  if (memory_order != current) {
    x = reshape(x, current, memory_order);
    current = memory_order;
  }
  if (order != kept) {
    std::vector<int64_t> perm;
    Shape permuted;
    for (int d : kept) {
      const auto pos = std::find(order.begin(), order.end(), d) - order.begin();
      perm.push_back(pos);
      permuted.push_back(a.shape[d]);
    }
    x = transpose(g_, x, perm, scope());
    current = permuted;
  }
  Shape compact = a.shape;
  for (int d = 0; d < rank; ++d)
    if (a.strides[d] == 0) compact[d] = 1;
  if (compact != current) x = reshape(x, current, compact);
  if (full && compact != a.shape) x = expand(x, a.shape);
  return x;
}

// A constant the call reads (a weight, a number, a tensor made from nothing traced): its
// values as an initializer, broadcast axes kept at extent 1.
std::string CallTracer::constant(const Array& a, bool full) {
  Shape compact = a.shape;
  for (int d = 0; d < a.rank(); ++d)
    if (a.strides[d] == 0) compact[d] = 1;
  std::string key(reinterpret_cast<const char*>(&a.offset), sizeof(a.offset));
  key += std::to_string(reinterpret_cast<uintptr_t>(a.storage.get())) + "/" +
         std::to_string(static_cast<int>(a.dtype));
  for (int d = 0; d < a.rank(); ++d)
    key += "/" + std::to_string(compact[d]) + ":" + std::to_string(a.strides[d]);
  // A constant that follows the batch size (ones_like of a traced tensor) would fix it.
  for (int d = 0; d < a.rank() && dynamic_batch_; ++d)
    if (compact[d] != 0 && compact[d] % kTraceBatch == 0)
      unmapped("a tensor of the batch's size made from no input (ones_like, zeros_like, " +
               std::string("full of a traced shape); compute it from the input instead"));
  auto found = constants_.find(key);
  std::string name;
  if (found != constants_.end()) {
    name = found->second.second;
  } else {
    const size_t item = itemsize(a.dtype);
    std::vector<char> memory(a.storage->nbytes());
    as_backend_call([&] { a.storage->owner().copy_to_host(memory.data(), *a.storage, 0, memory.size()); });
    std::vector<char> values(static_cast<size_t>(compact.numel()) * item);
    for (int64_t i = 0; i < compact.numel(); ++i) {
      int64_t rest = i, at = a.offset;
      for (int d = a.rank() - 1; d >= 0; --d) {
        at += (rest % compact[d]) * a.strides[d];
        rest /= compact[d];
      }
      std::memcpy(values.data() + i * item, memory.data() + at * item, item);
    }
    auto path = weight_paths_.find(a.storage.get());
    const std::string base = path != weight_paths_.end() ? path->second : scope() + "/const";
    backend::UntracedScope untraced;
    name = g_.initializer(base, Tensor::from_host(values.data(), a.dtype, compact,
                                                  static_cast<size_t>(compact.numel()), "cpu"));
    constants_[key] = {a.storage, name};
  }
  return full && compact != a.shape ? expand(name, a.shape) : name;
}

// ---- TraceObserver --------------------------------------------------------------------------

backend::Backend& CallTracer::route(backend::Backend& inner) {
  auto& wrapper = wrappers_[&inner];
  if (!wrapper) wrapper = make_watching_backend(*this, inner);
  return *wrapper;
}

void CallTracer::on_host_access(const Array& array) {
  if (traced(array))
    unmapped("a traced tensor's values on the host (control flow that depends on the data)");
}

void CallTracer::on_host_kernel(std::string_view name, std::span<const Array> arrays,
                                size_t num_outputs, const backend::HostKernel& kernel) {
  for (size_t k = num_outputs; k < arrays.size(); ++k)
    if (traced(arrays[k])) unmapped("the host loop \"" + std::string(name) + "\"");
  as_backend_call([&] { kernel(arrays.data()); });
  for (size_t k = 0; k < num_outputs; ++k) constant_written(arrays[k]);
}

void CallTracer::on_host_check(const Array& array,
                               const std::function<void(const void* host)>& check) {
  std::vector<char> host(array.nbytes());
  as_backend_call([&] {
    array.storage->owner().copy_to_host(
        host.data(), *array.storage, static_cast<size_t>(array.offset) * itemsize(array.dtype),
        host.size());
  });
  check(host.data());
}

void CallTracer::on_control(backend::ControlOp, int, const Array*) {
  unmapped("control flow (ops::cond, ops::while_loop, ops::fori_loop, ops::scan)");
}

// ---- LayerCallObserver ----------------------------------------------------------------------

void CallTracer::enter(Layer& layer) {
  const bool convert = converting_ == 0 && &layer != &root_ && !traced_by_call(layer);
  frames_.push_back({&layer, convert});
  if (!convert) return;
  // Unwatched: the sublayer's own primitives are its converter's business.
  if (converting_++ == 0) backend::detail::set_thread_observer(previous_trace_);
}

void CallTracer::pop(Layer& layer) {
  if (frames_.empty() || frames_.back().layer != &layer) return;
  if (frames_.back().converted && --converting_ == 0)
    backend::detail::set_thread_observer(this);
  frames_.pop_back();
}

void CallTracer::abandon(Layer& layer) { pop(layer); }

void CallTracer::leave(Layer& layer, const TensorList& inputs, bool list_call,
                       const TensorList& outputs) {
  const bool converted = !frames_.empty() && frames_.back().converted;
  pop(layer);
  if (!converted || converting_ > 0) return;
  std::vector<std::string> in;
  std::vector<Shape> shapes, out_shapes;
  std::vector<DType> dtypes;
  for (const Tensor& x : inputs) {
    refuse_mask(x, "layer \"" + layer.name() + "\" on a tensor");
    in.push_back(value_of(x.array(), true));
    shapes.push_back(keras_shape(x.shape()));
    dtypes.push_back(x.dtype());
  }
  for (const Tensor& y : outputs) out_shapes.push_back(keras_shape(y.shape()));
  const std::vector<std::string> out = convert_layer_call(
      g_, layer.shared_from_this(), in, shapes, out_shapes, nullptr, dtypes, list_call);
  for (size_t i = 0; i < outputs.size() && i < out.size(); ++i) {
    // An output that is a view of a traced input (Reshape, Identity) is that view already.
    const Array& y = outputs[i].array();
    if (traced(y)) continue;
    if (y.offset != 0 || !y.is_contiguous())
      unmapped("layer \"" + layer.name() + "\", whose output is a strided view of its own " +
               "result");
    define(y, out[i]);
  }
}

}  // namespace keras::onnx
