// The cuda backend's fused kernels: the bias-and-activation epilogue of linear and
// conv_bias_activation, its backward pass, softmax along one axis, and elementwise chains
// (chain_program.h). Each computes what the
// cpu backend's fused kernel computes, with the same element functions (element_access.cuh):
// activations are the unary primitives', derivatives are written with the output y as the
// cpu's are, softmax subtracts the line's max (NaN skipped, -inf lines shifted by 0) and sums
// the exponentials in double.

#include <cmath>

#include "chain_program.h"
#include "element_access.cuh"
#include "kernels.h"
#include "launch.h"
#include "stream.h"

namespace keras::cuda {
namespace {

using backend::Activation;

// out = act(out + bias): bias broadcast over out's dims (its base null when there is none).
template <typename C, UnaryOp Op, bool Activate>
__global__ void bias_activation_kernel(Dims dims, Operand out, Operand bias) {
  KERAS_GRID_STRIDE(i, dims.numel) {
    char* p = address(out, dims, i);
    C v = load<C>(p, out.dtype);
    if (bias.base) v = static_cast<C>(v + load<C>(address(bias, dims, i), bias.dtype));
    // (Clip is Relu6: bounds 0 and 6; the other activations have no parameters.)
    if constexpr (Activate)
      v = static_cast<C>(unary_value<Op, C>(v, C(0), Op == UnaryOp::Clip ? C(6) : C(0)));
    store(p, out.dtype, v);
  }
}

// dz = g * act'(z), written with y = act(z): where(y > 0, g, 0), g * (y * (1 - y)),
// g * (1 - y * y), or g.
template <typename C, Activation Act>
__global__ void activation_grad_kernel(Dims dims, Operand dz, Operand y, Operand g) {
  KERAS_GRID_STRIDE(i, dims.numel) {
    const C yv = load<C>(address(y, dims, i), y.dtype);
    const C gv = load<C>(address(g, dims, i), g.dtype);
    C r = gv;
    if constexpr (Act == Activation::Relu)
      r = yv > C(0) ? gv : C(0);
    else if constexpr (Act == Activation::Sigmoid)
      r = gv * (yv * (C(1) - yv));
    else if constexpr (Act == Activation::Tanh)
      r = gv * (C(1) - yv * yv);
    store(address(dz, dims, i), dz.dtype, r);
  }
}

// One line per thread: max, sum of exp(x - max) in double, then exp(x - max) / sum or
// (x - max) - log(sum).
template <typename C>
__global__ void softmax_kernel(Dims lines, Operand out, Operand x, int64_t n, int64_t x_step,
                               int64_t out_step, bool log) {
  const int64_t xs = x_step * element_bytes(x.dtype), os = out_step * element_bytes(out.dtype);
  KERAS_GRID_STRIDE(m, lines.numel) {
    const char* xp = address(x, lines, m);
    char* op = address(out, lines, m);
    C top = -INFINITY;
    for (int64_t k = 0; k < n; ++k) {
      const C v = load<C>(xp + k * xs, x.dtype);
      if (v > top) top = v;  // NaN never compares greater: skipped here, poisons the sum
    }
    if (top == C(-INFINITY)) top = C(0);
    double sum = 0;
    for (int64_t k = 0; k < n; ++k)
      sum += static_cast<double>(exp(load<C>(xp + k * xs, x.dtype) - top));
    const C factor = log ? static_cast<C>(::log(sum)) : static_cast<C>(1.0 / sum);
    for (int64_t k = 0; k < n; ++k) {
      const C v = load<C>(xp + k * xs, x.dtype) - top;
      store(op + k * os, out.dtype,
            log ? static_cast<C>(v - factor) : static_cast<C>(exp(v) * factor));
    }
  }
}

__global__ void chain_kernel(ChainProgram program) {
  KERAS_GRID_STRIDE(i, program.numel) {
    run_chain_element(program, i);
  }
}

// Calls f(C{}) with float for float32, float16 and bfloat16 and double for float64.
template <typename F>
void with_float_type(DType t, const char* what, F&& f) {
  if (t == DType::Float64) return f(double{});
  if (is_float(t)) return f(float{});
  throw NotImplementedError(std::string("cuda backend: ") + what + " of " +
                            std::string(dtype_name(t)) + " (floating dtypes only)");
}

}  // namespace

void launch_bias_activation(Activation act, const Dims& dims, const Operand& out,
                            const Operand& bias) {
  const int64_t blocks = blocks_for(dims.numel);
  if (!blocks) return;
  with_float_type(out.dtype, "a bias-and-activation epilogue", [&](auto c) {
    using C = decltype(c);
    auto go = [&]<UnaryOp Op, bool Activate>() {
      bias_activation_kernel<C, Op, Activate>
          <<<blocks, kThreads, 0, launch_stream()>>>(dims, out, bias);
    };
    switch (act) {
      case Activation::None:
        go.template operator()<UnaryOp::Relu, false>();
        break;
      case Activation::Relu:
        go.template operator()<UnaryOp::Relu, true>();
        break;
      case Activation::Sigmoid:
        go.template operator()<UnaryOp::Sigmoid, true>();
        break;
      case Activation::Tanh:
        go.template operator()<UnaryOp::Tanh, true>();
        break;
      case Activation::Gelu:
        go.template operator()<UnaryOp::Gelu, true>();
        break;
      case Activation::Silu:
        go.template operator()<UnaryOp::Silu, true>();
        break;
      case Activation::Relu6:
        go.template operator()<UnaryOp::Clip, true>();
        break;
    }
  });
  check_launch("bias_activation");
}

void launch_activation_grad(Activation act, const Dims& dims, const Operand& dz, const Operand& y,
                            const Operand& g) {
  const int64_t blocks = blocks_for(dims.numel);
  if (!blocks) return;
  with_float_type(y.dtype, "an activation's gradient", [&](auto c) {
    using C = decltype(c);
    switch (act) {
      case Activation::Relu:
        activation_grad_kernel<C, Activation::Relu>
            <<<blocks, kThreads, 0, launch_stream()>>>(dims, dz, y, g);
        break;
      case Activation::Sigmoid:
        activation_grad_kernel<C, Activation::Sigmoid>
            <<<blocks, kThreads, 0, launch_stream()>>>(dims, dz, y, g);
        break;
      case Activation::Tanh:
        activation_grad_kernel<C, Activation::Tanh>
            <<<blocks, kThreads, 0, launch_stream()>>>(dims, dz, y, g);
        break;
      default:
        activation_grad_kernel<C, Activation::None>
            <<<blocks, kThreads, 0, launch_stream()>>>(dims, dz, y, g);
        break;
    }
  });
  check_launch("activation_grad");
}

void launch_softmax(const Dims& lines, const Operand& out, const Operand& x, int64_t n,
                    int64_t x_step, int64_t out_step, bool log) {
  const int64_t blocks = blocks_for(lines.numel);
  if (!blocks || n == 0) return;
  with_float_type(x.dtype, "softmax", [&](auto c) {
    using C = decltype(c);
    softmax_kernel<C>
        <<<blocks, kThreads, 0, launch_stream()>>>(lines, out, x, n, x_step, out_step, log);
  });
  check_launch("softmax");
}

void launch_chain(const ChainProgram& program) {
  const int64_t blocks = blocks_for(program.numel);
  if (!blocks || program.num_steps == 0) return;
  chain_kernel<<<blocks, kThreads, 0, launch_stream()>>>(program);
  check_launch("elementwise chain");
}

}  // namespace keras::cuda
