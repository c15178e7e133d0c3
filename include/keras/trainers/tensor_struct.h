#pragma once
// keras::TensorStruct: what fit/evaluate/predict take for x, y and sample_weight, as Keras
// takes an array, a list of arrays (one per model input or output) or a dict keyed by
// input/output name. An undefined struct stands for Keras's None.

#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras {

/// One tensor, a list of tensors, or tensors by name; every tensor's first axis is the
/// sample axis.
class TensorStruct {
 public:
  /// Which form the struct holds: nothing (Keras's None), one tensor, a list, or a map by name.
  enum class Kind { None, Single, List, Map };

  TensorStruct() = default;
  /// One tensor; an undefined `t` gives an undefined struct (Keras's None).
  TensorStruct(Tensor t);                                  // NOLINT
  /// One tensor of strings (a model with a string Input): `model->predict(StringTensor(...))`.
  TensorStruct(const StringTensor& strings) : TensorStruct(Tensor(strings)) {}  // NOLINT
  /// A list, one tensor per model input or output; ValueError when a tensor is undefined.
  TensorStruct(TensorList list);                           // NOLINT
  /// A list, one tensor per model input or output; ValueError when a tensor is undefined.
  TensorStruct(std::initializer_list<Tensor> list);        // NOLINT
  /// Tensors by input or output name; ValueError when a tensor is undefined.
  TensorStruct(std::map<std::string, Tensor> by_name);     // NOLINT

  /// The form the struct holds.
  Kind kind() const { return kind_; }
  /// False for Keras's None (a default-constructed struct or an undefined tensor).
  bool defined() const { return kind_ != Kind::None; }
  /// The tensors in order (map entries sorted by name).
  TensorList flat() const;
  /// The single tensor; ValueError for a list or map of more than one.
  const Tensor& single() const;
  /// The tensors of a List, or the one tensor of a Single; empty for a Map.
  const TensorList& list() const { return list_; }
  /// The tensors of a Map, by name; empty otherwise.
  const std::map<std::string, Tensor>& map() const { return map_; }
  /// The number of tensors (0 when undefined).
  size_t size() const;

  /// The number of samples (first axis), checked equal across tensors.
  int64_t num_samples(const char* what) const;
  /// Samples [start, stop) of every tensor.
  TensorStruct slice(int64_t start, int64_t stop) const;
  /// The samples at `indices` (an int64 1-d tensor), in that order.
  TensorStruct take(const Tensor& indices) const;
  /// The same structure holding `tensors` (in flat() order).
  TensorStruct with_flat(const TensorList& tensors) const;

 private:
  Kind kind_ = Kind::None;
  TensorList list_;
  std::map<std::string, Tensor> map_;
};

}  // namespace keras

#pragma GCC visibility pop
