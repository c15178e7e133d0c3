#pragma once
// A product and its bias (and activation) as one call, found in a recorded program: what a
// model written with ops (a subclassed model's matmul + add + relu) gets when compiled, as the
// Dense and Conv layers get it eagerly.
// - matmul of 2-d operands whose output only a binary Add reads, the Add's other operand a bias
//   broadcast along the rows (a (N) or (1, N) tensor), becomes linear(out, x, w, bias, act)
//   where the backend has Capability::Linear;
// - a channels_last conv followed the same way by an Add of a bias broadcast along its last
//   axis becomes conv_bias_activation where the backend has Capability::Epilogue.
// When the only reader of the sum is a unary Relu, Sigmoid, Tanh, Gelu (exact), Silu or Clip
// with bounds 0 and 6 (ops::relu6: MobileNet's ReLU6) (the formulas of backend::Activation),
// the activation joins the call; when the sum is read by anything else (a backward pass that
// reads it), only the product and the bias are fused (activation None) and the unary call
// stays.
//
// Safe because the product's output, and the sum when the activation joins, are the step's own
// buffers, written whole by one call and read by nothing but the fused calls; the calls
// between neither write what the group reads nor touch what it writes; calls inside
// ops::cond / ops::while_loop regions are left alone.
//
// Numerics: on cpu bit-identical (linear is the same matmul followed by the epilogue's
// scalar bias and activation, which the unary kernels share; conv_bias_activation computes the
// products conv does). Other backends' fused kernels may round differently: documented bound
// 1e-6 relative (float32), checked by tests/compiler/fuse_linear_test.cpp.

#include <cstddef>

#include "compiler/trace.h"

namespace keras::compiler::detail {

struct LinearFusionStats {
  size_t linear = 0;       // matmul + bias (+ activation) made one linear call
  size_t conv = 0;         // conv + bias (+ activation) made one conv_bias_activation call
  size_t activations = 0;  // of those, how many took their activation in
};

/// Rewrites `trace.instructions` in place. Runs after dead-code removal, before the conv-pool
/// pass (which may then pair a fused conv with its pooling) and elementwise fusion.
LinearFusionStats fuse_linear(Trace& trace);

/// Turns the pass off on this thread while alive (for tests).
class LinearFusionOff {
 public:
  LinearFusionOff();
  ~LinearFusionOff();
  LinearFusionOff(const LinearFusionOff&) = delete;
  LinearFusionOff& operator=(const LinearFusionOff&) = delete;

 private:
  bool previous_;
};

}  // namespace keras::compiler::detail
