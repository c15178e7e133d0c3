// Layer::stateless_call: the layer's variables temporarily hold the given tensors (swapped in
// and back, so gradients reach the caller's tensors and the layer's state never changes).

#include "keras/core/errors.h"
#include "keras/layers/layer.h"

namespace keras {

Layer::StatelessResult Layer::stateless_call(const TensorList& trainable_variables,
                                             const TensorList& non_trainable_variables,
                                             const TensorList& inputs, const CallContext& ctx) {
  check(built(), "stateless_call on layer '", name(),
        "': build the layer first (call it once, or call build()), so its variables exist.");
  std::vector<Variable> trainable = trainable_weights();
  std::vector<Variable> non_trainable = non_trainable_weights();
  check(trainable_variables.size() == trainable.size(), "stateless_call on layer '", name(),
        "': expected ", trainable.size(), " trainable variables (trainable_weights() order); got ",
        trainable_variables.size(), ".");
  check(non_trainable_variables.size() == non_trainable.size(), "stateless_call on layer '",
        name(), "': expected ", non_trainable.size(),
        " non-trainable variables (non_trainable_weights() order); got ",
        non_trainable_variables.size(), ".");
  std::vector<Variable> all = trainable;
  all.insert(all.end(), non_trainable.begin(), non_trainable.end());
  TensorList values = trainable_variables;
  values.insert(values.end(), non_trainable_variables.begin(), non_trainable_variables.end());

  TensorList saved;
  auto restore = [&] {
    for (size_t i = saved.size(); i-- > 0;) all[i].exchange_value(saved[i]);
  };
  StatelessResult result;
  try {
    for (size_t i = 0; i < all.size(); ++i) saved.push_back(all[i].exchange_value(values[i]));
    result.outputs = (*this)(inputs, ctx);
    for (const Variable& v : non_trainable) result.non_trainable_variables.push_back(v.value());
  } catch (...) {
    restore();
    throw;
  }
  restore();
  return result;
}

}  // namespace keras
