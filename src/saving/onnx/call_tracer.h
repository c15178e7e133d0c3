#pragma once
// CallTracer: what watches one traced call() for trace_layer_call (trace_call.h). It is the
// thread's TraceObserver (every backend the front end reaches is routed to a WatchingBackend,
// which runs the real primitive and reports it here) and its LayerCallObserver (a sublayer
// that converts whole is run unwatched and becomes its converter's nodes).
//
// Each storage the call computes from its inputs holds an ONNX value (its contents, row-major,
// from offset 0); an array read from it is that value sliced, reshaped, transposed or broadcast
// as the array's offset and strides say. A storage written in parts (concatenate, stack, a pad
// of one axis) holds the parts until it is read, then their Concat (traced_parts.cpp).
// Storages computed from nothing traced are constants, read back as initializers when a traced
// primitive reads them.

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "keras/backend/backend.h"
#include "keras/backend/trace_hook.h"
#include "keras/layers/layer.h"
#include "layers/call_state.h"
#include "onnx_graph.h"

namespace keras::onnx {

class CallTracer final : public backend::TraceObserver, public keras::detail::LayerCallObserver {
 public:
  /// Starts watching this thread. `dynamic_batch`: dimension 0 of extent kTraceBatch is the
  /// batch axis.
  CallTracer(Graph& g, Layer& root, bool dynamic_batch);
  ~CallTracer() override;
  CallTracer(const CallTracer&) = delete;
  CallTracer& operator=(const CallTracer&) = delete;

  /// `t` (an input of the call) holds ONNX value `value`.
  void bind(const Tensor& t, const std::string& value);
  /// The ONNX value of an array: a traced value viewed as the array, or a constant. `full`:
  /// with the array's own shape (else broadcast axes may stay 1, for an operator that
  /// broadcasts).
  std::string value_of(const backend::Array& a, bool full);
  /// The Keras shape of a traced shape (the batch axis -1 where it is dynamic).
  Shape keras_shape(const Shape& s) const;
  /// Fails for a tensor carrying a Keras mask (an ONNX graph has no place for it).
  void refuse_mask(const Tensor& t, const std::string& what) const;

  // ---- from the WatchingBackend (after the real primitive ran) ----
  bool traced(const backend::Array& a) const;
  /// Output `out` now holds ONNX value `value`.
  void define(const backend::Array& out, const std::string& value);
  /// Output `out` was computed from constants only.
  void constant_written(const backend::Array& out);
  /// All of `storage` was written from the host or by a host loop.
  void constant_written(const backend::Storage* storage);
  /// ValueError: the layer whose call() is traced uses `what`, which has no ONNX form.
  [[noreturn]] void unmapped(const std::string& what) const;
  Graph& graph() { return g_; }
  /// The base name of values made by the layer being traced.
  const std::string& scope() const;
  /// A Reshape of `x` (now of shape `from`) to `to` (batch-sized dimensions written as the
  /// batch axis).
  std::string reshape(const std::string& x, const Shape& from, const Shape& to);
  /// `x` broadcast to `shape` (an Expand; the batch axis stays dynamic).
  std::string expand(const std::string& x, const Shape& shape);

  // ---- TraceObserver ----
  backend::Backend& route(backend::Backend& inner) override;
  void on_host_access(const backend::Array& array) override;
  void on_host_kernel(std::string_view name, std::span<const backend::Array> arrays,
                      size_t num_outputs, const backend::HostKernel& kernel) override;
  void on_variable(const Variable&, const backend::Array&) override {}
  void on_variable_created() override {}
  void on_host_check(const backend::Array& array,
                     const std::function<void(const void* host)>& check) override;
  void on_untraceable(std::string_view) override {}
  void on_layer(std::string_view) override {}
  void on_draw(uint64_t, uint64_t, std::function<std::pair<uint64_t, uint64_t>()>) override {}
  int new_label() override { return next_label_++; }
  void on_control(backend::ControlOp, int, const backend::Array*) override;
  void on_region(bool) override {}
  void drop_labels(std::span<const int>) override {}

  // ---- LayerCallObserver ----
  void enter(Layer& layer) override;
  void leave(Layer& layer, const TensorList& inputs, bool list_call,
             const TensorList& outputs) override;
  void abandon(Layer& layer) override;

 private:
  struct Value {
    Ref<backend::Storage> storage;  // kept alive, so that its address is not reused
    std::string name;
    Shape shape;
  };
  // Parts of a storage written one at a time (see traced_parts.cpp).
  struct Part {
    backend::Array array;  // where in the storage (holds it)
    std::string value;     // its ONNX value; empty: constants, read from memory when joined
  };
  struct Parts {
    std::vector<Part> list;
    bool traced = false;  // some part holds a traced value
  };
  struct Frame {
    Layer* layer;
    bool converted;  // a sublayer run unwatched and converted whole
  };
  // `may_slice`: a view that takes only some of the value's elements is sliced first.
  std::string view(const Value& base, const backend::Array& a, bool full, bool may_slice = true);
  std::string constant(const backend::Array& a, bool full);
  // traced_parts.cpp
  void write_part(const backend::Array& out, const std::string& value);
  Value join(const backend::Storage* storage);
  std::string slice(const Value& base, const backend::Array& a, bool full);
  const Layer& current() const;
  void pop(Layer& layer);

  Graph& g_;
  Layer& root_;
  bool dynamic_batch_;
  std::unordered_map<const backend::Storage*, Value> values_;
  std::unordered_map<const backend::Storage*, Parts> parts_;
  std::map<std::string, std::pair<Ref<backend::Storage>, std::string>> constants_;
  std::unordered_map<const backend::Storage*, std::string> weight_paths_;
  std::map<backend::Backend*, std::unique_ptr<backend::Backend>> wrappers_;
  std::vector<Frame> frames_;
  int converting_ = 0;  // open calls of converted sublayers
  int next_label_ = 0;
  backend::TraceObserver* previous_trace_;
  keras::detail::LayerCallObserver* previous_layer_observer_;
};

/// True when `a` is all of its storage, in row-major order from its start.
bool covers_storage(const backend::Array& a);

/// The backend the traced call talks to: runs each primitive on `inner` and maps it to ONNX.
std::unique_ptr<backend::Backend> make_watching_backend(CallTracer& tracer, backend::Backend& inner);

}  // namespace keras::onnx
