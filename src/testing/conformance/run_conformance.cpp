// The conformance runner: every case on the reference and on each backend, from the same
// inputs, and the difference between them.

#include <cmath>
#include <utility>

#include "keras/autograd/gradient_tape.h"
#include "keras/backend/registry.h"
#include "keras/core/errors.h"
#include "keras/datasets/datasets.h"
#include "keras/ops/ops.h"
#include "keras/random/random.h"
#include "keras/testing/conformance.h"
#include "testing/conformance/cases.h"
#include "testing/conformance/training_runs.h"

namespace keras::testing {
namespace {

using conformance::Case;
using conformance::difference;
using Outputs = std::vector<Tensor>;

// Inputs drawn on the reference backend, so every backend sees the same bits.
Outputs make_inputs(const Case& c, const std::string& reference, uint64_t seed) {
  backend::BackendScope scope(reference);
  Outputs inputs;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const auto& spec = c.inputs[i];
    const bool integral = !is_floating(spec.dtype);
    Tensor u = random::uniform(spec.shape, spec.lo, spec.hi,
                               integral || spec.dtype == DType::Float16 ? DType::Float64 : spec.dtype,
                               random::Seed(seed * 16 + i));
    inputs.push_back(ops::cast(integral ? ops::floor(u) : u, spec.dtype));
  }
  return inputs;
}

Outputs moved(const Outputs& xs, const std::string& backend) {
  Outputs out;
  for (const Tensor& x : xs) out.push_back(x.to(backend));
  return out;
}

// Gradients of sum(run(inputs)[0] * r) with respect to the floating inputs, r a fixed random
// tensor (drawn on the reference and moved, like the inputs).
Outputs gradients(const Case& c, const Outputs& inputs, const Tensor& r) {
  std::vector<size_t> float_inputs;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (is_floating(inputs[i].dtype())) float_inputs.push_back(i);
  Outputs wrt;
  for (size_t i : float_inputs) wrt.push_back(inputs[i]);
  auto fn = [&](const std::vector<Tensor>& xs) {
    Outputs all = inputs;
    for (size_t k = 0; k < float_inputs.size(); ++k) all[float_inputs[k]] = xs[k];
    return ops::sum(c.run(all)[0] * r);
  };
  return grad(fn, wrt);
}

struct Comparison {
  double worst = 0;
  std::string message;
};

Comparison compare(const Outputs& actual, const Outputs& reference) {
  Comparison result;
  if (actual.size() != reference.size()) return {NAN, "a different number of outputs"};
  for (size_t i = 0; i < actual.size(); ++i) {
    const double d = difference(actual[i], reference[i]);
    if (std::isnan(d)) {
      return {NAN, "output " + std::to_string(i) + " disagrees (shape, dtype, NaN positions, "
                   "an integer value or an infinity)"};
    }
    result.worst = std::max(result.worst, d);
  }
  return result;
}

ConformanceResult judge(const Case& c, const std::string& name, const std::string& backend,
                        const std::function<Comparison()>& run) {
  ConformanceResult r{c.family, name, backend, ConformanceStatus::Pass, 0, c.bound, ""};
  try {
    Comparison cmp = run();
    r.difference = cmp.worst;
    r.message = cmp.message;
    if (std::isnan(cmp.worst) || cmp.worst > c.bound) r.status = ConformanceStatus::Fail;
  } catch (const NotImplementedError& e) {
    r.status = ConformanceStatus::NotImplemented;
    r.message = e.what();
  } catch (const std::exception& e) {
    r.status = ConformanceStatus::Error;
    r.message = e.what();
  }
  return r;
}

void emit(ConformanceResult r, const ConformanceOptions& options,
          std::vector<ConformanceResult>& results) {
  if (options.on_result) options.on_result(r);
  results.push_back(std::move(r));
}

void run_cases(const std::vector<Case>& cases, const std::string& backend,
               const ConformanceOptions& options, std::vector<ConformanceResult>& results) {
  uint64_t seed = 1;
  for (const Case& c : cases) {
    ++seed;
    const Outputs ref_in = make_inputs(c, options.reference, seed);
    Outputs ref_out;
    {
      backend::BackendScope scope(options.reference);
      ref_out = c.run(ref_in);
    }
    emit(judge(c, c.name, backend, [&] {
      Outputs in = moved(ref_in, backend);
      backend::BackendScope scope(backend);
      return compare(c.run(in), ref_out);
    }), options, results);
    if (!c.differentiable) continue;
    Case g = c;
    g.family = "gradients";
    // Gradient rules magnify an ulp where they cancel (tanh's 1 - y^2 near saturation), so
    // float32 gradients get 1e-4; float64 cases keep their bound times 100.
    g.bound = c.bound < 1e-8 ? c.bound * 100 : std::max(c.bound, 1e-4);
    emit(judge(g, c.name, backend, [&] {
      Tensor r;
      Outputs ref_grads;
      {
        backend::BackendScope scope(options.reference);
        r = random::uniform(ref_out[0].shape(), -1, 1, ref_out[0].dtype(), random::Seed(seed));
        ref_grads = gradients(c, ref_in, r);
      }
      Outputs in = moved(ref_in, backend);
      Tensor r_b = r.to(backend);
      backend::BackendScope scope(backend);
      return compare(gradients(c, in, r_b), ref_grads);
    }), options, results);
  }
}

std::vector<Case> random_cases() {
  std::vector<Case> cases;
  auto draw = [](const std::string& name, std::function<Tensor()> f) {
    return Case{"random", name, {}, [f](const Outputs&) { return Outputs{f()}; }, 0};
  };
  cases.push_back(draw("uniform float32", [] { return random::uniform({1000}, 0, 1, DType::Float32, random::Seed(5)); }));
  cases.push_back(draw("normal float64", [] { return random::normal({1000}, 0, 1, DType::Float64, random::Seed(5)); }));
  cases.push_back(draw("truncated_normal", [] { return random::truncated_normal({1000}, 0, 1, DType::Float32, random::Seed(5)); }));
  cases.push_back(draw("randint", [] { return random::randint({1000}, 0, 100, DType::Int32, random::Seed(5)); }));
  cases.push_back(draw("dropout mask", [] {
    return random::dropout(ops::ones({40, 25}), 0.5, std::nullopt, random::Seed(5)); }));
  return cases;
}

void run_training(const std::string& backend, bool first, const ConformanceOptions& options,
                  std::vector<ConformanceResult>& results) {
  Tensor x, y;
  {
    backend::BackendScope scope(options.reference);
    auto [train, test] = datasets::fashion_mnist::load_data();
    const int64_t n = options.training_samples;
    x = ops::reshape(ops::cast(ops::slice(train.first, {0, 0, 0}, {n, 28, 28}), DType::Float32) / 255.0,
                     {n, 28, 28, 1});
    y = ops::cast(ops::slice(train.second, {0}, {n}), DType::Int32);
  }
  for (const std::string model : {"mlp", "cnn"}) {
    // Adam steps carry the rounding differences of gradients summed in different orders into
    // the weights; the losses agree far closer (the table shows both).
    Case c{"training", model, {}, {}, 1e-3};
    auto reference = conformance::train_one_epoch(model, options.reference, x, y);
    conformance::TrainingTrace trace;
    bool ran = false;
    emit(judge(c, model + " loss per step", backend, [&] {
      trace = conformance::train_one_epoch(model, backend, x.to(backend), y.to(backend));
      ran = true;
      return compare({trace.losses}, {reference.losses});
    }), options, results);
    if (!ran) continue;
    emit(judge(c, model + " final weights", backend,
               [&] { return compare(trace.weights, reference.weights); }),
         options, results);
    // The same epoch eagerly: compiled mode keeps the eager numbers, bit for bit but for the
    // fused conv-pool backward's order of summation (compiler/fuse_conv_pool.h). On the
    // reference backend too, the first time.
    Case modes{"training", model, {}, {}, 1e-5};
    auto same_modes = [&](const std::string& on, const conformance::TrainingTrace& compiled) {
      emit(judge(modes, model + " compiled vs eager, losses and weights", on, [&] {
        const auto eager = conformance::train_one_epoch(model, on, x.to(on), y.to(on), false);
        Outputs compiled_run{compiled.losses}, eager_run{eager.losses};
        for (const Tensor& w : compiled.weights) compiled_run.push_back(w);
        for (const Tensor& w : eager.weights) eager_run.push_back(w);
        return compare(compiled_run, eager_run);
      }), options, results);
    };
    if (first) same_modes(options.reference, reference);
    same_modes(backend, trace);
  }
}

}  // namespace

std::vector<ConformanceResult> run_conformance(const ConformanceOptions& options) {
  std::vector<std::string> backends = options.backends;
  if (backends.empty()) {
    for (const std::string& name : backend::available())
      if (name != options.reference && !backend::get(name).is_symbolic()) backends.push_back(name);
  }
  std::vector<Case> cases = conformance::op_cases();
  for (Case& c : conformance::nn_cases()) cases.push_back(std::move(c));
  for (Case& c : conformance::layer_cases()) cases.push_back(std::move(c));
  for (Case& c : random_cases()) cases.push_back(std::move(c));
  std::vector<ConformanceResult> results;
  for (const std::string& backend : backends) {
    backend::get(backend);  // an unknown name is a ValueError listing the available ones
    run_cases(cases, backend, options, results);
    if (options.training) run_training(backend, &backend == &backends.front(), options, results);
  }
  return results;
}

}  // namespace keras::testing
