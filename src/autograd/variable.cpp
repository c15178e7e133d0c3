#include "keras/autograd/variable.h"

#include "autograd/variable_storage.h"
#include "keras/autograd/gradient_tape.h"
#include "keras/autograd/node.h"
#include "keras/backend/trace_hook.h"
#include "keras/ops/core.h"
#include "keras/ops/ops.h"
#include "ops/complex/complex_parts.h"
#include "ops/detail/op_utils.h"

namespace keras {

struct Variable::State {
  Tensor value;
  Ref<autograd::Node> leaf;  // the variable's identity in every graph, across assignments
  bool trainable = true;
  bool autocast = true;
  bool overwrite_with_gradient = false;
  std::string name;
  std::string path;
  std::function<Tensor(const Tensor&)> constraint;

  // Gradients reach floating and complex variables (JAX's convention for complex ones).
  static bool differentiable(DType t) { return is_floating(t) || is_complex(t); }

  // Links a freshly made value to this variable.
  void adopt(Tensor fresh) {
    if (trainable && differentiable(fresh.dtype())) fresh.impl()->grad_fn = leaf;
    value = std::move(fresh);
  }
};

namespace {

// Tells a trace running on this thread that `v` is part of the step's state.
void note_traced(const Variable& v, const Tensor& value) {
  if (auto* o = backend::detail::front_end_observer()) o->on_variable(v, value.array());
}

// A private, contiguous copy: the variable must own its storage to update it in place.
Tensor owned_copy(const Tensor& t, DType dtype) {
  return ops::detail::run_copy(t, dtype);
}

}  // namespace

Variable::Variable(const Tensor& initial_value, VariableOptions options)
    : state_(std::make_shared<State>()) {
  check(initial_value.defined(), "Variable: the initial value is an undefined tensor.");
  state_->trainable = options.trainable;
  state_->autocast = options.autocast;
  state_->overwrite_with_gradient = options.overwrite_with_gradient;
  state_->name = options.name.empty() ? "variable" : options.name;
  state_->path = options.path.empty() ? state_->name : options.path;
  state_->leaf = make_ref<autograd::LeafNode>();
  NoGradScope no_grad;
  Tensor init = initial_value.is_weak()
                    ? ops::convert_to_tensor(initial_value.impl()->weak_value, options.dtype)
                    : initial_value;
  state_->adopt(owned_copy(init, options.dtype.value_or(init.dtype())));
  if (backend::detail::active_traces.load(std::memory_order_relaxed))
    if (auto* o = backend::detail::thread_observer()) o->on_variable_created();
}

Variable::State& Variable::checked_state() const {
  check<RuntimeError>(defined(), "Variable: this handle refers to no variable.");
  return *state_;
}

const Tensor& Variable::stored_value() const {
  const State& s = checked_state();
  note_traced(*this, s.value);
  return s.value;
}

namespace {
thread_local std::optional<DType> autocast_dtype;  // the innermost AutocastScope's
}  // namespace

AutocastScope::AutocastScope(std::optional<DType> dtype) : previous_(autocast_dtype) {
  check(!dtype || is_floating(*dtype), "AutocastScope can only be used with a floating-point "
        "target dtype, such as 'float16'. Received: dtype=",
        dtype ? dtype_name(*dtype) : "None", ".");
  autocast_dtype = dtype;
}
AutocastScope::~AutocastScope() { autocast_dtype = previous_; }
std::optional<DType> AutocastScope::current() { return autocast_dtype; }

Tensor Variable::value() const {
  const Tensor& v = stored_value();
  // Keras casts every floating variable that autocasts, float64 included.
  if (autocast_dtype && state_->autocast && is_floating(v.dtype()) && v.dtype() != *autocast_dtype)
    return ops::cast(v, *autocast_dtype);
  return v;
}

bool Variable::autocast() const { return checked_state().autocast; }
bool Variable::overwrite_with_gradient() const { return checked_state().overwrite_with_gradient; }
void Variable::set_overwrite_with_gradient(bool overwrite) {
  checked_state().overwrite_with_gradient = overwrite;
}

namespace {
thread_local bool reshape_allowed = false;  // variable_storage.h
}  // namespace

namespace autograd::detail {
VariableReshapeScope::VariableReshapeScope() : previous_(reshape_allowed) { reshape_allowed = true; }
VariableReshapeScope::~VariableReshapeScope() { reshape_allowed = previous_; }
}  // namespace autograd::detail

Tensor Variable::exchange_value(Tensor value) {
  State& s = checked_state();
  check(value.defined(), "Variable '", s.path, "': exchange_value() got an undefined tensor.");
  check(reshape_allowed || value.shape() == s.value.shape(), "Variable '", s.path,
        "' has shape ", s.value.shape(), " but the value swapped in has shape ", value.shape(), ".");
  if (reshape_allowed) {  // a sharded variable's new storage: gradients reach the variable
    Tensor previous = s.value;
    s.adopt(std::move(value));
    return previous;
  }
  std::swap(s.value, value);
  return value;
}

void Variable::assign(const Tensor& value) {
  const Tensor& current = stored_value();
  check(value.defined(), "Variable '", state_->path, "': assign() got an undefined tensor.");
  NoGradScope no_grad;
  auto& b = current.backend();
  Tensor v = value.is_weak() ? ops::detail::scalar_tensor(value.impl()->weak_value,
                                                            current.dtype(), b)
                             : value;
  if (!value.is_weak() && &v.backend() != &b)
    throw ValueError(keras::detail::cat("Variable '", state_->path, "' lives on backend '", b.name(),
                                 "' but the assigned value is on '", v.backend().name(),
                                 "'. Move it with .to(\"", b.name(), "\") first."));
  if (v.shape() != current.shape()) {
    // A scalar or broadcastable value is allowed, as in Keras's assign of a compatible value.
    check(v.size() == 1, "Variable '", state_->path, "' has shape ", current.shape(),
          " but the assigned value has shape ", v.shape(), ".");
    v = ops::detail::make_view(v, current.shape(), Strides(current.shape().size(), 0),
                               v.offset());
  }
  // In place when nobody else can see the old value; otherwise a fresh copy (copy on write).
  const auto* impl = current.impl();
  if (impl->use_count() == 1 && impl->array.storage->use_count() == 1) {
    if (is_complex(current.dtype())) {
      // Backends copy real arrays: a complex value goes over as its (real, imaginary) pairs.
      if (v.dtype() != current.dtype()) v = ops::cast(v, current.dtype());
      b.copy(ops::complex_detail::real_array(current.array()),
             ops::complex_detail::real_array(v.array()), backend::CopyMode::Assign);
      return;
    }
    b.copy(current.array(), v.array(), backend::CopyMode::Assign);
    return;
  }
  state_->adopt(owned_copy(v, current.dtype()));
}

void Variable::assign_add(const Tensor& delta) { assign(ops::add(stored_value(), delta)); }
void Variable::assign_sub(const Tensor& delta) { assign(ops::subtract(stored_value(), delta)); }

bool Variable::trainable() const { return checked_state().trainable; }

void Variable::set_trainable(bool trainable) {
  State& s = checked_state();
  s.trainable = trainable;
  s.value.impl()->grad_fn =
      trainable && State::differentiable(s.value.dtype()) ? s.leaf : Ref<autograd::Node>();
}

const std::string& Variable::name() const { return checked_state().name; }
const std::string& Variable::path() const { return checked_state().path; }
void Variable::set_path(const std::string& path) { checked_state().path = path; }

const std::function<Tensor(const Tensor&)>& Variable::constraint() const {
  return checked_state().constraint;
}

void Variable::set_constraint(std::function<Tensor(const Tensor&)> constraint) {
  checked_state().constraint = std::move(constraint);
}

}  // namespace keras
