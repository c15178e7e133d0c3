// The op classes of keras.src.ops.core that keras-cpp implements (keras/ops/operation.h).
//
// Not here: the control flow classes that take Python functions (Cond, Switch, WhileLoop,
// ForiLoop, Scan, AssociativeScan, Map, VectorizedMap). Keras cannot serialize them either: a
// function is not a config value.

#include "keras/ops/core.h"
#include "ops/operations/operation_tables.h"

namespace keras::ops::detail {
namespace {

constexpr const char* kModule = "keras.src.ops.core";

OperationSpec op(std::string name, std::function<Tensor(const OperationCall&)> f) {
  return one_output(std::move(name), kModule, std::move(f));
}

DType required_dtype(const OperationCall& c) {
  auto dtype = c.dtype("dtype");
  if (!dtype) c.fail("the argument dtype is required.");
  return *dtype;
}

// Start indices are a call argument: a list, or a tensor read on the host.
std::vector<int64_t> start_indices(const OperationCall& c) {
  return c.tensor(1).to_vector<int64_t>();
}

Shape to_shape(const std::vector<int64_t>& dims) {
  Shape shape;
  for (int64_t d : dims) shape.push_back(d);
  return shape;
}

}  // namespace

void add_core_operations(OperationTable& table) {
  table.insert(
      table.end(),
      {
          op("Scatter",
             [](const OperationCall& c) {
               return scatter(c.tensor(0), c.tensor(1), to_shape(c.integers("shape")));
             }),
          op("ScatterUpdate",
             [](const OperationCall& c) {
               std::optional<std::string> reduction;
               if (!c.attr("reduction").is_null()) reduction = c.string("reduction", "");
               return scatter_update(c.tensor(0), c.tensor(1), c.tensor(2), reduction);
             }),
          op("Slice",
             [](const OperationCall& c) {
               return slice(c.tensor(0), start_indices(c), to_shape(c.integers("shape")));
             }),
          op("SliceUpdate",
             [](const OperationCall& c) {
               return slice_update(c.tensor(0), start_indices(c), c.tensor(2));
             }),
          op("StopGradient", [](const OperationCall& c) { return stop_gradient(c.tensor(0)); }),
          {"Unstack", kModule,
           [](const OperationCall& c) {
             return unstack(c.tensor(0), c.optional_integer("num"), c.integer("axis", 0));
           }},
          op("Cast", [](const OperationCall& c) { return cast(c.tensor(0), required_dtype(c)); }),
          op("SaturateCast",
             [](const OperationCall& c) { return saturate_cast(c.tensor(0), required_dtype(c)); }),
          // sparse and ragged only matter for sparse or ragged inputs, which keras-cpp has not.
          op("ConvertToTensor",
             [](const OperationCall& c) {
               return convert_to_tensor(c.tensor(0), c.dtype("dtype"));
             }),
      });
}

}  // namespace keras::ops::detail
