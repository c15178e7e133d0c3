// A fairness regularizer as a third-party library would write it: a statistic (the
// demographic-parity gap, |mean prediction in group 1 - mean prediction in group 0|) written
// once with keras::ops only, added to the loss of an ordinary compile/fit. Because it uses
// keras::ops and nothing else, it runs on every backend keras-cpp has; the program trains on
// each computing backend and prints the results side by side.
//
// The data: a loan-style decision whose features leak the group (a proxy feature), so an
// unregularized classifier treats the groups differently. The regularizer trades a little
// accuracy for a much smaller gap.

#include <cmath>
#include <iostream>

#include <keras/keras.h>

namespace ops = keras::ops;
namespace layers = keras::layers;
using keras::Slice;
using keras::Tensor;

// ---- the "library": written once on keras::ops -------------------------------------------

/// |mean(y_pred | group = 1) - mean(y_pred | group = 0)|, differentiable in y_pred.
Tensor demographic_parity_gap(const Tensor& y_pred, const Tensor& group) {
  Tensor in_group = ops::cast(group, y_pred.dtype());
  Tensor out_group = 1.0 - in_group;
  Tensor mean_in = ops::sum(y_pred * in_group) / ops::maximum(ops::sum(in_group), 1.0);
  Tensor mean_out = ops::sum(y_pred * out_group) / ops::maximum(ops::sum(out_group), 1.0);
  return ops::abs(mean_in - mean_out);
}

/// Binary crossentropy plus `weight` times the parity gap of the batch. y_true holds the label
/// in column 0 and the group in column 1 (so it travels through fit with the labels).
keras::losses::LossArg fair_binary_crossentropy(double weight) {
  return [weight](const Tensor& y_true, const Tensor& y_pred) {
    Tensor label = y_true.index({Slice(), Slice(0, 1)});
    Tensor group = y_true.index({Slice(), Slice(1, 2)});
    Tensor per_sample = keras::losses::binary_crossentropy(label, y_pred);
    return per_sample + weight * demographic_parity_gap(y_pred, group);
  };
}

// ---- the experiment -------------------------------------------------------------------------

struct Result {
  double accuracy, gap;
};

Result train(const std::string& backend, double weight) {
  keras::backend::BackendScope scope(backend);
  keras::utils::set_random_seed(21);
  const int64_t n = 2000;
  Tensor group = ops::cast(ops::greater(keras::random::uniform({n, 1}), ops::full({n, 1}, 0.5)),
                           keras::DType::Float32);
  Tensor skill = keras::random::normal({n, 1});
  Tensor proxy = group + 0.3 * keras::random::normal({n, 1});  // leaks the group
  Tensor noise = keras::random::normal({n, 2});
  Tensor x = ops::concatenate({skill, proxy, noise}, 1);
  Tensor label = ops::cast(ops::greater(skill + 0.8 * group, ops::full({n, 1}, 0.4)),
                           keras::DType::Float32);
  Tensor y = ops::concatenate({label, group}, 1);

  auto model = keras::Sequential({keras::Input({4}), layers::Dense(16, {.activation = "relu"}),
                                  layers::Dense(1, {.activation = "sigmoid"})});
  model->compile({.optimizer = keras::optimizers::Adam({.learning_rate = 1e-2}),
                  .loss = fair_binary_crossentropy(weight)});
  model->fit(x, y, {.batch_size = 100, .epochs = 20, .verbose = 0});
  Tensor p = model->predict(x, {.verbose = 0}).single();
  Tensor decided = ops::cast(ops::greater(p, ops::full_like(p, 0.5)), keras::DType::Float32);
  double accuracy = ops::mean(ops::cast(ops::equal(decided, label), keras::DType::Float32))
                        .item<float>();
  double gap = demographic_parity_gap(decided, group).item<float>();
  return {accuracy, gap};
}

int main() {
  try {
    bool ok = true;
    for (const std::string& backend : keras::backend::available()) {
      if (backend == "stub" || backend == "symbolic") continue;  // no arithmetic
      Result plain = train(backend, 0.0), fair = train(backend, 3.0);
      std::cout << backend << ": without regularizer accuracy " << plain.accuracy << ", parity gap "
                << plain.gap << "; with it accuracy " << fair.accuracy << ", parity gap "
                << fair.gap << "\n";
      ok = ok && fair.gap < 0.5 * plain.gap && fair.accuracy > 0.6;
    }
    return ok ? 0 : 1;
  } catch (const keras::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
