// keras::NameScope against Keras 3.15's keras.name_scope: the scopes open when a layer builds
// (not when it is made) prefix its weights' paths. The expected paths are what Keras 3.15
// prints for the same steps:
//
//   x = keras.Input((4,))
//   with keras.name_scope("outer"):
//       with keras.name_scope("inner"):
//           d = keras.layers.Dense(2)
//       y = d(x)
//       e = keras.layers.Dense(2)
//   e(y)
//   [w.path for w in d.weights]  # ['outer/dense/kernel', 'outer/dense/bias']
//   [w.path for w in e.weights]  # ['dense_1/kernel', 'dense_1/bias']

#include <gtest/gtest.h>

#include "keras/core/name_scope.h"
#include "keras/keras.h"

namespace keras {
namespace {

std::vector<std::string> paths(const Layer& layer) {
  std::vector<std::string> out;
  for (const Variable& v : layer.weights()) out.push_back(v.path());
  return out;
}

TEST(NameScope, PrefixesThePathsOfWeightsBuiltInsideAsKerasDoes) {
  backend::clear_session();
  auto x = Input(Shape{4});
  LayerPtr<layers::DenseLayer> d, e;
  KerasTensor y;
  {
    NameScope outer("outer");
    {
      NameScope inner("inner");
      d = layers::Dense(2);
    }
    y = d(x);
    e = layers::Dense(2);
  }
  e(y);
  EXPECT_EQ(paths(*d), (std::vector<std::string>{"outer/dense/kernel", "outer/dense/bias"}));
  EXPECT_EQ(paths(*e), (std::vector<std::string>{"dense_1/kernel", "dense_1/bias"}));
  EXPECT_EQ(current_name_scope_path(), "");
}

TEST(NameScope, NestsAndRejectsASlash) {
  NameScope a("a");
  {
    NameScope b("b");
    EXPECT_EQ(current_name_scope_path(), "a/b");
  }
  EXPECT_EQ(current_name_scope_path(), "a");
  EXPECT_THROW(NameScope("a/b"), ValueError);  // Keras: ValueError too
}

}  // namespace
}  // namespace keras
