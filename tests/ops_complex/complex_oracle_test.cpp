// Complex tensors against Keras 3.15 itself (tools/keras_oracle/complex.py ->
// tests/oracle/fixtures/complex.npz): values, and the gradients jax.grad takes through Keras's
// functions of L = sum(real(y) * w_re + imag(y) * w_im) (or sum(y * w) for a real y), which for
// a complex input z = x + iy are dL/dx - i dL/dy (JAX's convention).

#include <gtest/gtest.h>

#include "complex_oracle.h"
#include "golden.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::GoldenOps;
using test::json;
using test::with_gradients;

std::optional<ops::Axes> axis_of(const json& kw) {
  if (kw["axis"].is_null()) return ops::Axes();
  return ops::Axes(kw["axis"].get<int>());
}

GoldenOps complex_ops() {
  GoldenOps g;
  auto binary = [](Tensor (*f)(const Tensor&, const Tensor&)) {
    return with_gradients(2, [f](const TensorList& x) { return f(x[0], x[1]); });
  };
  auto unary = [](Tensor (*f)(const Tensor&)) {
    return with_gradients(1, [f](const TensorList& x) { return f(x[0]); });
  };
  g["add"] = binary(&ops::add);
  g["subtract"] = binary(&ops::subtract);
  g["multiply"] = binary(&ops::multiply);
  g["divide"] = binary(&ops::divide);
  g["matmul"] = binary(&ops::matmul);
  g["equal"] = binary(&ops::equal);
  g["not_equal"] = binary(&ops::not_equal);
  g["polar"] = binary(&ops::polar);
  g["negative"] = unary(&ops::negative);
  g["square"] = unary(&ops::square);
  g["reciprocal"] = unary(&ops::reciprocal);
  g["exp"] = unary(&ops::exp);
  g["log"] = unary(&ops::log);
  g["sqrt"] = unary(&ops::sqrt);
  g["abs"] = unary(&ops::abs);
  g["angle"] = unary(&ops::angle);
  g["real"] = unary(&ops::real);
  g["imag"] = unary(&ops::imag);
  g["conj"] = unary(&ops::conj);
  for (auto [name, f] : {std::pair<const char*, Tensor (*)(const Tensor&)>{"sin", &ops::sin},
                         {"cos", &ops::cos},
                         {"tan", &ops::tan},
                         {"sinh", &ops::sinh},
                         {"cosh", &ops::cosh},
                         {"tanh", &ops::tanh},
                         {"exp2", &ops::exp2},
                         {"expm1", &ops::expm1},
                         {"log1p", &ops::log1p},
                         {"log2", &ops::log2},
                         {"log10", &ops::log10},
                         {"sign", &ops::sign},
                         {"arcsin", &ops::arcsin},
                         {"arccos", &ops::arccos},
                         {"arctan", &ops::arctan},
                         {"arcsinh", &ops::arcsinh},
                         {"arccosh", &ops::arccosh},
                         {"arctanh", &ops::arctanh}})
    g[name] = unary(f);
  g["power"] = binary(&ops::power);
  g["solve"] = binary(&ops::solve);
  g["inv"] = unary(&ops::inv);
  g["dot"] = binary(&ops::dot);
  g["inner"] = binary(&ops::inner);
  g["outer"] = binary(&ops::outer);
  g["vdot"] = binary(&ops::vdot);
  g["kron"] = binary(&ops::kron);
  g["tensordot"] = with_gradients(2, [](const TensorList& x) {
    return ops::tensordot(x[0], x[1], 1);
  });
  g["einsum_ij_jk"] = with_gradients(2, [](const TensorList& x) {
    return ops::einsum("ij,jk->ik", {x[0], x[1]});
  });
  g["einsum_ij_j_k"] = with_gradients(3, [](const TensorList& x) {
    return ops::einsum("ij,j,k->ik", {x[0], x[1], x[2]});
  });
  g["einsum_ii"] = with_gradients(1, [](const TensorList& x) {
    return ops::einsum("ii->", {x[0]});
  });
  g["cumsum"] = [](const TensorList& in, const json& kw) {
    std::optional<int> axis;
    if (!kw["axis"].is_null()) axis = kw["axis"].get<int>();
    return with_gradients(1, [axis](const TensorList& x) { return ops::cumsum(x[0], axis); })(
        in, kw);
  };
  g["view_as_real"] = unary(&ops::view_as_real);
  g["view_as_complex"] = unary(&ops::view_as_complex);
  g["transpose"] = with_gradients(1, [](const TensorList& x) { return ops::transpose(x[0]); });
  g["cast_real"] = with_gradients(1, [](const TensorList& x) {
    return ops::cast(x[0], complex_part_dtype(x[0].dtype()));
  });
  g["cast_complex"] = with_gradients(1, [](const TensorList& x) {
    return ops::cast(x[0], complex_dtype_for(x[0].dtype()));
  });
  g["sum"] = [](const TensorList& in, const json& kw) {
    ops::Axes axis = *axis_of(kw);
    return with_gradients(1, [axis](const TensorList& x) { return ops::sum(x[0], axis); })(in, kw);
  };
  g["mean"] = [](const TensorList& in, const json& kw) {
    ops::Axes axis = *axis_of(kw);
    return with_gradients(1, [axis](const TensorList& x) { return ops::mean(x[0], axis); })(in,
                                                                                           kw);
  };
  g["where"] = [](const TensorList& in, const json& kw) {
    std::vector<bool> flat;
    for (const auto& row : kw["cond"])
      for (bool v : row) flat.push_back(v);
    Tensor cond = Tensor::from_vector(flat, in[0].shape());
    return with_gradients(2, [cond](const TensorList& x) {
      return ops::where(cond, x[0], x[1]);
    })(in, kw);
  };
  g["concatenate"] = [](const TensorList& in, const json& kw) {
    int axis = kw["axis"].get<int>();
    return with_gradients(2, [axis](const TensorList& x) {
      return ops::concatenate({x[0], x[1]}, axis);
    })(in, kw);
  };
  g["stack"] = [](const TensorList& in, const json& kw) {
    int axis = kw["axis"].get<int>();
    return with_gradients(2, [axis](const TensorList& x) {
      return ops::stack({x[0], x[1]}, axis);
    })(in, kw);
  };
  g["take"] = [](const TensorList& in, const json& kw) {
    Tensor at = Tensor::from_vector(kw["indices"].get<std::vector<int32_t>>(),
                                    {static_cast<int64_t>(kw["indices"].size())});
    int axis = kw["axis"].get<int>();
    return with_gradients(1, [at, axis](const TensorList& x) {
      return ops::take(x[0], at, axis);
    })(in, kw);
  };
  g["take_along_axis"] = [](const TensorList& in, const json& kw) {
    std::vector<int32_t> flat;
    for (const auto& row : kw["indices"])
      for (int32_t v : row) flat.push_back(v);
    Tensor at = Tensor::from_vector(flat, {static_cast<int64_t>(kw["indices"].size()), 1});
    int axis = kw["axis"].get<int>();
    return with_gradients(1, [at, axis](const TensorList& x) {
      return ops::take_along_axis(x[0], at, axis);
    })(in, kw);
  };
  using Fn = std::function<Tensor(const TensorList&)>;
  const std::pair<const char*, Fn> named[] = {
      {"var", [](const TensorList& x) { return ops::var(x[0]); }},
      {"std", [](const TensorList& x) { return ops::std(x[0]); }},
      {"norm", [](const TensorList& x) { return ops::norm(x[0]); }},
      {"norm_axis1", [](const TensorList& x) { return ops::norm(x[0], {}, 1); }},
      {"round_1", [](const TensorList& x) { return ops::round(x[0], 1); }},
      {"nan_to_num", [](const TensorList& x) { return ops::nan_to_num(x[0]); }},
      {"nansum", [](const TensorList& x) { return ops::nansum(x[0]); }},
      {"nanmean", [](const TensorList& x) { return ops::nanmean(x[0]); }},
      {"tile_1_2", [](const TensorList& x) { return ops::tile(x[0], {1, 2}); }},
      {"repeat_2_axis1", [](const TensorList& x) { return ops::repeat(x[0], 2, 1); }},
      {"roll_1_axis1", [](const TensorList& x) { return ops::roll(x[0], 1, 1); }},
      {"flip_axis1", [](const TensorList& x) { return ops::flip(x[0], 1); }},
      {"prod", [](const TensorList& x) { return ops::prod(x[0]); }},
      {"prod_axis1", [](const TensorList& x) { return ops::prod(x[0], 1); }},
      {"cumprod_axis1", [](const TensorList& x) { return ops::cumprod(x[0], 1); }},
      {"cumprod_flat", [](const TensorList& x) { return ops::cumprod(x[0]); }},
      {"max_axis1", [](const TensorList& x) { return ops::max(x[0], 1); }},
      {"min_axis1", [](const TensorList& x) { return ops::min(x[0], 1); }},
      {"max_all", [](const TensorList& x) { return ops::max(x[0]); }},
      {"amin_axis0", [](const TensorList& x) { return ops::amin(x[0], 0); }},
      {"ptp_axis1", [](const TensorList& x) { return ops::ptp(x[0], 1); }},
      {"max_initial", [](const TensorList& x) { return ops::max(x[0], 1, false, 0.5); }},
      {"sort_axis1", [](const TensorList& x) { return ops::sort(x[0], 1); }},
      {"sort_flat", [](const TensorList& x) { return ops::sort(x[0], std::nullopt); }},
      {"argsort_axis1", [](const TensorList& x) { return ops::argsort(x[0], 1); }}};
  for (const auto& [name, f] : named) g[name] = with_gradients(1, f);
  g["eig"] = [](const TensorList& in, const json&) {
    auto [w, v] = ops::eig(in[0]);
    return TensorList{w, v};
  };
  return g;
}

TEST(Complex, MatchesKeras) {
  auto exercised = test::run_oracle("complex", complex_ops());
  EXPECT_EQ(exercised.size(), complex_ops().size());
}

}  // namespace
}  // namespace keras
