#pragma once
// keras.optimizers.MultiOptimizer and keras.optimizers.OptimizerMap
// (keras/src/optimizers/multi_optimizer.py): each trainable variable is updated by the
// optimizer its path selects, so different parts of a model train with different rules.
//
//   optimizers::OptimizerMap map(optimizers::RMSprop(0.01));   // the default optimizer
//   map.set("encoder/.*", optimizers::Adam(1e-3));             // a regex over variable paths
//   map.set("head/kernel", optimizers::SGD({.learning_rate = 0.1, .momentum = 0.9}));
//   model.compile({.optimizer = std::make_shared<optimizers::MultiOptimizer>(map),
//                  .loss = "mse"});
//
// Saved as Keras saves it: compile_config {"class_name": "MultiOptimizer", "config":
// {"optimizer_map": <OptimizerMap record>, "loss_scale_factor", "name"}}; model.weights.h5 holds
// every variable under optimizer/vars (the MultiOptimizer's iteration and learning_rate, then
// each sub-optimizer's variables) and each sub-optimizer's again under
// optimizer/optimizers/<class in snake case>[_1, ...]/vars.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "keras/optimizers/optimizer.h"

#pragma GCC visibility push(default)
namespace keras::optimizers {

/// Maps variable paths to optimizers (Keras's OptimizerMap): an exact key first, else the one
/// key that matches the whole path as a regular expression, else the default optimizer.
///
/// Keys are kept sorted (a std::map), not in insertion order as Python's dict: keras-cpp's
/// JSON configs do not keep key order, and the order of the sub-optimizers (hence of
/// MultiOptimizer::variables()) must be the same after a save and a load.
class OptimizerMap {
 public:
  /// `default_optimizer` updates every variable no key matches.
  explicit OptimizerMap(OptimizerPtr default_optimizer,
                        const std::map<std::string, OptimizerPtr>& optimizer_map = {});

  /// The optimizer of every variable no key matches (Keras's `default_optimizer`).
  const OptimizerPtr& default_optimizer() const { return default_; }
  /// Keras's map[key]: the exact key's optimizer, else the only key whose regex matches all of
  /// `key` (ValueError when several do), else the default optimizer.
  ///
  /// The regexes are ECMAScript (std::regex) where Keras uses Python's re.fullmatch. The
  /// common syntax (`.`, `*`, `+`, `?`, `[...]`, `(...)`, `|`, `{m,n}`, `^`, `$`, `\d`, `\w`,
  /// `\s`) means the same;
  /// Python-only syntax is a ValueError here: lookbehind (?<=...), named groups (?P<name>...),
  /// inline flags (?i), `\A` and `\Z`. ECMAScript's $ and ^ also match only at the ends (no
  /// multiline), as in re.fullmatch.
  const OptimizerPtr& get(const std::string& key) const;
  /// Keras's map[key]: the same as get().
  const OptimizerPtr& operator[](const std::string& key) const { return get(key); }
  /// The optimizer of a variable: get(variable.path()) (Keras's map(variable)).
  const OptimizerPtr& operator()(const Variable& variable) const { return get(variable.path()); }
  /// Keras's map[key] = optimizer: ValueError for a key already present, a null optimizer, a
  /// LossScaleOptimizer or a MultiOptimizer.
  void set(const std::string& key, OptimizerPtr optimizer);
  /// Removes a key (KeyError in Keras: a ValueError here when it is absent).
  void erase(const std::string& key);
  /// Whether `key` is a key of the map (exact match, no regex).
  bool contains(const std::string& key) const { return map_.count(key) > 0; }
  /// The number of keys (the default optimizer not counted).
  size_t size() const { return map_.size(); }
  /// The keys and their optimizers, sorted by key.
  const std::map<std::string, OptimizerPtr>& items() const { return map_; }

  /// `{"default_optimizer": <serialized>, "optimizer_map": {key: <serialized>, ...}}`.
  Config get_config() const;
  /// The map a get_config() (or Keras's) describes.
  static OptimizerMap from_config(const Config& config);

