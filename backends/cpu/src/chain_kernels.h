#pragma once
// Single-pass kernels for the fused chains that training runs at every step: an optimizer's
// update. A chain of k float steps on rows (elementwise_chain.cpp) stores each step's result
// and loads it again, k stores per element, which bound Adam's update at about two cycles per
// vector and step; a kernel compiled for one chain's steps keeps every temporary in a vector
// register and writes only the variables (Adam: 3 stores instead of 12; 7 840 elements in 4.0
// instead of 7.7 µs on a Zen 4, then bound by its square root and division). A chain takes its
// kernel when its steps, registers and layouts are exactly those of a known pattern
// (chain_patterns.h); any other chain runs as before. Each step is one correctly rounded IEEE
// operation, without FMA contraction, so the values are those of the step-by-step chain on
// every instruction set.

#include <cstdint>
#include <span>

#include "keras/backend/backend.h"

namespace keras::cpu {

/// Runs a chain's kernel on elements [begin, end) of its registers' arrays (`arrays` are the
/// chain's array registers' data, float32).
using ChainKernel = void (*)(float* const* arrays, int64_t begin, int64_t end);

/// The kernel of `chain` over `arrays`, or nullptr when the chain is no known pattern or its
/// arrays overlap (a kernel reads every input before it writes, a chain step by step).
ChainKernel find_chain_kernel(const backend::ElementwiseChain& chain,
                              std::span<const backend::Array> arrays);

/// Chains run by a kernel since the process started (for tests: that a pattern still matches
/// the chains the optimizers produce).
uint64_t chain_kernel_runs();
void count_chain_kernel_run();

}  // namespace keras::cpu
