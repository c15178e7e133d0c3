// shuffle: a random permutation of every line along an axis.

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"
#include "random/draw.h"

namespace keras::random {


Tensor shuffle(const Tensor& x, int axis, const Seed& seed) {
  constexpr std::string_view op = "random::shuffle";
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(x.ndim() >= 1, op, ": needs a tensor with at least one axis; got a 0-d tensor.");
  const int rank = x.ndim();
  const int a = ops::detail::normalize_axis(op, axis, rank);
  auto key = detail::DrawKey::from(seed);
  if (x.size() == 0) return x;
  auto& be = x.backend();
  // The sort keys are laid out with `axis` last, so that each line is contiguous in the draw.
  std::vector<int> to_last, from_last(static_cast<size_t>(rank));
  for (int d = 0; d < rank; ++d)
    if (d != a) to_last.push_back(d);
  to_last.push_back(a);
  for (int d = 0; d < rank; ++d) from_last[static_cast<size_t>(to_last[d])] = d;
  Shape moved;
  for (int d : to_last) moved.push_back(x.shape()[d]);
  Tensor keys = key.stream(backend::RandomKind::Bits, moved, DType::Int64, be);
  Tensor order = ops::detail::empty(moved, DType::Int64, be);
  be.sort(backend::Array{}, order.array(), keys.array(), /*descending=*/false);
  return ops::detail::gather_along(x, ops::transpose(order, from_last), a);
}

}  // namespace keras::random
