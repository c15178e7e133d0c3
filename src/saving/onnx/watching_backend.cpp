// The backend a traced call() talks to (call_tracer.h): each primitive runs on the real backend,
// then, when it read a traced value, becomes the ONNX operators that compute the same thing.
// Fused kernels are declared missing (softmax aside), so the front end runs its decomposition
// into primitives that map one by one.

#include <cmath>

#include "call_tracer.h"
#include "compiler/backend_call.h"
#include "keras/backend/primitives.h"
#include "layer_call.h"

namespace keras::onnx {
namespace {

using backend::Array;
using backend::BinaryOp;
using backend::ReduceOp;
using backend::UnaryOp;
using compiler::detail::as_backend_call;

// Primitives are named as the backend names them (backend::name_of) in the errors.
std::string op_name(const char* kind, std::string_view name) {
  return std::string("the ") + kind + " op " + std::string(name);
}

class WatchingBackend final : public backend::Backend {
 public:
  WatchingBackend(CallTracer& t, backend::Backend& inner) : t_(t), inner_(inner) {}

  std::string_view name() const override { return inner_.name(); }
  std::string device() const override { return inner_.device(); }
  bool is_host() const override { return inner_.is_host(); }
  bool is_symbolic() const override { return inner_.is_symbolic(); }
  bool supports(backend::Capability cap) const override {
    return cap == backend::Capability::Softmax && inner_.supports(cap);
  }

  Ref<backend::Storage> allocate(size_t nbytes) override { return inner_.allocate(nbytes); }
  void deallocate(void* data, size_t nbytes) override { inner_.deallocate(data, nbytes); }
  void copy_from_host(backend::Storage& dst, size_t offset, const void* src,
                      size_t nbytes) override {
    run([&] { inner_.copy_from_host(dst, offset, src, nbytes); });
    t_.constant_written(&dst);
  }
  void copy_to_host(void* dst, const backend::Storage& src, size_t offset,
                    size_t nbytes) override {
    run([&] { inner_.copy_to_host(dst, src, offset, nbytes); });
  }
  void synchronize() override { inner_.synchronize(); }

  void fill(const Array& out, const Scalar& value) override {
    run([&] { inner_.fill(out, value); });
    t_.constant_written(out);
  }
  void arange(const Array& out, double start, double step) override {
    run([&] { inner_.arange(out, start, step); });
    t_.constant_written(out);
  }
  void random(const Array& out, backend::RandomKind kind, uint64_t seed,
              uint64_t counter) override {
    run([&] { inner_.random(out, kind, seed, counter); });
    t_.constant_written(out);
  }

  void copy(const Array& dst, const Array& src, backend::CopyMode mode) override {
    run([&] { inner_.copy(dst, src, mode); });
    if (!traced({&src}, dst)) return;
    if (mode != backend::CopyMode::Assign) t_.unmapped("an accumulating copy (scatter-add)");
    std::string x = t_.value_of(src, true);
    if (src.dtype != dst.dtype)
      x = g().node("Cast", {x}, {{"to", static_cast<int64_t>(onnx_type(dst.dtype))}}, t_.scope());
    t_.define(dst, x);
  }

  void unary(UnaryOp op, const Array& out, const Array& x, double p0, double p1) override {
    run([&] { inner_.unary(op, out, x, p0, p1); });
    if (!traced({&x}, out)) return;
    const std::string_view name = backend::name_of(op);
    if (x.dtype != DType::Float32 && op != UnaryOp::LogicalNot)
      t_.unmapped(op_name("unary", name) + " on " + std::string(dtype_name(x.dtype)) +
                  " tensors (traced ops export on float32)");
    t_.define(out, unary_node(op, name, t_.value_of(x, true), p0, p1));
  }

  void binary(BinaryOp op, const Array& out, const Array& a, const Array& b) override {
    run([&] { inner_.binary(op, out, a, b); });
    if (!traced({&a, &b}, out)) return;
    const std::string_view name = backend::name_of(op);
    const bool logical = op >= BinaryOp::LogicalAnd;
    if (a.dtype != (logical ? DType::Bool : DType::Float32))
      t_.unmapped(op_name("binary", name) + " on " + std::string(dtype_name(a.dtype)) +
                  " tensors (traced ops export on float32)");
    const std::string onnx_op = binary_op(op);
    if (onnx_op.empty()) t_.unmapped(op_name("binary", name));
    const std::string x = t_.value_of(a, false), y = t_.value_of(b, false);
    std::string z = g().node(onnx_op, {x, y}, {}, t_.scope());
    if (op == BinaryOp::NotEqual) z = g().node("Not", {z}, {}, t_.scope());
    t_.define(out, full(z, out, {&a, &b}));
  }

  void where(const Array& out, const Array& cond, const Array& a, const Array& b) override {
    run([&] { inner_.where(out, cond, a, b); });
    if (!traced({&cond, &a, &b}, out)) return;
    const std::string z = g().node(
        "Where", {t_.value_of(cond, false), t_.value_of(a, false), t_.value_of(b, false)}, {},
        t_.scope());
    t_.define(out, full(z, out, {&cond, &a, &b}));
  }

