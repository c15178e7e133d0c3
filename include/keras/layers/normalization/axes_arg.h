#pragma once
// The `axis` argument of LayerNormalization, RMSNormalization and UnitNormalization: one axis
// (Keras's int) or a list of axes (Keras's list or tuple). Which one was given is kept, so
// get_config writes it back the way Keras does.

#include <initializer_list>
#include <string>
#include <vector>

#include "keras/core/json.h"
#include "keras/core/shape.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// One axis or a list of axes; negative axes count from the end.
class AxesArg {
 public:
  /// One axis (Keras's int `axis`).
  AxesArg(int axis) : axes_{axis} {}  // NOLINT: `.axis = 1`
  /// A list of axes (Keras's list), e.g. `.axis = {1, 2}`.
  AxesArg(std::initializer_list<int> axes) : axes_(axes), is_list_(true) {}  // NOLINT
  /// A list of axes (Keras's list).
  AxesArg(std::vector<int> axes) : axes_(std::move(axes)), is_list_(true) {}  // NOLINT

  /// The axes as given (one for a single axis).
  const std::vector<int>& axes() const { return axes_; }
  /// Whether a list was given (get_config writes a list rather than an int).
  bool is_list() const { return is_list_; }

  /// An int or a list of ints, as Keras writes the argument.
  Config to_config() const;
  /// Reads an int or a list of ints; TypeError naming `layer` otherwise.
  static AxesArg from_config(const Config& value, const std::string& layer);

  /// The axes made non-negative for a rank-`ndim` input, in the given order; ValueError naming
  /// `layer` when one is out of range or repeated.
  std::vector<int> canonical(int ndim, const std::string& layer) const;

  /// "-1" or "[1, 2]".
  std::string str() const;

  /// Equal when the axes and the list/int form are.
  bool operator==(const AxesArg& other) const = default;

 private:
  std::vector<int> axes_;
  bool is_list_ = false;
};

}  // namespace keras::layers

#pragma GCC visibility pop
