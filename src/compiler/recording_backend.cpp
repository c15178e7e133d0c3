#include "compiler/recording_backend.h"

#include <string>

#include "compiler/backend_call.h"
#include "compiler/trace.h"

namespace keras::compiler::detail {

using backend::Activation;
using backend::Array;
using backend::Backend;
using backend::ConvSpec;
using backend::PoolSpec;
using Draw = const std::pair<uint64_t, uint64_t>*;

namespace {

template <typename T, size_t N>
void put(KeyWriter& k, const SmallVector<T, N>& v) {
  k << v.size();
  for (const T& x : v) k << x;
}

KeyWriter key_of(std::string_view name, const ConvSpec& s) {
  KeyWriter k(name);
  k << s.spatial_dims << s.groups << s.channels_last;
  put(k, s.strides);
  put(k, s.dilation);
  put(k, s.pad_before);
  put(k, s.pad_after);
  return k;
}

KeyWriter key_of(std::string_view name, const PoolSpec& s) {
  KeyWriter k(name);
  k << s.kind << s.spatial_dims << s.channels_last;
  put(k, s.window);
  put(k, s.strides);
  put(k, s.pad_before);
  put(k, s.pad_after);
  return k;
}

// A scalar by its fields (the struct itself has padding bytes).
KeyWriter& operator<<(KeyWriter& k, const Scalar& v) {
  k << v.kind() << v.dtype() << v.is_weak();
  if (v.is_floating()) return k << v.to_double();
  return k << v.to_int();
}

using Kind = backend::ElementwiseStep::Kind;

backend::ElementwiseStep step(Kind kind, uint8_t op, double p0 = 0, double p1 = 0) {
  backend::ElementwiseStep s;
  s.kind = kind;
  s.op = op;
  s.p0 = p0;
  s.p1 = p1;
  return s;
}

// A byte window of a storage, as an Array the trace can number.
Array bytes_of(const backend::Storage& storage, size_t byte_offset, size_t nbytes) {
  Array a;
  a.storage = Ref<backend::Storage>(const_cast<backend::Storage*>(&storage));
  a.offset = static_cast<int64_t>(byte_offset);
  a.dtype = DType::UInt8;
  a.shape = Shape{static_cast<int64_t>(nbytes)};
  a.strides = Strides{1};
  return a;
}

// The structured parameters the pattern passes read (instruction.h).
void note_epilogue(Instruction& instr, const ConvSpec& spec, Activation activation) {
  instr.conv_spec = spec;
  instr.activation = activation;
}

}  // namespace

// ---- memory ----------------------------------------------------------------------------------

Ref<backend::Storage> RecordingBackend::allocate(size_t nbytes) {
  Ref<backend::Storage> s = inner_.allocate(nbytes);
  if (trace_) trace_->note_allocated(s);
  return s;
}

void RecordingBackend::copy_from_host(backend::Storage& dst, size_t byte_offset, const void* src,
                                      size_t nbytes) {
  if (trace_) trace_->check_host_source(src, nbytes);
  as_backend_call([&] { inner_.copy_from_host(dst, byte_offset, src, nbytes); });
  // A constant: its bytes are part of the key, so two traces agree only on equal data.
  std::string data(static_cast<const char*>(src), nbytes);
  Array window = bytes_of(dst, byte_offset, nbytes);
  if (trace_) trace_->record(KeyWriter("copy_from_host").bytes(data.data(), data.size()), {&window}, {},
                [data](Backend& be, const Array* a, Draw) {
                  be.copy_from_host(*a[0].storage, static_cast<size_t>(a[0].offset), data.data(),
                                    data.size());
                });
}

void RecordingBackend::copy_to_host(void* dst, const backend::Storage& src, size_t byte_offset,
                                    size_t nbytes) {
  if (trace_) trace_->note_host_read(nbytes);
  as_backend_call([&] { inner_.copy_to_host(dst, src, byte_offset, nbytes); });
}

// ---- primitives ------------------------------------------------------------------------------

void RecordingBackend::fill(const Array& out, const Scalar& value) {
  as_backend_call([&] { inner_.fill(out, value); });
  KeyWriter key("fill");
  key << value;
  if (trace_) trace_->record(std::move(key), {&out}, {},
                [value](Backend& be, const Array* a, Draw) { be.fill(a[0], value); });
}

void RecordingBackend::arange(const Array& out, double start, double step) {
  as_backend_call([&] { inner_.arange(out, start, step); });
  if (trace_) trace_->record(KeyWriter("arange") << start << step, {&out}, {},
                [start, step](Backend& be, const Array* a, Draw) { be.arange(a[0], start, step); });
}

void RecordingBackend::random(const Array& out, backend::RandomKind kind, uint64_t seed,
                              uint64_t counter) {
  as_backend_call([&] { inner_.random(out, kind, seed, counter); });
  if (trace_) trace_->record_random(out, kind, seed, counter);
}

void RecordingBackend::copy(const Array& dst, const Array& src, backend::CopyMode mode) {
  as_backend_call([&] { inner_.copy(dst, src, mode); });
  if (trace_) trace_->record(
      KeyWriter("copy") << mode, {&dst}, {&src},
      [mode](Backend& be, const Array* a, Draw) { be.copy(a[0], a[1], mode); },
      mode == backend::CopyMode::Add, step(Kind::Copy, static_cast<uint8_t>(mode)));
}

void RecordingBackend::unary(backend::UnaryOp op, const Array& out, const Array& x, double p0,
                             double p1) {
  as_backend_call([&] { inner_.unary(op, out, x, p0, p1); });
  if (trace_) trace_->record(KeyWriter("unary") << op << p0 << p1, {&out}, {&x},
                [op, p0, p1](Backend& be, const Array* a, Draw) {
                  be.unary(op, a[0], a[1], p0, p1);
                },
                false, step(Kind::Unary, static_cast<uint8_t>(op), p0, p1));
}

void RecordingBackend::binary(backend::BinaryOp op, const Array& out, const Array& a,
                              const Array& b) {
  as_backend_call([&] { inner_.binary(op, out, a, b); });
  if (trace_) trace_->record(KeyWriter("binary") << op, {&out}, {&a, &b},
                [op](Backend& be, const Array* x, Draw) { be.binary(op, x[0], x[1], x[2]); },
                false, step(Kind::Binary, static_cast<uint8_t>(op)));
}

void RecordingBackend::where(const Array& out, const Array& cond, const Array& a, const Array& b) {
  as_backend_call([&] { inner_.where(out, cond, a, b); });
  if (trace_) trace_->record(KeyWriter("where"), {&out}, {&cond, &a, &b},
                [](Backend& be, const Array* x, Draw) { be.where(x[0], x[1], x[2], x[3]); },
                false, step(Kind::Where, 0));
}

void RecordingBackend::reduce(backend::ReduceOp op, const Array& out, const Array& x,
                              uint64_t axes) {
  as_backend_call([&] { inner_.reduce(op, out, x, axes); });
  if (trace_) trace_->record(KeyWriter("reduce") << op << axes, {&out}, {&x},
                [op, axes](Backend& be, const Array* a, Draw) { be.reduce(op, a[0], a[1], axes); });
  if (trace_) trace_->instructions.back().reduction = std::make_pair(op, axes);
}

void RecordingBackend::arg_reduce(backend::ArgReduceOp op, const Array& out, const Array& x,
                                  int axis) {
  as_backend_call([&] { inner_.arg_reduce(op, out, x, axis); });
  if (trace_) trace_->record(KeyWriter("arg_reduce") << op << axis, {&out}, {&x},
                [op, axis](Backend& be, const Array* a, Draw) {
                  be.arg_reduce(op, a[0], a[1], axis);
                });
}

void RecordingBackend::scan(backend::ScanOp op, const Array& out, const Array& x, int axis) {
  as_backend_call([&] { inner_.scan(op, out, x, axis); });
  if (trace_) trace_->record(KeyWriter("scan") << op << axis, {&out}, {&x},
                [op, axis](Backend& be, const Array* a, Draw) { be.scan(op, a[0], a[1], axis); });
}

void RecordingBackend::sort(const Array& values, const Array& indices, const Array& x,
                            bool descending) {
  as_backend_call([&] { inner_.sort(values, indices, x, descending); });
  if (trace_) trace_->record(KeyWriter("sort") << descending, {&values, &indices}, {&x},
                [descending](Backend& be, const Array* a, Draw) {
                  be.sort(a[0], a[1], a[2], descending);
                });
}

void RecordingBackend::gather(const Array& out, const Array& x, const Array& index, int axis) {
  as_backend_call([&] { inner_.gather(out, x, index, axis); });
  if (trace_) trace_->record(KeyWriter("gather") << axis, {&out}, {&x, &index},
                [axis](Backend& be, const Array* a, Draw) { be.gather(a[0], a[1], a[2], axis); });
}

void RecordingBackend::scatter(const Array& out, const Array& index, const Array& src, int axis,
                               backend::ScatterReduce reduce) {
  as_backend_call([&] { inner_.scatter(out, index, src, axis, reduce); });
  if (trace_) trace_->record(
      KeyWriter("scatter") << axis << reduce, {&out}, {&index, &src},
      [axis, reduce](Backend& be, const Array* a, Draw) {
        be.scatter(a[0], a[1], a[2], axis, reduce);
      },
      /*reads_outputs=*/true);
}

void RecordingBackend::matmul(const Array& out, const Array& a, const Array& b) {
  as_backend_call([&] { inner_.matmul(out, a, b); });
  if (trace_) trace_->record(KeyWriter("matmul"), {&out}, {&a, &b},
                [](Backend& be, const Array* x, Draw) { be.matmul(x[0], x[1], x[2]); });
}

// ---- fused capabilities ----------------------------------------------------------------------

void RecordingBackend::conv(const Array& out, const Array& x, const Array& kernel,
                            const ConvSpec& spec) {
  as_backend_call([&] { inner_.conv(out, x, kernel, spec); });
  if (trace_) trace_->record(key_of("conv", spec), {&out}, {&x, &kernel},
                [spec](Backend& be, const Array* a, Draw) { be.conv(a[0], a[1], a[2], spec); });
  if (trace_) trace_->instructions.back().conv_spec = spec;
}

void RecordingBackend::conv_backward_input(const Array& dx, const Array& dy, const Array& kernel,
                                           const ConvSpec& spec) {
  as_backend_call([&] { inner_.conv_backward_input(dx, dy, kernel, spec); });
  if (trace_) trace_->record(key_of("conv_backward_input", spec), {&dx}, {&dy, &kernel},
                [spec](Backend& be, const Array* a, Draw) {
                  be.conv_backward_input(a[0], a[1], a[2], spec);
                });
  if (trace_) trace_->instructions.back().conv_spec = spec;
}

void RecordingBackend::conv_backward_kernel(const Array& dkernel, const Array& x, const Array& dy,
                                            const ConvSpec& spec) {
  as_backend_call([&] { inner_.conv_backward_kernel(dkernel, x, dy, spec); });
  if (trace_) trace_->record(key_of("conv_backward_kernel", spec), {&dkernel}, {&x, &dy},
                [spec](Backend& be, const Array* a, Draw) {
                  be.conv_backward_kernel(a[0], a[1], a[2], spec);
                });
  if (trace_) trace_->instructions.back().conv_spec = spec;
}

void RecordingBackend::pool(const Array& out, const Array& x, const PoolSpec& spec) {
  as_backend_call([&] { inner_.pool(out, x, spec); });
  if (trace_) trace_->record(key_of("pool", spec), {&out}, {&x},
                [spec](Backend& be, const Array* a, Draw) { be.pool(a[0], a[1], spec); });
  if (trace_) trace_->instructions.back().pool_spec = spec;
}

void RecordingBackend::pool_backward(const Array& dx, const Array& dy, const Array& x,
                                     const Array& out, const PoolSpec& spec) {
  as_backend_call([&] { inner_.pool_backward(dx, dy, x, out, spec); });
  if (trace_) trace_->record(key_of("pool_backward", spec), {&dx}, {&dy, &x, &out},
                [spec](Backend& be, const Array* a, Draw) {
                  be.pool_backward(a[0], a[1], a[2], a[3], spec);
                });
  if (trace_) trace_->instructions.back().pool_spec = spec;
}

void RecordingBackend::softmax(const Array& out, const Array& x, int axis, bool log) {
  as_backend_call([&] { inner_.softmax(out, x, axis, log); });
  if (trace_) trace_->record(KeyWriter("softmax") << axis << log, {&out}, {&x},
                [axis, log](Backend& be, const Array* a, Draw) {
                  be.softmax(a[0], a[1], axis, log);
                });
}

void RecordingBackend::int8_matmul(const Array& out, const Array& a, const Array& b) {
  as_backend_call([&] { inner_.int8_matmul(out, a, b); });
  if (trace_) trace_->record(KeyWriter("int8_matmul"), {&out}, {&a, &b},
                [](Backend& be, const Array* x, Draw) { be.int8_matmul(x[0], x[1], x[2]); });
}

void RecordingBackend::quantize_rows_int8(const Array& q, const Array& scale, const Array& x,
                                          float lo, float hi, float epsilon) {
  as_backend_call([&] { inner_.quantize_rows_int8(q, scale, x, lo, hi, epsilon); });
  if (trace_) trace_->record(KeyWriter("quantize_rows_int8") << lo << hi << epsilon, {&q, &scale},
                {&x}, [lo, hi, epsilon](Backend& be, const Array* a, Draw) {
                  be.quantize_rows_int8(a[0], a[1], a[2], lo, hi, epsilon);
                });
}

void RecordingBackend::int4_matmul(const Array& out, const Array& x, const Array& packed,
                                   const Array& scale, const Array& zero, const Array& g_idx) {
  as_backend_call([&] { inner_.int4_matmul(out, x, packed, scale, zero, g_idx); });
  if (trace_) trace_->record(KeyWriter("int4_matmul"), {&out}, {&x, &packed, &scale, &zero, &g_idx},
                [](Backend& be, const Array* a, Draw) {
                  be.int4_matmul(a[0], a[1], a[2], a[3], a[4], a[5]);
                });
}

void RecordingBackend::int8_linear(const Array& out, const Array& a, const Array& b,
                                   const Array& a_scale, const Array& b_scale, const Array& bias,
                                   Activation activation) {
  as_backend_call([&] { inner_.int8_linear(out, a, b, a_scale, b_scale, bias, activation); });
  if (trace_) trace_->record(KeyWriter("int8_linear") << activation, {&out},
                {&a, &b, &a_scale, &b_scale, &bias},
                [activation](Backend& be, const Array* x, Draw) {
                  be.int8_linear(x[0], x[1], x[2], x[3], x[4], x[5], activation);
                });
}

// Only a replay runs a chain, and a replay never runs under a trace (keras::jit inside a trace
// runs its function as part of the outer one): were it to, the trace gives up rather than
// record a call it has no key for.
void RecordingBackend::elementwise(const backend::ElementwiseChain& chain,
                                   std::span<const Array> arrays) {
  as_backend_call([&] { inner_.elementwise(chain, arrays); });
  if (trace_) trace_->fail("it runs a compiled program's fused elementwise chain");
}

void RecordingBackend::linear(const Array& out, const Array& x, const Array& w, const Array& bias,
                              Activation activation) {
  as_backend_call([&] { inner_.linear(out, x, w, bias, activation); });
  if (trace_) trace_->record(KeyWriter("linear") << activation, {&out}, {&x, &w, &bias},
                [activation](Backend& be, const Array* a, Draw) {
                  be.linear(a[0], a[1], a[2], a[3], activation);
                });
  if (trace_) trace_->instructions.back().activation = activation;
}

void RecordingBackend::conv_bias_activation(const Array& out, const Array& x, const Array& kernel,
                                            const Array& bias, Activation activation,
                                            const ConvSpec& spec) {
  as_backend_call([&] { inner_.conv_bias_activation(out, x, kernel, bias, activation, spec); });
  if (trace_) trace_->record(key_of("conv_bias_activation", spec) << activation, {&out}, {&x, &kernel, &bias},
                [activation, spec](Backend& be, const Array* a, Draw) {
                  be.conv_bias_activation(a[0], a[1], a[2], a[3], activation, spec);
                });
  if (trace_) note_epilogue(trace_->instructions.back(), spec, activation);
}

void RecordingBackend::bias_activation_backward(const Array& dz, const Array& db, const Array& y,
                                                const Array& g, Activation activation) {
  as_backend_call([&] { inner_.bias_activation_backward(dz, db, y, g, activation); });
  if (trace_) trace_->record(KeyWriter("bias_activation_backward") << activation, {&dz, &db}, {&y, &g},
                [activation](Backend& be, const Array* a, Draw) {
                  be.bias_activation_backward(a[0], a[1], a[2], a[3], activation);
                });
  if (trace_) trace_->instructions.back().activation = activation;
}

void RecordingBackend::conv_bias_activation_max_pool(const Array& out, const Array& argmax,
                                                     const Array& x, const Array& kernel,
                                                     const Array& bias, Activation activation,
                                                     const ConvSpec& spec) {
  as_backend_call([&] {
    inner_.conv_bias_activation_max_pool(out, argmax, x, kernel, bias, activation, spec);
  });
  if (trace_) trace_->record(key_of("conv_bias_activation_max_pool", spec) << activation, {&out, &argmax},
                {&x, &kernel, &bias}, [activation, spec](Backend& be, const Array* a, Draw) {
                  be.conv_bias_activation_max_pool(a[0], a[1], a[2], a[3], a[4], activation,
                                                   spec);
                });
  if (trace_) note_epilogue(trace_->instructions.back(), spec, activation);
}

void RecordingBackend::conv_bias_activation_max_pool_backward(
    const Array& dx, const Array& dkernel, const Array& db, const Array& x, const Array& kernel,
    const Array& y, const Array& g, const Array& argmax, Activation activation,
    const ConvSpec& spec) {
  as_backend_call([&] {
    inner_.conv_bias_activation_max_pool_backward(dx, dkernel, db, x, kernel, y, g, argmax,
                                                  activation, spec);
  });
  if (trace_) trace_->record(key_of("conv_bias_activation_max_pool_backward", spec) << activation,
                {&dx, &dkernel, &db}, {&x, &kernel, &y, &g, &argmax},
                [activation, spec](Backend& be, const Array* a, Draw) {
                  be.conv_bias_activation_max_pool_backward(a[0], a[1], a[2], a[3], a[4], a[5],
                                                            a[6], a[7], activation, spec);
                });
  if (trace_) note_epilogue(trace_->instructions.back(), spec, activation);
}

// ---- linear algebra --------------------------------------------------------------------------

bool RecordingBackend::cholesky(const Array& out, const Array& x, bool upper) {
  bool ok = false;
  as_backend_call([&] { ok = inner_.cholesky(out, x, upper); });
  // The success flag is read on the host, so the result depends on values a replay cannot see.
  if (trace_) trace_->fail("it reads cholesky's success flag on the host");
  return ok;
}

void RecordingBackend::lu_factor(const Array& lu, const Array& pivots, const Array& x) {
  as_backend_call([&] { inner_.lu_factor(lu, pivots, x); });
  if (trace_) trace_->record(KeyWriter("lu_factor"), {&lu, &pivots}, {&x},
                [](Backend& be, const Array* a, Draw) { be.lu_factor(a[0], a[1], a[2]); });
}

void RecordingBackend::triangular_solve(const Array& out, const Array& a, const Array& b,
                                        bool lower, bool left, bool transpose_a,
                                        bool unit_diagonal) {
  as_backend_call([&] { inner_.triangular_solve(out, a, b, lower, left, transpose_a, unit_diagonal); });
  if (trace_) trace_->record(KeyWriter("triangular_solve") << lower << left << transpose_a << unit_diagonal,
                {&out}, {&a, &b},
                [lower, left, transpose_a, unit_diagonal](Backend& be, const Array* x, Draw) {
                  be.triangular_solve(x[0], x[1], x[2], lower, left, transpose_a, unit_diagonal);
                });
}

void RecordingBackend::qr(const Array& q, const Array& r, const Array& x, bool complete) {
  as_backend_call([&] { inner_.qr(q, r, x, complete); });
  if (trace_) trace_->record(KeyWriter("qr") << complete, {&q, &r}, {&x},
                [complete](Backend& be, const Array* a, Draw) { be.qr(a[0], a[1], a[2], complete); });
}

void RecordingBackend::svd(const Array& u, const Array& s, const Array& vt, const Array& x,
                           bool full_matrices) {
  as_backend_call([&] { inner_.svd(u, s, vt, x, full_matrices); });
  if (trace_) trace_->record(KeyWriter("svd") << full_matrices, {&u, &s, &vt}, {&x},
                [full_matrices](Backend& be, const Array* a, Draw) {
                  be.svd(a[0], a[1], a[2], a[3], full_matrices);
                });
}

void RecordingBackend::eigh(const Array& values, const Array& vectors, const Array& x,
                            bool lower) {
  as_backend_call([&] { inner_.eigh(values, vectors, x, lower); });
  if (trace_) trace_->record(KeyWriter("eigh") << lower, {&values, &vectors}, {&x},
                [lower](Backend& be, const Array* a, Draw) { be.eigh(a[0], a[1], a[2], lower); });
}

}  // namespace keras::compiler::detail
