#include "chain_program.h"

namespace keras::cuda {
namespace {

// Whether unary or binary `op` is an op and defined on floats (float input) or on bool: the
// kind its step computes in.
template <typename Op>
bool defined_on(Op op, bool float_input) {
  if (op >= Op::kCount) return false;
  return float_input ? backend::math::defined_for_floats(op) : backend::math::defined_for_bool(op);
}

}  // namespace

bool make_chain_program(const backend::ElementwiseChain& chain,
                        std::span<const backend::Array> arrays, ChainProgram& program) {
  using backend::ElementwiseStep;
  const int num_arrays = static_cast<int>(arrays.size());
  const int num_registers = num_arrays + static_cast<int>(chain.temp_dtypes.size());
  if (static_cast<int>(chain.steps.size()) > kMaxChainSteps || num_registers > kMaxChainRegisters ||
      chain.num_arrays != num_arrays || chain.layouts.size() != arrays.size() ||
      chain.row_length < 1)
    return false;
  auto dtype_of = [&](int r) {
    return r < num_arrays ? arrays[static_cast<size_t>(r)].dtype
                          : chain.temp_dtypes[static_cast<size_t>(r - num_arrays)];
  };
  for (int r = 0; r < num_registers; ++r)
    if (dtype_of(r) != DType::Float32 && dtype_of(r) != DType::Bool) return false;
  program = ChainProgram{};
  program.num_steps = static_cast<int>(chain.steps.size());
  program.num_arrays = num_arrays;
  program.num_registers = num_registers;
  program.numel = chain.numel;
  program.row_length = chain.row_length;
  for (int r = 0; r < num_registers; ++r) program.registers[r].is_bool = dtype_of(r) == DType::Bool;
  for (int r = 0; r < num_arrays; ++r) {
    const backend::Array& a = arrays[static_cast<size_t>(r)];
    program.registers[r].base = a.storage ? static_cast<char*>(a.storage->data()) +
                                                a.offset * static_cast<int64_t>(itemsize(a.dtype))
                                          : nullptr;
    program.registers[r].layout = static_cast<uint8_t>(chain.layouts[static_cast<size_t>(r)]);
  }
  auto valid = [&](int r) { return r >= 0 && r < num_registers; };
  auto is_float = [&](int r) { return dtype_of(r) == DType::Float32; };
  for (size_t s = 0; s < chain.steps.size(); ++s) {
    const ElementwiseStep& e = chain.steps[s];
    const int inputs = e.kind == ElementwiseStep::Kind::Binary  ? 2
                       : e.kind == ElementwiseStep::Kind::Where ? 3
                                                                : 1;
    if (!valid(e.out)) return false;
    for (int k = 0; k < inputs; ++k)
      if (!valid(e.in[static_cast<size_t>(k)])) return false;
    // An array written from many flat indices at once would race.
    if (e.out < num_arrays &&
        chain.layouts[static_cast<size_t>(e.out)] != backend::ChainLayout::Dense)
      return false;
    switch (e.kind) {
      case ElementwiseStep::Kind::Unary:
        if (!defined_on(static_cast<backend::UnaryOp>(e.op), is_float(e.in[0]))) return false;
        break;
      case ElementwiseStep::Kind::Binary:
        if (!defined_on(static_cast<backend::BinaryOp>(e.op), is_float(e.in[0]))) return false;
        break;
      case ElementwiseStep::Kind::Where:
        if (dtype_of(e.in[0]) != DType::Bool || dtype_of(e.in[1]) != dtype_of(e.out) ||
            dtype_of(e.in[2]) != dtype_of(e.out))
          return false;
        break;
      case ElementwiseStep::Kind::Copy:
        break;
    }
    ChainProgram::Step& p = program.steps[s];
    p.kind = static_cast<uint8_t>(e.kind);
    p.op = e.op;
    p.in_bool = !is_float(e.in[0]);
    p.p0 = static_cast<float>(e.p0);
    p.p1 = static_cast<float>(e.p1);
    p.out = static_cast<int16_t>(e.out);
    for (int k = 0; k < 3; ++k) p.in[k] = static_cast<int16_t>(e.in[static_cast<size_t>(k)]);
  }
  return true;
}

}  // namespace keras::cuda
