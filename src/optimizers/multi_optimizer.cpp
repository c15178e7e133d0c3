// keras.optimizers.MultiOptimizer and OptimizerMap (keras/src/optimizers/multi_optimizer.py).

#include "keras/optimizers/multi_optimizer.h"

#include <regex>

#include "keras/autograd/gradient_tape.h"
#include "keras/layers/layer.h"
#include "keras/ops/ops.h"
#include "keras/optimizers/loss_scale_optimizer.h"

namespace keras::optimizers {
namespace {

// What Keras's __setitem__ and MultiOptimizer.build refuse as a sub-optimizer.
void check_sub_optimizer(const OptimizerPtr& optimizer, const std::string& what) {
  check(optimizer != nullptr, what, ": the optimizer is null; pass a Keras optimizer instance.");
  check(!dynamic_cast<const LossScaleOptimizer*>(optimizer.get()), what,
        ": optimizer cannot be LossScaleOptimizer ('", optimizer->name(),
        "'); pass its inner optimizer, and loss_scale_factor to the MultiOptimizer.");
  check(!dynamic_cast<const MultiOptimizer*>(optimizer.get()), what,
        ": optimizer cannot be MultiOptimizer ('", optimizer->name(),
        "'); put its sub-optimizers in this map instead.");
}

// Keras's re.fullmatch(pattern, key), with std::regex's ECMAScript grammar (see the header for
// where it differs from Python's re).
bool full_match(const std::string& pattern, const std::string& key) {
  try {
    return std::regex_match(key, std::regex(pattern, std::regex::ECMAScript));
  } catch (const std::regex_error& e) {
    throw ValueError(detail::cat(
        "OptimizerMap: the key '", pattern, "' is not a valid regular expression (", e.what(),
        "), so it cannot match the variable path '", key,
        "'. Keys are ECMAScript regexes (std::regex); Python-only syntax such as (?P<name>...), "
        "(?i) or lookbehind has no equivalent: rewrite the key."));
  }
}

}  // namespace

// ---- OptimizerMap --------------------------------------------------------------------------

OptimizerMap::OptimizerMap(OptimizerPtr default_optimizer,
                           const std::map<std::string, OptimizerPtr>& optimizer_map)
    : default_(std::move(default_optimizer)) {
  check<TypeError>(default_ != nullptr,
                   "OptimizerMap: default_optimizer must be a Keras Optimizer instance; got null.");
  check_sub_optimizer(default_, "OptimizerMap default_optimizer");
  for (const auto& [key, optimizer] : optimizer_map) set(key, optimizer);
}

const OptimizerPtr& OptimizerMap::get(const std::string& key) const {
  if (auto it = map_.find(key); it != map_.end()) return it->second;
  const OptimizerPtr* found = nullptr;
  std::string matches;
  int count = 0;
  for (const auto& [pattern, optimizer] : map_) {
    if (!full_match(pattern, key)) continue;
    found = &optimizer;
    matches += (count++ ? "', '" : "") + pattern;
  }
  check(count <= 1, "Multiple optimizers assigned to variable ", key, ": the keys '", matches,
        "' all match it. Make the patterns exclusive, or add the exact path as a key.");
  return found ? *found : default_;
}

void OptimizerMap::set(const std::string& key, OptimizerPtr optimizer) {
  if (auto it = map_.find(key); it != map_.end())
    throw ValueError(detail::cat("'", key, "' already exists in the OptimizerMap with value ",
                                 it->second->name(),
                                 ". Please make sure to not use duplicated keys."));
  check_sub_optimizer(optimizer, "OptimizerMap['" + key + "']");
  map_.emplace(key, std::move(optimizer));
}

void OptimizerMap::erase(const std::string& key) {
  check(map_.erase(key) == 1, "OptimizerMap: no key '", key, "' to remove.");
}

Config OptimizerMap::get_config() const {
  Config entries = Config::object();
  for (const auto& [key, optimizer] : map_) entries[key] = serialize(*optimizer);
  return {{"default_optimizer", serialize(*default_)}, {"optimizer_map", entries}};
}

OptimizerMap OptimizerMap::from_config(const Config& config) {
  check(config.is_object() && config.contains("default_optimizer"),
        "OptimizerMap.from_config: the config needs `default_optimizer`; got ", config.dump(), ".");
  for (auto it = config.begin(); it != config.end(); ++it)
    check(it.key() == "default_optimizer" || it.key() == "optimizer_map",
          "OptimizerMap.from_config: unknown argument `", it.key(), "`.");
  std::map<std::string, OptimizerPtr> entries;
  if (config.contains("optimizer_map") && !config["optimizer_map"].is_null()) {
    const Config& m = config["optimizer_map"];
    check<TypeError>(m.is_object(), "optimizer_map must be a dictionary. Received: ", m.dump());
    for (auto it = m.begin(); it != m.end(); ++it) entries.emplace(it.key(), optimizers::get(it.value()));
  }
  return OptimizerMap(optimizers::get(config["default_optimizer"]), entries);
}

// ---- MultiOptimizer ------------------------------------------------------------------------

MultiOptimizer::MultiOptimizer(OptimizerMap optimizer_map, MultiOptimizerOptions options)
    : Optimizer(
          "MultiOptimizer", 0.0,
          OptimizerOptions{.loss_scale_factor = options.loss_scale_factor, .name = options.name}),
      map_(std::move(optimizer_map)) {
  // Keras: the map's values (each once), then the default.
  for (const auto& [key, optimizer] : map_->items()) add_inner(optimizer, "the optimizer map");
  add_inner(map_->default_optimizer(), "the default optimizer");
}

MultiOptimizer::MultiOptimizer(OptimizerSelector selector, MultiOptimizerOptions options)
    : Optimizer(
          "MultiOptimizer", 0.0,
          OptimizerOptions{.loss_scale_factor = options.loss_scale_factor, .name = options.name}),
      selector_(std::move(selector)) {
  check<TypeError>(static_cast<bool>(selector_),
                   "MultiOptimizer: the optimizer selector is empty; pass an OptimizerMap or a "
                   "function of a Variable that returns an optimizer.");
}

void MultiOptimizer::add_inner(const OptimizerPtr& optimizer, const char* where) {
  for (const OptimizerPtr& o : inner_)
    if (o == optimizer) return;
  // Keras sets each sub-optimizer's loss_scale_factor to the MultiOptimizer's. Optimizer
  // options are fixed here, so a sub-optimizer must have none (the MultiOptimizer then
  // unscales its gradients) or the same one.
  const auto& own = options().loss_scale_factor;
  const auto& theirs = optimizer->options().loss_scale_factor;
  check(!theirs || theirs == own, "MultiOptimizer '", name(), "': the optimizer '",
        optimizer->name(), "' from ", where, " has loss_scale_factor=", theirs.value_or(0),
        " but the MultiOptimizer has ", own ? std::to_string(*own) : std::string("None"),
        "; Keras overrides the sub-optimizers' factor with the MultiOptimizer's. Set "
        "loss_scale_factor on the MultiOptimizer only.");
  inner_.push_back(optimizer);
}

OptimizerPtr MultiOptimizer::clone() const {
  if (!map_)
    throw NotImplementedError(detail::cat(
        "MultiOptimizer '", name(),
        "' was made with a selector function, whose optimizers cannot be cloned; create it with "
        "std::make_shared<MultiOptimizer>(...) instead of converting it to an OptimizerPtr."));
  // One clone per distinct sub-optimizer, so that keys sharing an optimizer still share it.
  std::vector<std::pair<OptimizerPtr, OptimizerPtr>> clones;
  auto clone_of = [&](const OptimizerPtr& o) {
    for (const auto& [from, to] : clones)
      if (from == o) return to;
    clones.emplace_back(o, o->clone());
    return clones.back().second;
  };
  std::map<std::string, OptimizerPtr> entries;
  for (const auto& [key, optimizer] : map_->items()) entries.emplace(key, clone_of(optimizer));
  OptimizerMap copy(clone_of(map_->default_optimizer()), entries);
  return std::make_shared<MultiOptimizer>(
      std::move(copy),
      MultiOptimizerOptions{.loss_scale_factor = options().loss_scale_factor, .name = name()});
}

void MultiOptimizer::build_slots(const std::vector<Variable>& vars) {
  own_count_ = variables().size();
  owner_.clear();
  for (const Variable& var : vars) {
    OptimizerPtr opt = map_ ? (*map_)(var) : selector_(var);
    check(opt != nullptr, "MultiOptimizer '", name(), "': the optimizer for variable '", var.path(),
          "' is not an Optimizer instance (the selector returned null).");
    check(!dynamic_cast<const LossScaleOptimizer*>(opt.get()),
          "LossScaleOptimizer cannot be used inside an MultiOptimizer (variable '", var.path(),
          "'). Set loss_scale_factor on the MultiOptimizer.");
    check(!dynamic_cast<const MultiOptimizer*>(opt.get()),
          "MultiOptimizer cannot be used inside an MultiOptimizer (variable '", var.path(), "').");
    add_inner(opt, "the selector");
    size_t index = 0;
    while (inner_[index] != opt) ++index;
    owner_.push_back(index);
  }
  for (size_t k = 0; k < inner_.size(); ++k) {
    std::vector<Variable> mine;
    for (size_t i = 0; i < vars.size(); ++i)
      if (owner_[i] == k) mine.push_back(vars[i]);
    if (!mine.empty()) inner_[k]->build(mine);
  }
  // Keras's `variables`: its own, then every sub-optimizer's (built or not) in order.
  for (const OptimizerPtr& o : inner_)
    for (const Variable& v : o->variables()) track_variable(v);
}

void MultiOptimizer::apply_indexed(std::vector<Tensor> grads, std::vector<size_t> indices) {
  NoGradScope no_grad;
  check(grads.size() == trainable_variables().size(),
        "Gradients must match trainable variables one-to-one. Received ", grads.size(),
        " gradients and ", trainable_variables().size(), " variables.");
  const auto& factor = options().loss_scale_factor;
  std::vector<std::vector<Tensor>> sub_grads(inner_.size());
  std::vector<std::vector<Variable>> sub_vars(inner_.size());
  for (size_t i = 0; i < grads.size(); ++i) {
    const size_t k = owner_[indices[i]];
    Tensor g = grads[i];
    // Keras's sub-optimizer divides by the factor it was given; one without its own factor
    // gets the gradients divided here instead.
    if (g.defined() && factor && !inner_[k]->options().loss_scale_factor)
      g = ops::divide(g, *factor);
    sub_grads[k].push_back(g);
    sub_vars[k].push_back(trainable_variables()[indices[i]]);
  }
  for (size_t k = 0; k < inner_.size(); ++k)
    if (!sub_grads[k].empty()) inner_[k]->apply(sub_grads[k], sub_vars[k]);
  Variable counter = iterations();
  counter.assign(ops::add(counter.value(), Tensor(Scalar::typed_int(1, DType::Int64))));
}

const OptimizerPtr& MultiOptimizer::optimizer_for(const Variable& variable) const {
  check(built(), "MultiOptimizer '", name(), "' is not built yet; it routes variables when built.");
  for (size_t i = 0; i < trainable_variables().size(); ++i)
    if (trainable_variables()[i].is_same(variable)) return inner_[owner_[i]];
  throw ValueError(detail::cat("MultiOptimizer '", name(), "': variable '", variable.path(),
                               "' is not one it was built with."));
}

void MultiOptimizer::finalize_variable_values(const std::vector<Variable>& vars) {
  if (!built()) return;
  std::vector<std::vector<Variable>> per(inner_.size());
  for (const Variable& v : vars) {
    const OptimizerPtr& o = optimizer_for(v);
    for (size_t k = 0; k < inner_.size(); ++k)
      if (inner_[k] == o) per[k].push_back(v);
  }
  for (size_t k = 0; k < inner_.size(); ++k)
    if (!per[k].empty()) inner_[k]->finalize_variable_values(per[k]);
}

Tensor MultiOptimizer::learning_rate_tensor() const {
  throw ValueError(
      "Learning rate cannot be accessed on a MultiOptimizer ('" + name() +
      "'). Access the learning rate on the individual sub-optimizers (optimizers()) instead.");
}

void MultiOptimizer::set_learning_rate(double) {
  throw ValueError(
      "Learning rate cannot be set on a MultiOptimizer ('" + name() +
      "'). Set the learning rate on the individual sub-optimizers (optimizers()) instead.");
}

std::vector<std::pair<std::string, OptimizerPtr>> MultiOptimizer::saved_children() const {
  std::map<std::string, int> used;
  std::vector<std::pair<std::string, OptimizerPtr>> out;
  for (const OptimizerPtr& o : inner_) {
    std::string n = to_snake_case(o->class_name());
    auto [it, fresh] = used.emplace(n, 0);
    if (!fresh) n += "_" + std::to_string(++it->second);
    out.emplace_back("optimizers/" + n, o);
  }
  return out;
}

Config MultiOptimizer::get_config() const {
  check(map_.has_value(), "MultiOptimizer '", name(),
        "' was made with a selector function, which cannot be serialized. Use an OptimizerMap "
        "to save the model with its optimizer (or save it with include_optimizer=false).");
  const auto& factor = options().loss_scale_factor;
  Config lsf = factor ? Config(*factor) : Config(nullptr);
  Config map = {{"module", "keras.optimizers"},
                {"class_name", "OptimizerMap"},
                {"config", map_->get_config()},
                {"registered_name", nullptr}};
  // Keras has set every sub-optimizer's loss_scale_factor to this one's before serializing.
  map["config"]["default_optimizer"]["config"]["loss_scale_factor"] = lsf;
  for (auto& [key, record] : map["config"]["optimizer_map"].items())
    record["config"]["loss_scale_factor"] = lsf;
  return {{"optimizer_map", map}, {"loss_scale_factor", lsf}, {"name", name()}};
}

OptimizerPtr MultiOptimizer::from_config(const Config& config) {
  check(config.is_object() && config.contains("optimizer_map"),
        "MultiOptimizer.from_config: the config needs `optimizer_map`; got ", config.dump(), ".");
  MultiOptimizerOptions o;
  for (auto it = config.begin(); it != config.end(); ++it) {
    const std::string& key = it.key();
    const Config& v = it.value();
    if (key == "optimizer_map") continue;
    if (key == "name" && v.is_string())
      o.name = v.get<std::string>();
    else if (key == "name" && v.is_null())
      continue;
    else if (key == "loss_scale_factor" && v.is_number())
      o.loss_scale_factor = v.get<double>();
    else if (key == "loss_scale_factor" && v.is_null())
      continue;
    else
      throw ValueError("MultiOptimizer.from_config: argument `" + key + "`=" + v.dump() +
                       " is not recognized; it takes optimizer_map, loss_scale_factor and name.");
  }
  const Config& record = config["optimizer_map"];
  check(record.is_object() && record.value("class_name", "") == "OptimizerMap",
        "MultiOptimizer.from_config: `optimizer_map` must be a serialized OptimizerMap "
        "({\"class_name\": \"OptimizerMap\", \"config\": {...}}); got ",
        record.dump().substr(0, 200),
        ". A selector function saved by Keras cannot be read: use an OptimizerMap.");
  // Keras overrides the sub-optimizers' factor with the MultiOptimizer's: theirs are dropped,
  // and the MultiOptimizer unscales their gradients (the same numbers).
  Config map_config = record.value("config", Config::object());
  auto drop_factor = [](Config& optimizer) {
    if (optimizer.is_object() && optimizer.contains("config") && optimizer["config"].is_object())
      optimizer["config"]["loss_scale_factor"] = nullptr;
  };
  if (map_config.is_object() && map_config.contains("default_optimizer"))
    drop_factor(map_config["default_optimizer"]);
  if (map_config.is_object() && map_config.contains("optimizer_map") &&
      map_config["optimizer_map"].is_object())
    for (auto& [key, optimizer] : map_config["optimizer_map"].items()) drop_factor(optimizer);
  OptimizerMap map = OptimizerMap::from_config(map_config);
  return std::make_shared<MultiOptimizer>(std::move(map), o);
}

}  // namespace keras::optimizers
