#pragma once
// Shape inference runs a layer's call twice on data-free tensors, with unknown dimensions set
// to two different probe values; a dimension that differs is unknown in the result. A layer
// whose output extent depends on the values (TextVectorization without
// output_sequence_length: the longest document) returns this extent there, so it comes out
// unknown (None), as Keras's compute_output_spec says.

#include <cstdint>

namespace keras::layers::detail {

/// The probe value of the shape-inference run in progress on this thread (83 or 89);
/// 83 outside one.
int64_t data_dependent_extent();

/// Sets data_dependent_extent() for the current thread while alive (Layer::call_symbolic).
class DataDependentExtentScope {
 public:
  explicit DataDependentExtentScope(int64_t probe);
  ~DataDependentExtentScope();
  DataDependentExtentScope(const DataDependentExtentScope&) = delete;
  DataDependentExtentScope& operator=(const DataDependentExtentScope&) = delete;

 private:
  int64_t previous_;
};

}  // namespace keras::layers::detail
