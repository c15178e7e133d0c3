#pragma once
// An elementwise chain (Capability::Elementwise, what compiled mode's fusion hands over) as the
// cuda backend's fused kernel runs it: one thread per flat index runs every step, temporaries
// in registers instead of memory. The kernel takes chains of float32 and bool registers, which
// is what compiled training steps are made of; other chains run step by step on the
// primitives. Each step computes with the unary and binary primitives' element functions
// (elementwise_math.h) in float, or in bool when its first input is bool, as the primitives
// do, and rounds into its output register's dtype as the unfused primitive would: the results
// are the unfused calls'.
//
// run_chain_element is KERAS_HOST_DEVICE: the tests run it on the host against the cpu
// backend's own chain.

#include <cstdint>

#include "backend/elementwise_math.h"
#include "keras/backend/backend.h"
#include "keras/core/host_device.h"
#ifndef __CUDACC__
#include <span>
#endif

namespace keras::cuda {

inline constexpr int kMaxChainSteps = 48;
inline constexpr int kMaxChainRegisters = 64;

/// A chain with the arrays' device addresses, plain data passed to the kernel by value.
struct ChainProgram {
  struct Step {
    uint8_t kind = 0;      // ElementwiseStep::Kind
    uint8_t op = 0;        // its UnaryOp, BinaryOp or CopyMode
    bool in_bool = false;  // unary and binary: computed in bool (the first input is bool)
    float p0 = 0, p1 = 0;
    int16_t out = -1;
    int16_t in[3] = {-1, -1, -1};
  };
  struct Register {
    char* base = nullptr;  // arrays only: element 0
    uint8_t layout = 0;    // arrays only: ChainLayout
    bool is_bool = false;  // bool, else float32
  };
  int num_steps = 0, num_arrays = 0, num_registers = 0;
  int64_t numel = 0, row_length = 1;
  Step steps[kMaxChainSteps];
  Register registers[kMaxChainRegisters];
};

#ifndef __CUDACC__
/// `chain` over `arrays` as the fused kernel's program, when the kernel takes it: at most
/// kMaxChainSteps steps and kMaxChainRegisters registers, every register float32 or bool, unary
/// and binary steps whose op is defined for their first input's kind (computed in float or in
/// bool, as the primitives compute them), where's condition bool and branches of its output's
/// dtype, arrays written only where dense. False otherwise (the
/// backend then runs the chain step by step).
bool make_chain_program(const backend::ElementwiseChain& chain,
                        std::span<const backend::Array> arrays, ChainProgram& program);
#endif

namespace chain_detail {

// The element of array register r at flat index i, as its layout indexes it.
KERAS_HOST_DEVICE inline char* element(const ChainProgram& p, int r, int64_t i) {
  const ChainProgram::Register& a = p.registers[r];
  int64_t k = i;
  switch (static_cast<backend::ChainLayout>(a.layout)) {
    case backend::ChainLayout::Dense:
      break;
    case backend::ChainLayout::Scalar:
      k = 0;
      break;
    case backend::ChainLayout::Row:
      k = i / p.row_length;
      break;
    case backend::ChainLayout::Column:
      k = i % p.row_length;
      break;
  }
  return a.base + k * (a.is_bool ? 1 : 4);
}

}  // namespace chain_detail

/// Runs every step of `p` at flat index i.
KERAS_HOST_DEVICE inline void run_chain_element(const ChainProgram& p, int64_t i) {
  using backend::ElementwiseStep;
  // Temporaries (bool ones hold 0 or 1), left unset as cpu's scratch is: a chain writes each
  // before it reads it. (Zeroing them would cost every element 256 bytes of local stores.)
#ifdef __CUDACC__
#pragma nv_diag_suppress 549  // "used before its value is set": the steps set each first
#endif
  float temp[kMaxChainRegisters];
  auto read = [&](int r) -> float {
    if (r >= p.num_arrays) return temp[r - p.num_arrays];
    const char* e = chain_detail::element(p, r, i);
    if (p.registers[r].is_bool) return *reinterpret_cast<const bool*>(e) ? 1.0f : 0.0f;
    return *reinterpret_cast<const float*>(e);
  };
  auto write = [&](int r, float v) {
    const bool is_bool = p.registers[r].is_bool;
    if (r >= p.num_arrays) {
      temp[r - p.num_arrays] = is_bool ? (v != 0.0f ? 1.0f : 0.0f) : v;
      return;
    }
    char* e = chain_detail::element(p, r, i);
    if (is_bool)
      *reinterpret_cast<bool*>(e) = v != 0.0f;
    else
      *reinterpret_cast<float*>(e) = v;
  };
  for (int s = 0; s < p.num_steps; ++s) {
    const ChainProgram::Step& step = p.steps[s];
    float r = 0;
    switch (static_cast<ElementwiseStep::Kind>(step.kind)) {
      case ElementwiseStep::Kind::Unary: {
        const float x = read(step.in[0]);
        backend::math::visit(static_cast<backend::UnaryOp>(step.op), [&](auto tag) {
          constexpr backend::UnaryOp kOp = decltype(tag)::value;
          if (step.in_bool) {
            if constexpr (backend::math::defined_for_bool(kOp))
              r = backend::math::unary_bool<kOp>(x != 0.0f) ? 1.0f : 0.0f;
          } else if constexpr (backend::math::defined_for_floats(kOp)) {
            r = static_cast<float>(backend::math::unary_float<kOp, float>(x, step.p0, step.p1));
          }
        });
        break;
      }
      case ElementwiseStep::Kind::Binary: {
        const float a = read(step.in[0]), b = read(step.in[1]);
        backend::math::visit(static_cast<backend::BinaryOp>(step.op), [&](auto tag) {
          constexpr backend::BinaryOp kOp = decltype(tag)::value;
          if (step.in_bool) {
            if constexpr (backend::math::defined_for_bool(kOp))
              r = backend::math::binary_bool<kOp>(a != 0.0f, b != 0.0f) ? 1.0f : 0.0f;
          } else if constexpr (backend::math::defined_for_floats(kOp)) {
            r = static_cast<float>(backend::math::binary_float<kOp, float>(a, b));
          }
        });
        break;
      }
      case ElementwiseStep::Kind::Where:
        r = read(step.in[0]) != 0.0f ? read(step.in[1]) : read(step.in[2]);
        break;
      case ElementwiseStep::Kind::Copy:
        r = read(step.in[0]);
        if (static_cast<backend::CopyMode>(step.op) == backend::CopyMode::Add)
          r = read(step.out) + r;
        break;
    }
    write(step.out, r);
  }
}

}  // namespace keras::cuda