 private:
  OptimizerPtr default_;
  std::map<std::string, OptimizerPtr> map_;
};

/// The variable -> optimizer function MultiOptimizer also accepts (Keras's callable).
using OptimizerSelector = std::function<OptimizerPtr(const Variable&)>;

/// MultiOptimizer's keyword arguments.
struct MultiOptimizerOptions {
  /// Keras's `loss_scale_factor`: the loss is multiplied by it and the gradients divided by it
  /// before each sub-optimizer's step; a sub-optimizer must have none or the same one
  /// (another value is a ValueError).
  std::optional<double> loss_scale_factor;
  /// Defaults to "multi_optimizer" made unique.
  std::string name;
};

/// Delegates each variable to the optimizer an OptimizerMap or a selector function gives it
/// (Keras's MultiOptimizer). It has no learning rate of its own: learning_rate() and
/// set_learning_rate() are ValueErrors, as Keras's property raises; use optimizers().
class MultiOptimizer : public Optimizer {
 public:
  /// Routes each variable to the optimizer `optimizer_map` gives its path; the sub-optimizers are
  /// shared, not copied.
  /// ValueError when a sub-optimizer has a `loss_scale_factor` other than the MultiOptimizer's.
  explicit MultiOptimizer(OptimizerMap optimizer_map, MultiOptimizerOptions options = {});
  /// A selector cannot be serialized (get_config is a ValueError) nor cloned.
  explicit MultiOptimizer(OptimizerSelector selector, MultiOptimizerOptions options = {});

  std::string class_name() const override { return "MultiOptimizer"; }
  /// `{"optimizer_map": <OptimizerMap record>, "loss_scale_factor", "name"}`; the sub-optimizers'
  /// loss_scale_factor reads as this one's, as Keras overrides theirs.
  Config get_config() const override;
  /// A new MultiOptimizer over clones of the sub-optimizers (one clone per distinct one).
  OptimizerPtr clone() const override;
  /// The MultiOptimizer a Keras config describes (`optimizer_map` required, its optimizers
  /// deserialized).
  static OptimizerPtr from_config(const Config& config);

  /// The sub-optimizers: the map's (each once, in key order), then its default, then any a
  /// selector returned while building.
  const std::vector<OptimizerPtr>& optimizers() const { return inner_; }
  /// The map given at construction (none for a selector).
  const std::optional<OptimizerMap>& optimizer_map() const { return map_; }
  /// The sub-optimizer that updates `variable` (built optimizers only).
  const OptimizerPtr& optimizer_for(const Variable& variable) const;
  /// The number of variables the MultiOptimizer owns itself (iteration, learning_rate) at the
  /// front of variables().
  size_t own_variable_count() const { return own_count_; }
  /// The groups Keras writes for the sub-optimizers in model.weights.h5, relative to
  /// "optimizer": ("optimizers/adam", adam), ("optimizers/sgd", sgd), ... named by class in
  /// snake case, "_1", "_2" for repeats (saving_lib's container naming).
  std::vector<std::pair<std::string, OptimizerPtr>> saved_children() const;

  Tensor learning_rate_tensor() const override;
  void set_learning_rate(double lr) override;
  bool has_schedule() const override { return false; }
  /// Each sub-optimizer finalizes its own variables (an EMA overwrite where it uses one).
  void finalize_variable_values(const std::vector<Variable>& vars) override;

 protected:
  /// Routes every variable, builds each sub-optimizer on its variables and lists their
  /// variables after its own.
  void build_slots(const std::vector<Variable>& vars) override;
  /// Hands each sub-optimizer its gradients, then counts the step.
  void apply_indexed(std::vector<Tensor> grads, std::vector<size_t> indices) override;
  void update_step(const Tensor&, const Variable&, size_t, const Tensor&) override {}

 private:
  void add_inner(const OptimizerPtr& optimizer, const char* where);

  std::optional<OptimizerMap> map_;
  OptimizerSelector selector_;
  std::vector<OptimizerPtr> inner_;
  std::vector<size_t> owner_;  // per trainable variable: its sub-optimizer in inner_
  size_t own_count_ = 0;
};

}  // namespace keras::optimizers

#pragma GCC visibility pop
