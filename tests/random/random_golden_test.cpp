// keras.random against an independent NumPy implementation of its contract
// (tools/golden/random_streams.py): the exact numbers a seed gives, on every backend.

#include <gtest/gtest.h>

#include "golden.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::GoldenOps;
using test::json;

Shape shape_of(const json& kw) { return Shape(kw["shape"].get<std::vector<int64_t>>()); }
uint64_t seed_of(const json& kw) { return kw["seed"].get<uint64_t>(); }
DType dtype_of(const json& kw) { return dtype_from_string(kw["dtype"].get<std::string>()); }

GoldenOps random_ops() {
  GoldenOps m;
  m["uniform"] = [](const TensorList&, const json& kw) {
    return TensorList{random::uniform(shape_of(kw), 0, 1, dtype_of(kw), seed_of(kw))};
  };
  m["normal"] = [](const TensorList&, const json& kw) {
    return TensorList{random::normal(shape_of(kw), 0, 1, dtype_of(kw), seed_of(kw))};
  };
  m["truncated_normal"] = [](const TensorList&, const json& kw) {
    return TensorList{random::truncated_normal(shape_of(kw), 0, 1, dtype_of(kw), seed_of(kw))};
  };
  m["randint"] = [](const TensorList&, const json& kw) {
    return TensorList{random::randint(shape_of(kw), kw["minval"].get<int64_t>(),
                                      kw["maxval"].get<int64_t>(), std::nullopt, seed_of(kw))};
  };
  m["dropout"] = [](const TensorList& in, const json& kw) {
    return TensorList{random::dropout(in[0], kw["rate"].get<double>(), std::nullopt, seed_of(kw))};
  };
  m["shuffle"] = [](const TensorList& in, const json& kw) {
    return TensorList{random::shuffle(in[0], kw["axis"].get<int>(), seed_of(kw))};
  };
  m["categorical"] = [](const TensorList& in, const json& kw) {
    return TensorList{
        random::categorical(in[0], kw["num_samples"].get<int64_t>(), std::nullopt, seed_of(kw))};
  };
  m["gamma"] = [](const TensorList& in, const json& kw) {
    return TensorList{random::gamma(shape_of(kw), in[0], DType::Float64, seed_of(kw))};
  };
  m["beta"] = [](const TensorList& in, const json& kw) {
    return TensorList{random::beta(shape_of(kw), in[0], in[1], DType::Float64, seed_of(kw))};
  };
  m["binomial"] = [](const TensorList& in, const json& kw) {
    return TensorList{random::binomial(shape_of(kw), in[0], in[1], DType::Float64, seed_of(kw))};
  };
  return m;
}

TEST(RandomGolden, SeedsGiveTheDocumentedNumbers) {
  test::run_golden("random_streams", random_ops());
}

}  // namespace
}  // namespace keras
