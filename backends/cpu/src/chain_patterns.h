#pragma once
// The chains that have kernels of their own (chain_kernels.h): each as the compiler's fusion
// pass emits it for one float32 variable, arrays first (registers 0 .. num_arrays - 1, dense or
// a broadcast scalar), then the temporaries. The register numbers are the pass's; a change to
// an optimizer's ops or to the pass that changes its chain makes the pattern stop matching
// (tests/backend/chain_kernels_test.cpp then fails), never a wrong value.

#include <array>
#include <cstdint>

#include "keras/backend/primitives.h"

namespace keras::cpu::chain_patterns {

using backend::BinaryOp;
using backend::UnaryOp;
using Kind = backend::ElementwiseStep::Kind;

// One step of a pattern: the chain's step with the same kind, op and registers.
struct PatternStep {
  Kind kind;
  uint8_t op;
  int out, a, b;  // b is -1 for a unary step
};

constexpr PatternStep binary(BinaryOp op, int out, int a, int b) {
  return {Kind::Binary, static_cast<uint8_t>(op), out, a, b};
}
constexpr PatternStep unary(UnaryOp op, int out, int a) {
  return {Kind::Unary, static_cast<uint8_t>(op), out, a, -1};
}

// `scalars` has bit r set where array r is a broadcast scalar (ChainLayout::Scalar).
template <size_t S>
struct Pattern {
  int num_arrays, num_temps;
  uint32_t scalars;
  std::array<PatternStep, S> steps;
};

// Adam's update (amsgrad off): m += (g - m) * (1 - beta_1); v += (g^2 - v) * (1 - beta_2);
// variable -= m * alpha / (sqrt(v) + epsilon), alpha the bias-corrected learning rate.
// Arrays: m, v, the variable, g; the scalars 1 - beta_1, 1 - beta_2, epsilon, alpha.
constexpr Pattern<12> kAdam{
    8,
    2,
    0b11110000,
    {binary(BinaryOp::Sub, 8, 3, 0), binary(BinaryOp::Mul, 8, 8, 4), binary(BinaryOp::Add, 0, 0, 8),
     unary(UnaryOp::Square, 8, 3), binary(BinaryOp::Sub, 8, 8, 1), binary(BinaryOp::Mul, 8, 8, 5),
     binary(BinaryOp::Add, 1, 1, 8), unary(UnaryOp::Sqrt, 8, 1), binary(BinaryOp::Add, 8, 8, 6),
     binary(BinaryOp::Mul, 9, 0, 7), binary(BinaryOp::Div, 8, 9, 8),
     binary(BinaryOp::Sub, 2, 2, 8)}};

// The same update where an earlier call of the step wrote the variable (AdamW's weight decay):
// the variable is read through a ninth array, and the temporaries are one register on.
constexpr Pattern<12> adam_after_decay() {
  Pattern<12> p = kAdam;
  p.num_arrays = 9;
  for (PatternStep& s : p.steps)
    for (int* r : {&s.out, &s.a, &s.b})
      if (*r >= 8) ++*r;
  p.steps[11].a = 8;  // variable = variable read - step
  return p;
}
constexpr Pattern<12> kAdamAfterDecay = adam_after_decay();

// Decoupled weight decay (Optimizer::decay_variable): variable -= variable * lr * decay.
// Arrays: the variable written, the variable read; the scalars lr and decay.
constexpr Pattern<3> kWeightDecay{4,
                                  1,
                                  0b1100,
                                  {binary(BinaryOp::Mul, 4, 1, 2), binary(BinaryOp::Mul, 4, 4, 3),
                                   binary(BinaryOp::Sub, 0, 1, 4)}};

// SGD with momentum (nesterov off): m = m * momentum - g * lr; variable += m.
// Arrays: m, the variable, g; the scalars lr and momentum.
constexpr Pattern<4> kSgdMomentum{5,
                                  2,
                                  0b11000,
                                  {binary(BinaryOp::Mul, 5, 2, 3), binary(BinaryOp::Mul, 6, 0, 4),
                                   binary(BinaryOp::Sub, 0, 6, 5), binary(BinaryOp::Add, 1, 1, 0)}};

// RMSprop (not centered, no momentum): velocity = rho * velocity + (1 - rho) * g^2;
// variable -= lr * g / sqrt(velocity + epsilon). Arrays: velocity, the variable, g; the
// scalars 1 - rho, rho, epsilon, lr.
constexpr Pattern<9> kRmsprop{
    7,
    2,
    0b1111000,
    {unary(UnaryOp::Square, 7, 2), binary(BinaryOp::Mul, 7, 3, 7), binary(BinaryOp::Mul, 8, 4, 0),
     binary(BinaryOp::Add, 0, 8, 7), binary(BinaryOp::Add, 7, 0, 5), unary(UnaryOp::Sqrt, 7, 7),
     binary(BinaryOp::Mul, 8, 6, 2), binary(BinaryOp::Div, 7, 8, 7),
     binary(BinaryOp::Sub, 1, 1, 7)}};

// Adam with amsgrad: as kAdam, and v_hat = maximum(v_hat, v) divides in v's place. Arrays: m, v,
// v_hat, the variable, g; the scalars 1 - beta_1, 1 - beta_2, epsilon, alpha.
constexpr Pattern<13> kAdamAmsgrad{
    9,
    2,
    0b111100000,
    {binary(BinaryOp::Sub, 9, 4, 0), binary(BinaryOp::Mul, 9, 9, 5), binary(BinaryOp::Add, 0, 0, 9),
     unary(UnaryOp::Square, 9, 4), binary(BinaryOp::Sub, 9, 9, 1), binary(BinaryOp::Mul, 9, 9, 6),
     binary(BinaryOp::Add, 1, 1, 9), binary(BinaryOp::Maximum, 2, 2, 1), unary(UnaryOp::Sqrt, 9, 2),
     binary(BinaryOp::Add, 9, 9, 7), binary(BinaryOp::Mul, 10, 0, 8),
     binary(BinaryOp::Div, 9, 10, 9), binary(BinaryOp::Sub, 3, 3, 9)}};

// Plain SGD: variable -= g * lr. Arrays: the variable, g; the scalar lr.
constexpr Pattern<2> kSgd{
    3, 1, 0b100, {binary(BinaryOp::Mul, 3, 1, 2), binary(BinaryOp::Sub, 0, 0, 3)}};

// SGD with Nesterov momentum: m = m * momentum - g * lr;
// variable += m * momentum - g * lr. Arrays: m, the variable, g; the scalars lr and momentum.
constexpr Pattern<7> kSgdNesterov{
    5,
    2,
    0b11000,
    {binary(BinaryOp::Mul, 5, 2, 3), binary(BinaryOp::Mul, 6, 0, 4), binary(BinaryOp::Sub, 0, 6, 5),
     binary(BinaryOp::Mul, 5, 2, 3), binary(BinaryOp::Mul, 6, 0, 4), binary(BinaryOp::Sub, 5, 6, 5),
     binary(BinaryOp::Add, 1, 1, 5)}};

// Adagrad: accumulator += g^2; variable -= lr * g / sqrt(accumulator + epsilon). Arrays: the
// accumulator, the variable, g; the scalars epsilon and lr.
constexpr Pattern<7> kAdagrad{
    5,
    2,
    0b11000,
    {unary(UnaryOp::Square, 5, 2), binary(BinaryOp::Add, 0, 0, 5), binary(BinaryOp::Add, 5, 0, 3),
     unary(UnaryOp::Sqrt, 5, 5), binary(BinaryOp::Mul, 6, 4, 2), binary(BinaryOp::Div, 5, 6, 5),
     binary(BinaryOp::Sub, 1, 1, 5)}};

}  // namespace keras::cpu::chain_patterns