  void reduce(ReduceOp op, const Array& out, const Array& x, uint64_t axes) override {
    run([&] { inner_.reduce(op, out, x, axes); });
    if (!traced({&x}, out)) return;
    static constexpr const char* kOnnx[] = {"ReduceSum", "ReduceMean", "ReduceProd",
                                            "ReduceMax", "ReduceMin"};
    const std::string_view name = backend::name_of(op);
    if (op == ReduceOp::Any || op == ReduceOp::All || x.dtype != DType::Float32)
      t_.unmapped(op_name("reduction", name) + " on " + std::string(dtype_name(x.dtype)) +
                  " tensors");
    std::vector<int64_t> list;
    for (int d = 0; d < x.rank(); ++d)
      if (axes >> d & 1) list.push_back(d);
    t_.define(out, onnx::reduce(g(), kOnnx[static_cast<int>(op)], t_.value_of(x, true), list,
                                true, t_.scope()));
  }

  void matmul(const Array& out, const Array& a, const Array& b) override {
    run([&] { inner_.matmul(out, a, b); });
    if (!traced({&a, &b}, out)) return;
    if (a.dtype != DType::Float32)
      t_.unmapped("matmul on " + std::string(dtype_name(a.dtype)) + " tensors");
    const std::string z =
        g().node("MatMul", {t_.value_of(a, false), t_.value_of(b, false)}, {}, t_.scope());
    t_.define(out, full(z, out, {&a, &b}));
  }

  void softmax(const Array& out, const Array& x, int axis, bool log) override {
    run([&] { inner_.softmax(out, x, axis, log); });
    if (!traced({&x}, out)) return;
    t_.define(out, g().node(log ? "LogSoftmax" : "Softmax", {t_.value_of(x, true)},
                            {{"axis", static_cast<int64_t>(axis)}}, t_.scope()));
  }

  // Primitives with no mapping: fine on constants, named when they read a traced value.
  void arg_reduce(backend::ArgReduceOp op, const Array& out, const Array& x, int axis) override {
    run([&] { inner_.arg_reduce(op, out, x, axis); });
    other("argmax/argmin", {&x}, {&out});
  }
  void scan(backend::ScanOp op, const Array& out, const Array& x, int axis) override {
    run([&] { inner_.scan(op, out, x, axis); });
    other("cumsum/cumprod/cummax/cummin", {&x}, {&out});
  }
  void sort(const Array& values, const Array& indices, const Array& x, bool desc) override {
    run([&] { inner_.sort(values, indices, x, desc); });
    other("sort/argsort/top_k", {&x}, {&values, &indices});
  }
  void gather(const Array& out, const Array& x, const Array& index, int axis) override {
    run([&] { inner_.gather(out, x, index, axis); });
    other("take/take_along_axis (the gather primitive)", {&x, &index}, {&out});
  }
  void scatter(const Array& out, const Array& index, const Array& src, int axis,
               backend::ScatterReduce reduce) override {
    run([&] { inner_.scatter(out, index, src, axis, reduce); });
    other("scatter/scatter_update (the scatter primitive)", {&index, &src, &out}, {&out});
  }

 private:
  template <typename F>
  void run(F&& f) {
    as_backend_call(std::forward<F>(f));
  }
  Graph& g() { return t_.graph(); }

  // True when an input is traced (the output then needs an ONNX value); else the output is a
  // constant.
  bool traced(std::initializer_list<const Array*> inputs, const Array& out) {
    for (const Array* a : inputs)
      if (t_.traced(*a)) return true;
    t_.constant_written(out);
    return false;
  }

  void other(const std::string& what, std::initializer_list<const Array*> inputs,
             std::initializer_list<const Array*> outputs) {
    for (const Array* a : inputs)
      if (t_.traced(*a)) t_.unmapped("the op " + what);
    for (const Array* o : outputs)
      if (o->storage) t_.constant_written(*o);
  }

  // `z`, computed by a broadcasting operator, with `out`'s whole shape: an Expand where every
  // operand had broadcast axes.
  std::string full(const std::string& z, const Array& out,
                   std::initializer_list<const Array*> operands) {
    for (const Array* a : operands) {
      bool whole = a->rank() == out.rank();
      for (int d = 0; whole && d < a->rank(); ++d) whole = a->strides[d] != 0 || a->shape[d] == 1;
      if (whole) return z;
    }
    return t_.expand(z, out.shape);
  }

  static std::string binary_op(BinaryOp op) {
    switch (op) {
      case BinaryOp::Add: return "Add";
      case BinaryOp::Sub: return "Sub";
      case BinaryOp::Mul: return "Mul";
      case BinaryOp::Div: return "Div";
      case BinaryOp::Pow: return "Pow";
      case BinaryOp::Maximum: return "Max";
      case BinaryOp::Minimum: return "Min";
      case BinaryOp::Equal: case BinaryOp::NotEqual: return "Equal";
      case BinaryOp::Less: return "Less";
      case BinaryOp::LessEqual: return "LessOrEqual";
      case BinaryOp::Greater: return "Greater";
      case BinaryOp::GreaterEqual: return "GreaterOrEqual";
      case BinaryOp::LogicalAnd: return "And";
      case BinaryOp::LogicalOr: return "Or";
      case BinaryOp::LogicalXor: return "Xor";
      default: return "";
    }
  }

