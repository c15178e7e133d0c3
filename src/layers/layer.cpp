#include "keras/layers/layer.h"

#include <cxxabi.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <regex>
#include <typeinfo>
#include <unordered_map>
#include <unordered_set>

#include "keras/autograd/gradient_tape.h"
#include "keras/backend/registry.h"
#include "keras/backend/trace_hook.h"
#include "keras/core/config.h"
#include "keras/core/name_scope.h"
#include "keras/ops/ops.h"
#include "layers/call_state.h"
#include "layers/symbolic_extent.h"

namespace keras {
namespace {

// Guards the default call()/call_list() pair against a layer that overrides neither.
thread_local const Layer* defaulting_call = nullptr;

struct Defaulting {
  explicit Defaulting(const Layer* layer) : previous(defaulting_call) { defaulting_call = layer; }
  ~Defaulting() { defaulting_call = previous; }
  const Layer* previous;
};

// The open name scopes (keras::NameScope) in front of a new weight's path, "" outside them.
std::string weight_path_prefix() {
  std::string scopes = current_name_scope_path();
  return scopes.empty() ? scopes : scopes + "/";
}

[[noreturn]] void no_call(const Layer& layer) {
  throw NotImplementedError("Layer '" + layer.name() + "' (" + layer.class_name() +
                            ") overrides neither call() nor call_list().");
}

std::string demangle(const char* mangled) {
  int status = 0;
  char* out = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string name = status == 0 && out ? out : mangled;
  std::free(out);
  size_t colon = name.rfind("::");
  return colon == std::string::npos ? name : name.substr(colon + 2);
}

struct NameCounters {
  std::mutex mutex;
  std::unordered_map<std::string, int> next;
};

NameCounters& counters() {
  static NameCounters* c = new NameCounters();
  return *c;
}

// Builds are serialized, so that threads making the first calls of an unbuilt model at once
// create its weights once (recursive: building a model builds its layers). A built layer's
// calls never take it.
std::recursive_mutex& build_mutex() {
  static auto* m = new std::recursive_mutex();
  return *m;
}

// Guards every layer's call_losses_, which each call clears and may add to: several threads
// may call one layer at once (inference).
std::mutex& call_losses_mutex() {
  static auto* m = new std::mutex();
  return *m;
}

// The dimensions used for unknown ones in the two shape-inference runs (Keras uses the same
// pair: a dimension that differs between the runs is unknown in the result).
constexpr int64_t kProbeA = 83, kProbeB = 89;

thread_local int64_t current_probe = kProbeA;

Shape concretize(const Shape& shape, int64_t probe) {
  Shape out = shape;
  for (int64_t& d : out)
    if (d < 0) d = probe;
  return out;
}

}  // namespace

namespace layers::detail {
int64_t data_dependent_extent() { return current_probe; }
DataDependentExtentScope::DataDependentExtentScope(int64_t probe) : previous_(current_probe) {
  current_probe = probe;
}
DataDependentExtentScope::~DataDependentExtentScope() { current_probe = previous_; }
}  // namespace layers::detail

// ---- names -----------------------------------------------------------------------------------

std::string to_snake_case(const std::string& name) {
  // keras/src/utils/naming.py, regex for regex: drop non-word characters, then "_" before a
  // capitalized word that follows any character, then "_" between a lowercase letter and a
  // capital, then lowercase ("Conv2D" -> "conv2d", "BatchNormalization" ->
  // "batch_normalization", "UpSampling2D" -> "up_sampling2d", "ReLU" -> "re_lu").
  static const std::regex non_word("\\W+"), word("(.)([A-Z][a-z]+)"), boundary("([a-z])([A-Z])");
  std::string s = std::regex_replace(name, non_word, "");
  s = std::regex_replace(s, word, "$1_$2");
  s = std::regex_replace(s, boundary, "$1_$2");
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string unique_name(const std::string& prefix) {
  NameCounters& c = counters();
  std::lock_guard<std::mutex> lock(c.mutex);
  int n = c.next[prefix]++;
  return n == 0 ? prefix : prefix + "_" + std::to_string(n);
}

namespace backend {
void clear_session() {
  {
    NameCounters& c = counters();
    std::lock_guard<std::mutex> lock(c.mutex);
    c.next.clear();
  }
  config::detail::reset_dtype_policy();  // Keras's clear_session resets the global state
}
}  // namespace backend

// ---- construction ----------------------------------------------------------------------------

Layer::Layer(LayerOptions options, std::string default_name)
    : name_(options.name.empty() && !default_name.empty() ? unique_name(default_name)
                                                          : options.name),
      trainable_(options.trainable),
      policy_(options.dtype.empty() ? DTypePolicy::default_policy()
                                    : DTypePolicy::from_name(options.dtype)) {}

Layer::~Layer() = default;

std::string Layer::class_name() const { return demangle(typeid(*this).name()); }

const std::string& Layer::name() const {
  if (name_.empty()) name_ = unique_name(to_snake_case(class_name()));
  return name_;
}

// ---- defaults a subclass overrides -----------------------------------------------------------

void Layer::build(const Shape&) {}

void Layer::build_list(const std::vector<Shape>& input_shapes) {
  if (input_shapes.size() == 1) build(input_shapes[0]);
}

Tensor Layer::call(const Tensor& inputs, const CallContext& ctx) {
  if (defaulting_call == this) no_call(*this);
  Defaulting guard(this);
  TensorList out = call_list({inputs}, ctx);
  check(out.size() == 1, "Layer '", name(), "' returned ", out.size(),
        " outputs from call_list(); call it with a list to receive them.");
  return out[0];
}

TensorList Layer::call_list(const TensorList& inputs, const CallContext& ctx) {
  if (defaulting_call == this) no_call(*this);
  check(inputs.size() == 1, "Layer '", name(), "' (", class_name(), ") takes one input; got ",
        inputs.size(), ".");
  Defaulting guard(this);
  return {call(inputs[0], ctx)};
}

Tensor Layer::compute_mask(const Tensor&, const Tensor& mask) const {
  return supports_masking_ ? mask : Tensor();
}

TensorList Layer::compute_mask_list(const TensorList& inputs, const TensorList& masks) const {
  TensorList out;
  for (size_t i = 0; i < inputs.size(); ++i)
    out.push_back(compute_mask(inputs[i], i < masks.size() ? masks[i] : Tensor()));
  return out;
}

Config Layer::get_config() const {
  Config c;
  c["name"] = name();
  c["trainable"] = trainable_;
  c["dtype"] = policy_.serialize();
  if (activity_regularizer_) c["activity_regularizer"] = regularizers::serialize(activity_regularizer_);
  return c;
}

// ---- building --------------------------------------------------------------------------------

void Layer::ensure_built(const std::vector<Shape>& input_shapes, bool list_input) {
  // built_ is read by every call, on any thread, and set once, under the lock, after build().
  if (std::atomic_ref<bool>(built_).load(std::memory_order_acquire)) return;
  std::lock_guard<std::recursive_mutex> lock(build_mutex());
  if (std::atomic_ref<bool>(built_).load(std::memory_order_relaxed)) return;
  // A layer named after its class takes its name here, under the lock, rather than in a call
  // that other threads make too; in a compiler warning the layer being built is named.
  backend::LayerTraceScope traced(name());
  build_shapes_ = input_shapes;
  if (list_input) build_list(input_shapes);
  else build(input_shapes.at(0));
  std::atomic_ref<bool>(built_).store(true, std::memory_order_release);
}

// ---- calling ---------------------------------------------------------------------------------

Tensor Layer::operator()(const Tensor& inputs, const CallContext& ctx) {
  TensorList out = call_eager({inputs}, false, ctx);
  check(out.size() == 1, "Layer '", name(), "' has ", out.size(),
        " outputs; call layer->call_all(x) to receive them all.");
  return out[0];
}

TensorList Layer::operator()(const TensorList& inputs, const CallContext& ctx) {
  return call_eager(inputs, true, ctx);
}

TensorList Layer::call_all(const Tensor& inputs, const CallContext& ctx) {
  return call_eager({inputs}, false, ctx);
}

std::vector<KerasTensor> Layer::call_all(const KerasTensor& inputs, const CallContext& ctx) {
  return call_symbolic({inputs}, false, ctx);
}

TensorList Layer::call_one(const Tensor& x, const CallContext& ctx) {
  return returns_list_for_one_input() ? call_list({x}, ctx) : TensorList{call(x, ctx)};
}

KerasTensor Layer::operator()(const KerasTensor& inputs, const CallContext& ctx) {
  auto out = call_symbolic({inputs}, false, ctx);
  check(out.size() == 1, "Layer '", name(), "' has ", out.size(),
        " outputs; call layer->call_all(x) to receive them all.");
  return out[0];
}

std::vector<KerasTensor> Layer::operator()(const std::vector<KerasTensor>& inputs,
                                           const CallContext& ctx) {
  return call_symbolic(inputs, true, ctx);
}

TensorList Layer::call_eager(const TensorList& inputs, bool list_call, const CallContext& ctx) {
  // Built (and named) before anything else: from then on a call only reads the layer, and
  // several threads may call it at once.
  std::vector<Shape> shapes;
  for (const Tensor& x : inputs)
    if (x.defined()) shapes.push_back(x.shape());
  if (!inputs.empty() && shapes.size() == inputs.size()) ensure_built(shapes, list_call);
  check(!inputs.empty(), "Layer '", name(), "' was called with no inputs.");
  for (size_t i = 0; i < inputs.size(); ++i)
    check(inputs[i].defined(), "Layer '", name(), "': input ", i, " is an undefined tensor.");
  backend::LayerTraceScope traced(name());  // names this layer in a compiler warning
  // An exporter tracing a call() sees each layer call whole (layers/call_state.h).
  struct Watched {
    Layer& layer;
    detail::LayerCallObserver* observer = detail::layer_call_observer();
    bool left = false;
    ~Watched() {
      if (observer && !left) observer->abandon(layer);
    }
  } watched{*this};
  if (watched.observer) watched.observer->enter(*this);

  CallContext resolved = ctx;
  resolved.training = ctx.training ? *ctx.training : detail::current_training().value_or(false);
  // Masks a previous layer attached to the inputs reach layers that support masking.
  auto attached = [](const Tensor& t) {
    return t.impl()->keras_mask ? Tensor(t.impl()->keras_mask) : Tensor();
  };
  if (supports_masking_) {
    if (!list_call && !resolved.mask.defined()) resolved.mask = attached(inputs[0]);
    if (list_call && resolved.masks.empty()) {
      bool any = false;
      for (const Tensor& t : inputs) {
        resolved.masks.push_back(attached(t));
        any = any || resolved.masks.back().defined();
      }
      if (!any) resolved.masks.clear();
    }
  }
  {
    std::lock_guard<std::mutex> lock(call_losses_mutex());
    call_losses_.clear();
  }
  TensorList outputs;
  {
    detail::TrainingScope scope(*resolved.training);
    outputs = call_autocast(inputs, list_call, resolved);
  }
  // Attach the output masks; an output that is one of the inputs (a pass-through) gets its own
  // handle first, so the input's mask never changes.
  TensorList masks = list_call ? compute_mask_list(inputs, resolved.masks)
                               : TensorList{compute_mask(inputs[0], resolved.mask)};
  for (size_t i = 0; i < outputs.size() && i < masks.size(); ++i) {
    if (!masks[i].defined() && !outputs[i].impl()->keras_mask) continue;
    for (const Tensor& in : inputs)
      if (outputs[i].is_same(in)) outputs[i] = detail::alias(in);
    outputs[i].impl()->keras_mask = masks[i].defined() ? Ref<detail::TensorImpl>(masks[i].impl())
                                                       : Ref<detail::TensorImpl>();
  }
  if (activity_regularizer_)
    for (const Tensor& y : outputs) add_loss((*activity_regularizer_)(y));
  if (watched.observer) {
    watched.left = true;
    watched.observer->leave(*this, inputs, list_call, outputs);
  }
  return outputs;
}

std::vector<KerasTensor> Layer::call_symbolic(const std::vector<KerasTensor>& inputs,
                                              bool list_call, const CallContext& ctx) {
  check(!inputs.empty(), "Layer '", name(), "' was called with no inputs.");
  std::shared_ptr<Layer> self;
  try {
    self = shared_from_this();
  } catch (const std::bad_weak_ptr&) {
    throw ValueError("Layer '" + name() +
                     "' is not owned by a LayerPtr; create layers with their factory "
                     "(keras::layers::Dense(...)) or keras::make_layer<T>(...) to use them in "
                     "the Functional API.");
  }
  std::vector<Shape> shapes;
  for (size_t i = 0; i < inputs.size(); ++i) {
    check(inputs[i].defined(), "Layer '", name(), "': input ", i, " is an undefined KerasTensor.");
    shapes.push_back(inputs[i].shape());
  }
  ensure_built(shapes, list_call);

  // Output specs: run the layer's own call on data-free tensors, once with unknown dimensions
  // set to 83 and once to 89; a dimension that differs is unknown in the result.
  auto run = [&](int64_t probe) {
    backend::BackendScope symbolic("symbolic");
    layers::detail::DataDependentExtentScope extent(probe);
    NoGradScope no_grad;
    TensorList xs;
    for (size_t i = 0; i < inputs.size(); ++i)
      xs.push_back(ops::zeros(concretize(shapes[i], probe), inputs[i].dtype()));
    CallContext c = ctx;
    c.training = ctx.training.value_or(false);
    detail::TrainingScope scope(*c.training);
    return call_autocast(xs, list_call, c);
  };
  TensorList a = run(kProbeA), b = run(kProbeB);
  auto node = std::make_shared<Node>();
  node->layer = self;
  node->inputs = inputs;
  node->list_call = list_call;
  node->training = ctx.training;
  node->index = static_cast<int>(inbound_nodes_.size());
  for (size_t i = 0; i < a.size(); ++i) {
    Shape s = a[i].shape();
    if (s.rank() == b[i].shape().rank())
      for (int d = 0; d < s.rank(); ++d)
        if (s[d] != b[i].shape()[d]) s[d] = kUnknownDim;
    node->output_shapes.push_back(s);
    node->output_dtypes.push_back(a[i].dtype());
  }
  inbound_nodes_.push_back(node);
  std::vector<KerasTensor> outputs;
  for (size_t i = 0; i < node->output_shapes.size(); ++i)
    outputs.push_back(KerasTensor::make(node->output_shapes[i], node->output_dtypes[i], node,
                                        static_cast<int>(i)));
  return outputs;
}

TensorList Layer::call_autocast(const TensorList& inputs, bool list_call, const CallContext& ctx) {
  // Keras's __call__: floating inputs to the compute dtype (convert_input), then an
  // AutocastScope so that weights read in the compute dtype.
  TensorList xs = inputs;
  if (convert_input_args_ && autocast_)
    for (Tensor& x : xs) x = autocast(x);
  std::optional<std::optional<DType>> scope;
  const DType compute = compute_dtype();
  if (std::optional<DType> current = AutocastScope::current()) {
    if (!autocast_ || !is_floating(compute)) scope.emplace(std::nullopt);
    else if (*current != compute) scope.emplace(compute);
  } else if (compute != variable_dtype()) {
    scope.emplace(compute);
  }
  auto run = [&] { return list_call ? call_list(xs, ctx) : call_one(xs[0], ctx); };
  if (!scope) return run();
  AutocastScope autocasting(*scope);
  return run();
}

// ---- weights ---------------------------------------------------------------------------------

Variable Layer::add_weight(WeightOptions options) {
  for (int64_t d : options.shape)
    check(d >= 0, "Layer '", name(), "': add_weight('", options.name, "') got shape ",
          shape_string(options.shape), "; weights need known dimensions.");
  DType dtype = options.dtype.value_or(policy_.variable_dtype);
  // Keras names an unnamed weight auto_name("Variable"): "variable", "variable_1", ... per
  // session, and its path carries that name.
  std::string var_name = options.name.empty() ? unique_name("variable") : options.name;
  Tensor init;
  {
    NoGradScope no_grad;
    // Weights are real even when a layer builds during shape inference.
    backend::BackendScope real(backend::current_real().name());
    init = (*options.initializer)(options.shape, dtype);
  }
  Variable v(init, {.trainable = options.trainable && trainable_,
                    .name = var_name,
                    .path = weight_path_prefix() + name() + "/" + var_name,
                    .dtype = dtype,
                    .autocast = options.autocast,
                    .overwrite_with_gradient = options.overwrite_with_gradient});
  (options.trainable ? trainable_vars_ : non_trainable_vars_).push_back(v);
  if (options.regularizer) regularized_.emplace_back(v, options.regularizer.get());
  if (options.constraint) {
    constraints::ConstraintPtr c = options.constraint.get();
    v.set_constraint([c](const Tensor& w) { return (*c)(w); });
  }
  return v;
}

std::vector<Variable> Layer::own_weights() const {
  std::vector<Variable> out = trainable_vars_;
  out.insert(out.end(), non_trainable_vars_.begin(), non_trainable_vars_.end());
  return out;
}

void Layer::remove_weight(const Variable& weight) {
  auto drop = [&](auto& list, auto same) {
    list.erase(std::remove_if(list.begin(), list.end(), same), list.end());
  };
  drop(trainable_vars_, [&](const Variable& v) { return v.is_same(weight); });
  drop(non_trainable_vars_, [&](const Variable& v) { return v.is_same(weight); });
  drop(regularized_, [&](const auto& entry) { return entry.first.is_same(weight); });
}

// ---- quantization ----------------------------------------------------------------------------

void Layer::quantize(const std::string& mode, quantizers::QuantizationConfigPtr config) {
  // Keras's quantize_wrapper: validate_and_resolve_config, then _check_quantize_args.
  if (!config)
    config = std::make_shared<quantizers::QuantizationConfig>(
        quantizers::QuantizationConfig::default_for(mode));
  check(mode.empty() || mode == config->mode, "Contradictory arguments: mode='", mode,
        "' and a quantization config of mode '", config->mode, "'.");
  check(built_, "Cannot quantize a layer that isn't yet built. Layer '", name(), "' (of type '",
        class_name(), "') is not built yet.");
  check(quantization_mode().empty(), "Layer '", name(),
        "' is already quantized with dtype_policy='", policy_.name, "'. Received: mode=",
        config->mode);
  check(!(config->mode == "int8" && compute_dtype() == DType::Float16),
        "Quantization mode='int8' doesn't work well with compute_dtype='float16'. Consider "
        "loading model/layer with another dtype policy such as 'mixed_bfloat16' or "
        "'mixed_float16' before calling `quantize()`.");
  quantize_weights(config->mode, config);
}

void Layer::quantize_weights(const std::string&, const quantizers::QuantizationConfigPtr&) {
  throw NotImplementedError("Layer " + class_name() +
                            " does not have a `quantize()` method implemented.");
}

std::vector<Variable> Layer::weights() const {
  std::vector<Variable> out;
  std::unordered_set<const void*> seen_layers{this};
  std::function<void(const Layer&)> collect = [&](const Layer& layer) {
    for (const Variable& v : layer.own_weights()) {
      bool dup = false;
      for (const Variable& w : out) dup = dup || w.is_same(v);
      if (!dup) out.push_back(v);
    }
    for (const auto& [attr, sub] : layer.sublayers_)
      if (seen_layers.insert(sub.get()).second) collect(*sub);
  };
  collect(*this);
  return out;
}

std::vector<Variable> Layer::trainable_weights() const {
  std::vector<Variable> out;
  if (!trainable_) return out;
  for (const Variable& v : weights())
    if (v.trainable()) out.push_back(v);
  return out;
}

std::vector<Variable> Layer::non_trainable_weights() const {
  if (!trainable_) return weights();
  std::vector<Variable> out;
  for (const Variable& v : weights())
    if (!v.trainable()) out.push_back(v);
  return out;
}

std::vector<Tensor> Layer::get_weights() const {
  std::vector<Tensor> out;
  for (const Variable& v : weights()) out.push_back(v.value());
  return out;
}

void Layer::set_weights(const std::vector<Tensor>& values) {
  std::vector<Variable> vars = weights();
  check(values.size() == vars.size(), "Layer '", name(), "' has ", vars.size(),
        " weights but set_weights() got ", values.size(), ".");
  for (size_t i = 0; i < vars.size(); ++i) {
    check(values[i].shape() == vars[i].shape(), "Layer '", name(), "': weight ", i, " ('",
          vars[i].path(), "') has shape ", vars[i].shape(), " but the value has shape ",
          values[i].shape(), ".");
    vars[i].assign(values[i]);
  }
}

Tensor Layer::autocast(const Tensor& x) const {
  return is_floating(x.dtype()) && x.dtype() != compute_dtype() ? ops::cast(x, compute_dtype())
                                                                 : x;
}

int64_t Layer::count_params() const {
  check(built_, "You tried to call `count_params` on layer '", name(),
        "', but the layer isn't built. You can build it manually via: "
        "`layer->build(input_shape)`, or call it on data first.");
  int64_t n = 0;
  for (const Variable& v : weights()) n += v.shape().numel();
  return n;
}

void Layer::set_trainable(bool trainable) {
  trainable_ = trainable;
  for (Variable& v : trainable_vars_) v.set_trainable(trainable);
  for (auto& [attr, sub] : sublayers_) sub->set_trainable(trainable);
}

// ---- sublayers and losses --------------------------------------------------------------------

void Layer::track_layer(const std::string& attribute, std::shared_ptr<Layer> layer) {
  check(static_cast<bool>(layer), "Layer '", name(), "': track('", attribute,
        "') got no layer.");
  for (auto& [attr, sub] : sublayers_)
    if (attr == attribute) {
      sub = std::move(layer);
      return;
    }
  sublayers_.emplace_back(attribute, std::move(layer));
}

void Layer::add_loss(const Tensor& loss) {
  std::lock_guard<std::mutex> lock(call_losses_mutex());
  call_losses_.push_back(loss);
}

TensorList Layer::losses() const {
  TensorList out;
  {
    std::lock_guard<std::mutex> lock(call_losses_mutex());
    out = call_losses_;
  }
  for (const auto& [var, regularizer] : regularized_) out.push_back((*regularizer)(var));
  for (const auto& [attr, sub] : sublayers_) {
    TensorList inner = sub->losses();
    out.insert(out.end(), inner.begin(), inner.end());
  }
  return out;
}

void Layer::set_activity_regularizer(regularizers::RegularizerArg regularizer) {
  activity_regularizer_ = regularizer.get();
}

// ---- the Functional graph --------------------------------------------------------------------

std::vector<std::shared_ptr<Node>> Layer::inbound_nodes() const {
  std::vector<std::shared_ptr<Node>> out;
  for (const auto& w : inbound_nodes_)
    if (auto n = w.lock()) out.push_back(n);
  return out;
}

KerasTensor Layer::output() const {
  auto nodes = inbound_nodes();
  check(nodes.size() == 1, "Layer '", name(), "' has ", nodes.size(),
        " symbolic calls; output() needs exactly one.");
  const Node& n = *nodes[0];
  check(n.output_shapes.size() == 1, "Layer '", name(), "' has ", n.output_shapes.size(),
        " outputs; output() needs exactly one.");
  return KerasTensor::make(n.output_shapes[0], n.output_dtypes[0], nodes[0], 0);
}

KerasTensor Layer::input() const {
  auto nodes = inbound_nodes();
  check(nodes.size() == 1 && nodes[0]->inputs.size() == 1, "Layer '", name(),
        "' must have exactly one symbolic call with one input for input().");
  return nodes[0]->inputs[0];
}

}  // namespace keras
