// The cuda backend's fused capabilities (Backend::supports): the kernels are in
// fused_kernels.cu and pool_kernels.cu, convolutions in cuda_conv.cpp.

#include <span>
#include <vector>

#include "capability_switch.h"
#include "chain_program.h"
#include "cuda_backend.h"
#include "pool_geometry.h"

namespace keras::cuda {
namespace {

// A bias (O) as an operand over an array of `rank` axes whose last is O: broadcast along the
// others; no base when there is no bias.
Operand last_axis_operand(const Array& bias, int rank) {
  Operand op = operand(bias);
  for (int d = 0; d < rank; ++d) op.stride[d] = 0;
  if (bias.storage && rank > 0) op.stride[rank - 1] = bias.strides[0];
  return op;
}

// out = activation(out + bias) in place, over out's index space with its axes merged.
void bias_activation_in_place(backend::Activation activation, const Array& out, const Array& bias) {
  Dims dims = dims_of(out.shape);
  Operand ops[2] = {operand(out), last_axis_operand(bias, out.rank())};
  coalesce(dims, ops, 2);
  launch_bias_activation(activation, dims, ops[0], ops[1]);
}

}  // namespace

bool CudaBackend::supports(backend::Capability cap) const {
  using backend::Capability;
  if ((disabled_by_environment() >> static_cast<int>(cap)) & 1) return false;
  switch (cap) {
    case Capability::Linear:
    case Capability::Epilogue:
    case Capability::Softmax:
    case Capability::Pool:
    case Capability::Elementwise:
      return true;
#ifdef KERAS_CUDA_WITH_CUDNN
    case Capability::Conv:
      return true;
#endif
    default:
      return false;
  }
}

void CudaBackend::pool(const Array& out, const Array& x, const backend::PoolSpec& spec) {
  select_device();
  launch_pool(pool_geometry(x.shape, out.shape, spec), operand(x), pool_strides(x.strides, spec),
              operand(out), pool_strides(out.strides, spec));
}

void CudaBackend::pool_backward(const Array& dx, const Array& dy, const Array& x, const Array& out,
                                const backend::PoolSpec& spec) {
  select_device();
  launch_pool_backward(pool_geometry(x.shape, dy.shape, spec), operand(dx),
                       pool_strides(dx.strides, spec), operand(dy), pool_strides(dy.strides, spec),
                       operand(x), pool_strides(x.strides, spec), operand(out),
                       pool_strides(out.strides, spec));
}

// A chain in one kernel when it fits the fused kernel (chain_program.h), else step by step.
void CudaBackend::elementwise(const backend::ElementwiseChain& chain,
                              std::span<const Array> arrays) {
  select_device();
  if (chain.numel == 0 || chain.steps.empty()) return;
  ChainProgram program;
  if (make_chain_program(chain, arrays, program)) return launch_chain(program);
  run_chain_by_steps(chain, arrays);
}

void CudaBackend::softmax(const Array& out, const Array& x, int axis, bool log) {
  select_device();
  launch_softmax(dims_without(x.shape, axis), operand_without(out, axis), operand_without(x, axis),
                 x.shape[axis], x.strides[axis], out.strides[axis], log);
}

void CudaBackend::linear(const Array& out, const Array& x, const Array& w, const Array& bias,
                         backend::Activation activation) {
  matmul(out, x, w);
  if (bias.storage || activation != backend::Activation::None)
    bias_activation_in_place(activation, out, bias);
}

void CudaBackend::conv_bias_activation(const Array& out, const Array& x, const Array& kernel,
                                       const Array& bias, backend::Activation activation,
                                       const backend::ConvSpec& spec) {
  if (!spec.channels_last) unsupported("conv_bias_activation with channels_first");
  conv(out, x, kernel, spec);  // (cuDNN's; the base class's refuses without it)
  if (bias.storage || activation != backend::Activation::None)
    bias_activation_in_place(activation, out, bias);
}

void CudaBackend::bias_activation_backward(const Array& dz, const Array& db, const Array& y,
                                           const Array& g, backend::Activation activation) {
  select_device();
  if (activation == backend::Activation::Gelu || activation == backend::Activation::Silu ||
      activation == backend::Activation::Relu6)
    unsupported("bias_activation_backward of gelu, silu or relu6 (inference-only activations)");
  const auto s = space(y.shape, dz, y, g);
  launch_activation_grad(activation, s.dims, s.ops[0], s.ops[1], s.ops[2]);
  if (!db.storage || dz.rank() == 0) return;
  // db (O) = dz summed over every axis but the last: the reduce primitive (sums in double),
  // db viewed with dz's rank.
  Array sums = db;
  sums.shape = dz.shape;
  sums.strides = Strides(static_cast<size_t>(dz.rank()), 0);
  for (int d = 0; d + 1 < dz.rank(); ++d) sums.shape[d] = 1;
  sums.strides[dz.rank() - 1] = db.strides[0];
  reduce(backend::ReduceOp::Sum, sums, dz, (uint64_t{1} << (dz.rank() - 1)) - 1);
}

// The chain's steps as primitive calls over (rows, row_length) views of its arrays, with
// whole temporaries: what a chain the fused kernel does not take costs.
void CudaBackend::run_chain_by_steps(const backend::ElementwiseChain& chain,
                                     std::span<const Array> arrays) {
  using backend::ChainLayout;
  using backend::ElementwiseStep;
  const int64_t p = chain.row_length, rows = chain.numel / p;
  std::vector<Array> regs(arrays.begin(), arrays.end());
  for (size_t r = 0; r < arrays.size(); ++r) {
    Array& a = regs[r];
    a.shape = Shape{rows, p};
    switch (chain.layouts[r]) {
      case ChainLayout::Dense:
        a.strides = Strides{p, 1};
        break;
      case ChainLayout::Scalar:
        a.strides = Strides{0, 0};
        break;
      case ChainLayout::Row:
        a.strides = Strides{1, 0};
        break;
      case ChainLayout::Column:
        a.strides = Strides{0, 1};
        break;
    }
  }
  for (DType t : chain.temp_dtypes) regs.push_back(empty(Shape{rows, p}, t));
  for (const ElementwiseStep& s : chain.steps) {
    switch (s.kind) {
      case ElementwiseStep::Kind::Unary:
        unary(static_cast<backend::UnaryOp>(s.op), regs[s.out], regs[s.in[0]], s.p0, s.p1);
        break;
      case ElementwiseStep::Kind::Binary:
        binary(static_cast<backend::BinaryOp>(s.op), regs[s.out], regs[s.in[0]], regs[s.in[1]]);
        break;
      case ElementwiseStep::Kind::Where:
        where(regs[s.out], regs[s.in[0]], regs[s.in[1]], regs[s.in[2]]);
        break;
      case ElementwiseStep::Kind::Copy:
        copy(regs[s.out], regs[s.in[0]], static_cast<backend::CopyMode>(s.op));
        break;
    }
  }
}

}  // namespace keras::cuda
