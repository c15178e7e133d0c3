#pragma once
// Conv2D -> MaxPooling2D() as one call, found in a recorded program (any model, subclassed
// too, gets it when compiled): a 2-d channels_last conv_bias_activation (activation None, Relu,
// Sigmoid or Tanh; float32 or float64) whose output z only a 2x2, stride 2, unpadded max pool
// reads becomes one conv_bias_activation_max_pool (Capability::ConvPool), which never writes z
// and, in a training step, keeps each window's argmax in a new uint8 buffer of the step (an
// inference step computes none). In a training step the
// chain autograd recorded for the pair, pool_backward then bias_activation_backward (or, with
// no activation, the bias gradient's sum) then conv_backward_input / conv_backward_kernel,
// becomes one conv_bias_activation_max_pool_backward reading the pooled output, its gradient
// and the argmax, so the full-size gradients dz are never written either.
//
// Safe because every buffer that goes (z and the dz's) is the step's own, covered whole by
// the call that writes it and read by nothing but the calls fused; the calls between the first
// and last of a group neither write what it reads nor touch what it writes; calls inside
// ops::cond / ops::while_loop regions are left alone; a backend without ConvPool (torch) keeps
// its program. When z has readers the backward chain cannot replace, nothing is fused.
//
// Numerics: the forward pass is bit-identical (the cpu kernel computes the products of
// conv_bias_activation for the same rows and the same scalar epilogue and pooling). The
// backward computes dx and dkernel from the sparse dz with another summation order: the
// documented bound is max |fused - unfused| <= 1e-6 times the tensor's largest magnitude in
// float32 (1e-14 in float64; measured 2.5e-7 and 1.2e-15 by tests/compiler/
// fuse_conv_pool_test.cpp); the argmax picks the same first maximum (a NaN wins) as
// pool_backward.

#include <cstddef>

#include "compiler/trace.h"

namespace keras::compiler::detail {

struct ConvPoolFusionStats {
  size_t pairs = 0;     // conv + pool pairs made one call
  size_t backward = 0;  // their backward chains made one call
};

/// Rewrites `trace.instructions` in place (and adds the training steps' argmax buffers to the
/// trace's slots).
/// Runs after dead-code removal and before elementwise fusion and memory planning.
ConvPoolFusionStats fuse_conv_pool(Trace& trace);

/// Turns the pass off on this thread while alive (for tests and the benchmark's comparison).
class ConvPoolFusionOff {
 public:
  ConvPoolFusionOff();
  ~ConvPoolFusionOff();
  ConvPoolFusionOff(const ConvPoolFusionOff&) = delete;
  ConvPoolFusionOff& operator=(const ConvPoolFusionOff&) = delete;

 private:
  bool previous_;
};

}  // namespace keras::compiler::detail
