// The rest of the keras.ops functions that take complex tensors, against Keras 3.15 itself
// (tools/keras_oracle/complex_rest.py -> tests/oracle/fixtures/complex_rest.npz): the ordering
// comparisons and maximum/minimum/fmax/fmin in the lexicographic order, the logical ops and
// reductions, the NaN-skipping reductions, logaddexp, logsumexp, softmax and the other
// elementwise functions, the shape and difference ops, unique, corrcoef and cdist; values and
// jax.grad gradients.

#include <gtest/gtest.h>

#include "complex_oracle.h"
#include "golden.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::GoldenOps;
using test::json;
using test::with_gradients;
using Fn = std::function<Tensor(const TensorList&)>;

GoldenOps complex_rest_ops() {
  GoldenOps g;
  using Binary = Tensor (*)(const Tensor&, const Tensor&);
  const std::pair<const char*, Binary> binary[] = {{"greater", &ops::greater},
                                                   {"greater_equal", &ops::greater_equal},
                                                   {"less", &ops::less},
                                                   {"less_equal", &ops::less_equal},
                                                   {"logical_and", &ops::logical_and},
                                                   {"logical_or", &ops::logical_or},
                                                   {"logical_xor", &ops::logical_xor},
                                                   {"maximum", &ops::maximum},
                                                   {"minimum", &ops::minimum},
                                                   {"fmax", &ops::fmax},
                                                   {"fmin", &ops::fmin},
                                                   {"divide_no_nan", &ops::divide_no_nan},
                                                   {"logaddexp", &ops::logaddexp},
                                                   {"logaddexp2", &ops::logaddexp2}};
  for (auto [name, f] : binary)
    g[name] = with_gradients(2, [f](const TensorList& x) { return f(x[0], x[1]); });
  using Unary = Tensor (*)(const Tensor&);
  const std::pair<const char*, Unary> unary[] = {
      {"logical_not", &ops::logical_not},
      {"rsqrt", &ops::rsqrt},
      {"deg2rad", &ops::deg2rad},
      {"rad2deg", &ops::rad2deg},
      {"sigmoid", &ops::sigmoid},
      {"silu", &ops::silu},
      {"sinc", &ops::sinc},
      {"softplus", &ops::softplus},
      {"log_sigmoid", &ops::log_sigmoid},
      {"softsign", &ops::softsign},
      {"squareplus", [](const Tensor& x) { return ops::squareplus(x); }},
      {"tanh_shrink", &ops::tanh_shrink},
      {"gelu", [](const Tensor& x) { return ops::gelu(x); }},
      {"tril", [](const Tensor& x) { return ops::tril(x); }},
      {"triu", [](const Tensor& x) { return ops::triu(x); }}};
  for (auto [name, f] : unary)
    g[name] = with_gradients(1, [f](const TensorList& x) { return f(x[0]); });
  const std::pair<const char*, Fn> named[] = {
      {"isclose", [](const TensorList& x) { return ops::isclose(x[0], x[1]); }},
      {"isin", [](const TensorList& x) { return ops::isin(x[0], x[1]); }},
      {"all_axis1", [](const TensorList& x) { return ops::all(x[0], 1); }},
      {"any_axis0", [](const TensorList& x) { return ops::any(x[0], 0); }},
      {"count_nonzero_axis1", [](const TensorList& x) { return ops::count_nonzero(x[0], 1); }},
      {"nonzero_rows", [](const TensorList& x) { return ops::nonzero(x[0])[0]; }},
      {"logsumexp_axis1", [](const TensorList& x) { return ops::logsumexp(x[0], 1); }},
      {"logsumexp_all", [](const TensorList& x) { return ops::logsumexp(x[0]); }},
      {"softmax", [](const TensorList& x) { return ops::softmax(x[0]); }},
      {"log_softmax", [](const TensorList& x) { return ops::log_softmax(x[0]); }},
      {"nancumsum_axis1", [](const TensorList& x) { return ops::nancumsum(x[0], 1); }},
      {"nancumprod_axis1", [](const TensorList& x) { return ops::nancumprod(x[0], 1); }},
      {"nanprod_axis1", [](const TensorList& x) { return ops::nanprod(x[0], 1); }},
      {"nanmax_axis1", [](const TensorList& x) { return ops::nanmax(x[0], 1); }},
      {"nanmin_axis1", [](const TensorList& x) { return ops::nanmin(x[0], 1); }},
      {"append", [](const TensorList& x) { return ops::append(x[0], x[1]); }},
      {"hstack",
       [](const TensorList& x) {
         return ops::hstack({x[0], x[1]});
       }},
      {"vstack",
       [](const TensorList& x) {
         return ops::vstack({x[0], x[1]});
       }},
      {"dstack",
       [](const TensorList& x) {
         return ops::dstack({x[0], x[1]});
       }},
      {"rot90", [](const TensorList& x) { return ops::rot90(x[0]); }},
      {"diff", [](const TensorList& x) { return ops::diff(x[0]); }},
      {"cross", [](const TensorList& x) { return ops::cross(x[0], x[1]); }},
      {"average_axis1", [](const TensorList& x) { return ops::average(x[0], 1); }},
      {"average_weights", [](const TensorList& x) { return ops::average(x[0], 1, x[1]); }},
      {"trapezoid", [](const TensorList& x) { return ops::trapezoid(x[0]); }},
      {"linspace_5", [](const TensorList& x) { return ops::linspace(x[0], x[1], 5); }},
      {"diagflat", [](const TensorList& x) { return ops::diagflat(x[0]); }},
      {"unique", [](const TensorList& x) { return ops::unique(x[0]).values; }},
      {"unique_inverse",
       [](const TensorList& x) { return ops::unique(x[0], {.return_inverse = true}).inverse; }},
      {"unique_rows", [](const TensorList& x) { return ops::unique(x[0], {.axis = 0}).values; }},
      {"unique_size_30",
       [](const TensorList& x) { return ops::unique(x[0], {.size = 30, .fill_value = 7}).values; }},
      {"corrcoef", [](const TensorList& x) { return ops::corrcoef(x[0]); }},
      {"cdist", [](const TensorList& x) { return ops::cdist(x[0], x[1]); }}};
  // The ops of two inputs among them; the others take one.
  const std::set<std::string> two = {"isclose", "isin",  "append",          "hstack",     "vstack",
                                     "dstack",  "cross", "average_weights", "linspace_5", "cdist"};
  for (const auto& [name, f] : named) g[name] = with_gradients(two.count(name) ? 2 : 1, f);
  return g;
}

TEST(ComplexRest, MatchesKeras) {
  auto exercised = test::run_oracle("complex_rest", complex_rest_ops());
  EXPECT_EQ(exercised.size(), complex_rest_ops().size());
}

}  // namespace
}  // namespace keras