  std::string scalar(const std::string& name, double v) {
    return g().scalar_f32(t_.scope() + "/" + name, static_cast<float>(v));
  }

  std::string unary_node(UnaryOp op, std::string_view name, const std::string& x, double p0,
                         double p1) {
    Graph& gr = g();
    const std::string& s = t_.scope();
    auto node = [&](const std::string& type, std::vector<std::string> in,
                    std::vector<Attribute> attrs = {}) { return gr.node(type, in, attrs, s); };
    switch (op) {
      case UnaryOp::Neg: return node("Neg", {x});
      case UnaryOp::Abs: return node("Abs", {x});
      case UnaryOp::Sign: return node("Sign", {x});
      case UnaryOp::Square: return node("Mul", {x, x});
      case UnaryOp::Reciprocal: return node("Reciprocal", {x});
      case UnaryOp::Sqrt: return node("Sqrt", {x});
      case UnaryOp::Rsqrt: return node("Reciprocal", {node("Sqrt", {x})});
      case UnaryOp::Exp: return node("Exp", {x});
      case UnaryOp::Expm1: return node("Sub", {node("Exp", {x}), scalar("one", 1)});
      case UnaryOp::Log: return node("Log", {x});
      case UnaryOp::Log1p: return node("Log", {node("Add", {x, scalar("one", 1)})});
      case UnaryOp::Sin: return node("Sin", {x});
      case UnaryOp::Cos: return node("Cos", {x});
      case UnaryOp::Tan: return node("Tan", {x});
      case UnaryOp::Asin: return node("Asin", {x});
      case UnaryOp::Acos: return node("Acos", {x});
      case UnaryOp::Atan: return node("Atan", {x});
      case UnaryOp::Sinh: return node("Sinh", {x});
      case UnaryOp::Cosh: return node("Cosh", {x});
      case UnaryOp::Tanh: return node("Tanh", {x});
      case UnaryOp::Asinh: return node("Asinh", {x});
      case UnaryOp::Acosh: return node("Acosh", {x});
      case UnaryOp::Atanh: return node("Atanh", {x});
      case UnaryOp::Floor: return node("Floor", {x});
      case UnaryOp::Ceil: return node("Ceil", {x});
      case UnaryOp::Round: return node("Round", {x});  // both round half to even
      case UnaryOp::Erf: return node("Erf", {x});
      case UnaryOp::Relu: return node("Relu", {x});
      case UnaryOp::Sigmoid: return node("Sigmoid", {x});
      case UnaryOp::Softplus: return node("Softplus", {x});
      case UnaryOp::Silu: return node("Mul", {x, node("Sigmoid", {x})});
      case UnaryOp::LogSigmoid:  // -softplus(-x)
        return node("Neg", {node("Softplus", {node("Neg", {x})})});
      case UnaryOp::Gelu: {
        if (gr.opset() >= 20) return node("Gelu", {x});
        const std::string e = node("Erf", {node("Mul", {x, scalar("rsqrt2", M_SQRT1_2)})});
        return node("Mul", {node("Mul", {x, scalar("half", 0.5)}),
                            node("Add", {e, scalar("one", 1)})});
      }
      case UnaryOp::GeluTanh: {  // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
        if (gr.opset() >= 20) return node("Gelu", {x}, {{"approximate", std::string("tanh")}});
        const std::string cube = node("Mul", {node("Mul", {x, x}), x});
        const std::string inner =
            node("Add", {x, node("Mul", {cube, scalar("coefficient", 0.044715)})});
        const std::string t =
            node("Tanh", {node("Mul", {inner, scalar("sqrt_2_over_pi", std::sqrt(2.0 / M_PI))})});
        return node("Mul", {node("Mul", {x, scalar("half", 0.5)}),
                            node("Add", {t, scalar("one", 1)})});
      }
      case UnaryOp::Elu: return node("Elu", {x}, {{"alpha", static_cast<float>(p0)}});
      case UnaryOp::LeakyRelu: return node("LeakyRelu", {x}, {{"alpha", static_cast<float>(p0)}});
      case UnaryOp::Clip: return node("Clip", {x, scalar("min", p0), scalar("max", p1)});
      case UnaryOp::PowScalar: return node("Pow", {x, scalar("exponent", p0)});
      case UnaryOp::LogicalNot: return node("Not", {x});
      default: t_.unmapped(op_name("unary", name));
    }
  }

  CallTracer& t_;
  backend::Backend& inner_;
};

}  // namespace

std::unique_ptr<backend::Backend> make_watching_backend(CallTracer& tracer,
                                                        backend::Backend& inner) {
  return std::make_unique<WatchingBackend>(tracer, inner);
}

}  // namespace keras::onnx
