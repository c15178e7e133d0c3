#pragma once
// For ModelParallel's sharding (src/trainers/sharded_variables.h) alone: while a
// VariableReshapeScope lives on a thread, Variable::exchange_value on that thread accepts a value
// of another shape and makes it the variable's own storage (gradients taken with respect to the
// variable reach it), so a sharded variable can hold its slice between steps and its whole value
// during them. Everything else keeps a variable's shape fixed.

namespace keras::autograd::detail {

class VariableReshapeScope {
 public:
  VariableReshapeScope();
  ~VariableReshapeScope();
  VariableReshapeScope(const VariableReshapeScope&) = delete;
  VariableReshapeScope& operator=(const VariableReshapeScope&) = delete;

 private:
  bool previous_;
};

}  // namespace keras::autograd::detail
