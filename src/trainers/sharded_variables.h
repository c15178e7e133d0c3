#pragma once
// ModelParallel's sharded variables during fit, in a job of several processes: the variables
// whose layout splits them over the mesh (and their optimizer slots) hold only this process's
// slice between the steps, so each process keeps 1/m of them and of their optimizer state. A
// step gathers the whole values for its forward and backward passes (an all-gather), sums the
// gradients over the processes, keeps this process's slice of each (the reduce-scatter) and
// updates its slice. When fit ends, or while a callback saves, every process gathers the whole
// values back, so the model outside fit, and every file written, is an ordinary one.

#include <memory>
#include <optional>
#include <vector>

#include "keras/autograd/variable.h"
#include "keras/distribution/device_mesh.h"

// Public classes declared ahead with default visibility, as their headers declare them: the
// first declaration a translation unit sees sets a class's visibility, and in a unity batch
// this header may come before the public one (a hidden Model hid Model::compile from
// libkeras.so).
#pragma GCC visibility push(default)
namespace keras {
class Model;
}
#pragma GCC visibility pop

namespace keras::trainers {

class ShardedVariables {
 public:
  /// The variables of `model` that the current ModelParallel distribution splits; none in a
  /// job of one process or under another distribution.
  explicit ShardedVariables(Model& model);
  bool empty() const { return entries_.empty(); }

  /// Replaces each whole value by this process's slice (the model's variables, and with
  /// `optimizer` their optimizer slots too).
  void shard(bool optimizer);
  /// Gathers the whole values from every process (a collective: every process calls it).
  void gather(bool optimizer);
  /// This process's slices of the gradients of the (gathered) `variables`.
  std::vector<Tensor> local_gradients(const std::vector<Tensor>& grads,
                                      const std::vector<Variable>& variables) const;

 private:
  struct Entry {
    Variable variable;
    distribution::TensorLayout layout;
    Shape whole;
    std::vector<distribution::Slice> slices;
    bool sharded = false;
  };
  void shard_entry(Entry& e);
  void gather_entry(Entry& e);
  void find_optimizer_slots();

  Model& model_;
  std::vector<Entry> entries_;
  std::vector<Entry> slots_;  // optimizer slots, laid out as their variable
  bool slots_found_ = false;
};

/// The sharding of the fit running on `model` (null when none): the steps and callbacks of
/// that fit read it.
ShardedVariables* active_sharding(const Model* model);

/// Sets `sharding` as `model`'s active sharding while alive.
class ActiveShardingScope {
 public:
  ActiveShardingScope(const Model* model, ShardedVariables* sharding);
  ~ActiveShardingScope();
  ActiveShardingScope(const ActiveShardingScope&) = delete;
  ActiveShardingScope& operator=(const ActiveShardingScope&) = delete;

 private:
  const Model* model_;
  ShardedVariables* previous_;
};

/// While alive, the model's sharded variables (with `optimizer`, their optimizer slots too) hold
/// their whole values: for a validation step, or a callback that saves them. Every process must
/// create it (it gathers). Nothing outside a sharded fit.
class WholeValuesScope {
 public:
  explicit WholeValuesScope(const Model* model, bool optimizer = true);
  ~WholeValuesScope();
  WholeValuesScope(const WholeValuesScope&) = delete;
  WholeValuesScope& operator=(const WholeValuesScope&) = delete;

 private:
  ShardedVariables* sharding_;
  bool optimizer_;
};

}  // namespace keras::trainers
