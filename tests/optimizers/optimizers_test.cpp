// keras::optimizers against tools/golden/optimizers.py (NumPy transcriptions of Keras's formulas,
// and torch.optim where its rule is Keras's) and against Keras itself (tests/oracle/fixtures), plus the machinery: variable order and names,
// configs, the registry, the stateless API, EMA swaps, constraints and error messages.

#include <gtest/gtest.h>

#include <cmath>

#include "assertions.h"
#include "golden.h"
#include "keras/keras.h"

namespace keras {
namespace {

namespace opt = keras::optimizers;
namespace sch = keras::optimizers::schedules;
using test::json;

Variable var(const std::vector<double>& values, const Shape& shape, const std::string& path,
             const std::string& name) {
  return Variable(test::make(values, shape), {.name = name, .path = path});
}
Variable var(const std::vector<double>& values, const Shape& shape, const std::string& path) {
  return var(values, shape, path, path);
}

std::vector<std::string> names(const std::vector<Variable>& vars) {
  std::vector<std::string> out;
  for (const auto& v : vars) out.push_back(v.name());
  return out;
}

template <typename Fn>
std::string error_of(Fn&& fn) {
  try {
    fn();
  } catch (const ValueError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("not a ValueError: ") + e.what();
  }
  return "no error";
}

// ---- golden replay ----------------------------------------------------------------------------

TensorList run_optimizer_case(const TensorList& in, const json& kw) {
  const size_t n = in.size() / 2;
  std::vector<Variable> vars, twins;
  for (size_t i = 0; i < n; ++i) {
    std::string name(1, 'v');
    name += std::to_string(i);
    std::string path = "model/";
    path += name;
    if (kw.contains("paths")) {  // Muon chooses its update by path
      path = kw["paths"][i].get<std::string>();
      name = path.substr(path.rfind('/') + 1);
    }
    vars.emplace_back(in[i], VariableOptions{.name = name, .path = path});
    twins.emplace_back(in[i], VariableOptions{.name = name, .path = path});
  }
  auto optimizer = opt::deserialize(kw["optimizer"]);
  // A twin optimizer runs the same steps through stateless_apply.
  auto twin = opt::deserialize(kw["optimizer"]);
  twin->build(twins);
  std::vector<Tensor> opt_values, train_values;
  for (const auto& v : twin->variables()) opt_values.push_back(v.value());
  for (const auto& v : twins) train_values.push_back(v.value());

  const int64_t steps = in[n].shape()[0];
  std::vector<TensorList> history(n);
  for (int64_t s = 0; s < steps; ++s) {
    TensorList grads;
    for (size_t i = 0; i < n; ++i) grads.push_back(in[n + i][s]);
    optimizer->apply(grads, vars);
    auto [new_train, new_opt] = twin->stateless_apply(opt_values, grads, train_values);
    for (size_t i = 0; i < n; ++i) {
      history[i].push_back(vars[i].value());
      EXPECT_TENSOR_EQ(new_train[i], vars[i].value()) << "stateless_apply, step " << s;
    }
    opt_values = new_opt;
    train_values = new_train;
  }
  for (size_t i = 0; i < n; ++i) EXPECT_TENSOR_EQ(twins[i].value(), in[i]);  // untouched
  auto state = optimizer->variables();
  EXPECT_EQ(state.size(), opt_values.size());
  if (kw.contains("slots")) {  // Keras's optimizer variables, in order
    std::vector<std::string> paths;
    for (const auto& v : state) paths.push_back(v.path());
    EXPECT_EQ(paths, kw["slots"].get<std::vector<std::string>>());
  }
  for (size_t i = 0; i < state.size() && i < opt_values.size(); ++i)
    EXPECT_TENSOR_EQ(opt_values[i], state[i].value()) << state[i].path();
  EXPECT_EQ(optimizer->iterations().value().item<int64_t>(), steps);

  TensorList out;
  for (auto& h : history) out.push_back(ops::stack(h));
  if (kw.value("finalize", false)) {
    optimizer->finalize_variable_values(vars);
    for (auto& v : vars) out.push_back(v.value());
  }
  return out;
}

test::GoldenOps optimizer_ops() {
  return {
      {"optimizer", run_optimizer_case},
      {"schedule",
       [](const TensorList& in, const json& kw) -> TensorList {
         auto schedule = sch::deserialize(kw["schedule"]);
         // Round trip the config while here.
         EXPECT_EQ(sch::serialize(schedule), kw["schedule"]);
         return {(*schedule)(in[0])};
       }},
  };
}

TEST(OptimizersGolden, Replay) {
  auto exercised = test::run_golden("optimizers", optimizer_ops());
  EXPECT_EQ(exercised.size(), 2u);
}

// The same cases computed by Keras 3.15 (tools/keras_oracle/optimizers.py), plus every
// optimizer under each of weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema and
// gradient_accumulation_steps, and more schedule steps.
TEST(OptimizersOracle, Replay) {
  auto exercised = test::run_oracle("optimizers", optimizer_ops());
  EXPECT_EQ(exercised.size(), 2u);
}

// Muon and ScheduleFreeAdamW computed by Keras 3.15 (tools/keras_oracle/optimizers_muon_sf.py):
// tall, wide, 1-D, embedding, excluded and 3-D variables under every argument and the shared
// options.
TEST(OptimizersOracle, MuonAndScheduleFreeAdamW) {
  auto exercised = test::run_oracle("optimizers_muon_sf", optimizer_ops());
  EXPECT_EQ(exercised, std::set<std::string>{"optimizer"});
}

// ---- variables ------------------------------------------------------------------------------

TEST(Optimizers, AdamVariablesInKerasOrder) {
  Variable k = var({1, 2, 3, 4}, {2, 2}, "dense/kernel", "kernel");
  Variable b = var({0, 0}, {2}, "dense/bias", "bias");
  opt::Adam adam({.amsgrad = true, .name = "adam"});
  adam.build({k, b});
  EXPECT_EQ(names(adam.variables()),
            (std::vector<std::string>{"iteration", "learning_rate", "dense_kernel_momentum",
                                      "dense_kernel_velocity", "dense_bias_momentum",
                                      "dense_bias_velocity", "dense_kernel_velocity_hat",
                                      "dense_bias_velocity_hat"}));
  EXPECT_EQ(adam.variables()[0].path(), "adam/iteration");
  EXPECT_EQ(adam.variables()[0].dtype(), DType::Int64);
  EXPECT_EQ(adam.variables()[1].dtype(), DType::Float32);
  EXPECT_EQ(adam.variables()[2].shape(), Shape({2, 2}));
  EXPECT_FALSE(adam.variables()[2].trainable());
  adam.build({k, b});  // idempotent
  EXPECT_EQ(adam.variables().size(), 8u);
}

TEST(Optimizers, BaseVariablesComeBeforeSlots) {
  Variable k = var({1, 2}, {2}, "w");
  opt::SGD sgd({.momentum = 0.5, .use_ema = true, .gradient_accumulation_steps = 2});
  sgd.build({k});
  EXPECT_EQ(names(sgd.variables()),
            (std::vector<std::string>{"iteration", "learning_rate", "w_average",
                                      "w_gradient_accumulator", "w_momentum"}));
  opt::SGD plain(opt::LearningRate(std::make_shared<sch::ExponentialDecay>(0.1, 10, 0.5)));
  plain.build({k});
  EXPECT_EQ(names(plain.variables()), (std::vector<std::string>{"iteration"}));
}

TEST(Optimizers, SlotNamesOfEachOptimizer) {
  Variable w = var({1, 2, 3, 4, 5, 6}, {2, 3}, "d/w", "w");
  Variable b = var({1, 2, 3}, {3}, "d/b", "b");
  auto slots = [&](const std::string& id) {
    auto o = opt::get(id);
    o->build({w, b});
    std::vector<std::string> all = names(o->variables());
    return std::vector<std::string>(all.begin() + 2, all.end());
  };
  using S = std::vector<std::string>;
  EXPECT_EQ(slots("sgd"), S{});
  EXPECT_EQ(slots("rmsprop"), (S{"d_w_velocity", "d_b_velocity"}));
  EXPECT_EQ(slots("adagrad"), (S{"d_w_accumulator", "d_b_accumulator"}));
  EXPECT_EQ(slots("adadelta"), (S{"d_w_accumulated_grad", "d_w_accumulated_delta_var",
                                  "d_b_accumulated_grad", "d_b_accumulated_delta_var"}));
  EXPECT_EQ(slots("adamax"), (S{"d_w_momentum", "d_w_norm", "d_b_momentum", "d_b_norm"}));
  EXPECT_EQ(slots("nadam"),
            (S{"d_w_momentum", "d_w_velocity", "d_b_momentum", "d_b_velocity", "variable"}));
  EXPECT_EQ(slots("ftrl"), (S{"d_w_accumulator", "d_w_linear", "d_b_accumulator", "d_b_linear"}));
  EXPECT_EQ(slots("lion"), (S{"d_w_momentum", "d_b_momentum"}));
  EXPECT_EQ(slots("lamb"), (S{"d_w_momentum", "d_w_velocity", "d_b_momentum", "d_b_velocity"}));
  EXPECT_EQ(slots("adafactor"), (S{"w", "w", "d_w_velocity", "b", "b", "d_b_velocity"}));
  auto adafactor = opt::get("adafactor");
  adafactor->build({w, b});
  EXPECT_EQ(adafactor->variables()[2].shape(), Shape({2}));
  EXPECT_EQ(adafactor->variables()[3].shape(), Shape({3}));
  EXPECT_EQ(adafactor->variables()[5].shape(), Shape({}));
  auto adagrad = opt::get("adagrad");
  adagrad->build({w, b});
  EXPECT_FLOAT_EQ(adagrad->variables()[2].numpy<float>()[0], 0.1f);
}

// ---- registry and configs -------------------------------------------------------------------

TEST(Optimizers, GetByKerasNames) {
  const std::vector<std::pair<std::string, std::string>> known = {
      {"sgd", "SGD"},         {"adam", "Adam"},         {"adamw", "AdamW"},
      {"adamax", "Adamax"},   {"nadam", "Nadam"},       {"rmsprop", "RMSprop"},
      {"adagrad", "Adagrad"}, {"adadelta", "Adadelta"}, {"adafactor", "Adafactor"},
      {"ftrl", "Ftrl"},       {"lamb", "Lamb"},         {"lion", "Lion"}};
  for (const auto& [id, cls] : known) {
    auto o = opt::get(id);
    EXPECT_EQ(o->class_name(), cls);
    EXPECT_EQ(opt::get(cls)->class_name(), cls);
    // Keras's auto_name: to_snake_case of the class name ("rm_sprop", "adam_w"), uniquified.
    const std::string snake = to_snake_case(cls);
    EXPECT_EQ(o->name().substr(0, snake.size()), snake);
  }
  EXPECT_EQ(to_snake_case("RMSprop"), "rm_sprop");
  EXPECT_EQ(to_snake_case("AdamW"), "adam_w");
  EXPECT_DOUBLE_EQ(opt::get("sgd")->learning_rate(), static_cast<float>(0.01));
  EXPECT_DOUBLE_EQ(opt::get("adam")->learning_rate(), static_cast<float>(0.001));
  EXPECT_EQ(opt::get("adamw")->get_config()["weight_decay"], 0.004);
  std::string message = error_of([] { opt::get("adamm"); });
  EXPECT_NE(message.find("adamm"), std::string::npos) << message;
  EXPECT_NE(message.find("rmsprop"), std::string::npos) << message;
  EXPECT_NE(message.find("adafactor"), std::string::npos) << message;
}

TEST(Optimizers, ConfigRoundTrips) {
  std::vector<opt::OptimizerPtr> all = {
      std::make_shared<opt::SGD>(opt::SGDOptions{
          .learning_rate = 0.1, .momentum = 0.9, .nesterov = true, .clipnorm = 1.0}),
      std::make_shared<opt::Adam>(opt::AdamOptions{.beta_1 = 0.8,
                                                   .amsgrad = true,
                                                   .weight_decay = 0.01,
                                                   .use_ema = true,
                                                   .ema_overwrite_frequency = 3}),
      std::make_shared<opt::AdamW>(opt::AdamWOptions{.weight_decay = 0.1, .global_clipnorm = 2.0}),
      std::make_shared<opt::Adamax>(opt::AdamaxOptions{.epsilon = 1e-5, .clipvalue = 0.5}),
      std::make_shared<opt::Nadam>(opt::NadamOptions{.loss_scale_factor = 64.0}),
      std::make_shared<opt::RMSprop>(
          opt::RMSpropOptions{.momentum = 0.5, .centered = true, .gradient_accumulation_steps = 4}),
      std::make_shared<opt::Adagrad>(opt::AdagradOptions{.initial_accumulator_value = 0.3}),
      std::make_shared<opt::Adadelta>(opt::AdadeltaOptions{.rho = 0.9}),
      std::make_shared<opt::Adafactor>(opt::AdafactorOptions{.relative_step = false}),
      std::make_shared<opt::Ftrl>(opt::FtrlOptions{.l1_regularization_strength = 0.1, .beta = 0.5}),
      std::make_shared<opt::Lamb>(opt::LambOptions{.beta_2 = 0.99}),
      std::make_shared<opt::Lion>(opt::LionOptions{.beta_1 = 0.5, .name = "my_lion"}),
      std::make_shared<opt::SGD>(
          opt::SGDOptions{.learning_rate = std::make_shared<sch::CosineDecay>(
                              0.1, 100, 0.1, "CosineDecay", 0.5, 10)}),
  };
  for (const auto& o : all) {
    Config record = opt::serialize(o);
    EXPECT_EQ(record["module"], "keras.optimizers");
    EXPECT_EQ(record["class_name"], o->class_name());
    auto again = opt::deserialize(record);
    EXPECT_EQ(again->class_name(), o->class_name());
    EXPECT_EQ(again->get_config(), o->get_config()) << record.dump();
    EXPECT_EQ(opt::get(record)->get_config(), o->get_config());
  }
  Config lion = all[11]->get_config();
  EXPECT_EQ(lion["name"], "my_lion");
  EXPECT_EQ(lion["beta_1"], 0.5);
  EXPECT_TRUE(lion["weight_decay"].is_null());
  for (const char* key : {"name", "learning_rate", "weight_decay", "clipnorm", "global_clipnorm",
                          "clipvalue", "use_ema", "ema_momentum", "ema_overwrite_frequency",
                          "loss_scale_factor", "gradient_accumulation_steps"})
    EXPECT_TRUE(lion.contains(key)) << key;
  Config sched = all.back()->get_config()["learning_rate"];
  EXPECT_EQ(sched["class_name"], "CosineDecay");
  EXPECT_EQ(sched["config"]["decay_steps"], 100);
  EXPECT_EQ(sched["config"]["warmup_steps"], 10);
  EXPECT_TRUE(sched["config"]["decay_steps"].is_number_integer());
}

TEST(Optimizers, ReadsAKerasConfig) {
  // compile_config of ../shared/models/fashion_mnist_cnn.keras (Keras 3).
  Config record = json::parse(R"({"module": "keras.optimizers", "class_name": "Adam",
      "config": {"name": "adam", "learning_rate": 0.0010000000474974513, "weight_decay": null,
                 "clipnorm": null, "global_clipnorm": null, "clipvalue": null, "use_ema": false,
                 "ema_momentum": 0.99, "ema_overwrite_frequency": null,
                 "loss_scale_factor": null, "gradient_accumulation_steps": null,
                 "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07, "amsgrad": false},
      "registered_name": null})");
  auto adam = opt::deserialize(record);
  EXPECT_EQ(adam->name(), "adam");
  EXPECT_EQ(opt::serialize(adam), record);  // exactly what Keras writes
  EXPECT_FLOAT_EQ(static_cast<float>(adam->learning_rate()), 0.001f);
  EXPECT_EQ(opt::deserialize(json::parse(R"({"class_name": "adam", "config": {}})"))->class_name(),
            "Adam");
  // Keras 2.11 (../shared/models/churn_functional_keras2.h5, training_config).
  auto keras2 = opt::deserialize(json::parse(R"({"class_name": "Custom>Adam", "config": {
      "name": "Adam", "weight_decay": null, "clipnorm": null, "global_clipnorm": null,
      "clipvalue": null, "use_ema": false, "ema_momentum": 0.99, "ema_overwrite_frequency": null,
      "jit_compile": false, "is_legacy_optimizer": false, "learning_rate": 0.00020000000949949026,
      "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07, "amsgrad": false}})"));
  EXPECT_EQ(keras2->class_name(), "Adam");
  EXPECT_EQ(keras2->name(), "Adam");
  EXPECT_FLOAT_EQ(static_cast<float>(keras2->learning_rate()), 0.0002f);
  // Keras 2.10 and older: `decay` (ignored, as Keras 3 does).
  EXPECT_EQ(opt::deserialize(json::parse(R"({"class_name": "RMSprop", "config": {"name": "RMSprop",
      "learning_rate": 0.001, "decay": 0.0, "rho": 0.9, "momentum": 0.0, "epsilon": 1e-07,
      "centered": false}})"))
                ->class_name(),
            "RMSprop");
  std::string message = error_of([] {
    opt::deserialize(json::parse(R"({"class_name": "SGD", "config": {"momentun": 0.9}})"));
  });
  EXPECT_NE(message.find("momentun"), std::string::npos) << message;
}

TEST(Optimizers, ScheduleRoundTripsAndErrors) {
  std::vector<sch::SchedulePtr> all = {
      std::make_shared<sch::ExponentialDecay>(0.1, 1000, 0.96, true),
      std::make_shared<sch::PiecewiseConstantDecay>(std::vector<double>{100, 200},
                                                    std::vector<double>{1.0, 0.5, 0.1}),
      std::make_shared<sch::PolynomialDecay>(0.1, 50, 0.001, 2.0, true),
      std::make_shared<sch::InverseTimeDecay>(0.1, 10, 0.5),
      std::make_shared<sch::CosineDecay>(0.1, 100),
      std::make_shared<sch::CosineDecayRestarts>(0.1, 20, 2.0, 0.9, 0.01)};
  for (const auto& s : all) {
    Config record = sch::serialize(s);
    EXPECT_EQ(record["module"], "keras.optimizers.schedules");
    EXPECT_EQ(sch::serialize(sch::deserialize(record)), record);
  }
  EXPECT_EQ(all[5]->get_config()["name"], "SGDRDecay");
  EXPECT_EQ(all[1]->get_config()["name"], "PiecewiseConstant");
  EXPECT_THROW(sch::ExponentialDecay(0.1, 0, 0.5), ValueError);
  EXPECT_THROW(sch::PiecewiseConstantDecay({1, 2}, {1.0, 2.0}), ValueError);
  EXPECT_THROW(sch::deserialize(json::parse(R"({"class_name": "Nope", "config": {}})")),
               ValueError);
}

// CosineDecayRestarts against its closed form in double, the cycle found by summing powers of
// t_mul: at every cycle's first step too, where the quotient of logarithms Keras floors is an
// integer that a backend's log can put a bit below (ATen's: log(2.25) / log(1.5) = 1.9999999;
// glibc's: log(20.796875) / log(2.75) = 2.9999998, step 181 of the last case).
TEST(Optimizers, CosineDecayRestartsStartsEachCycleOnEveryBackend) {
  struct Case {
    double initial, first, t_mul, m_mul, alpha;
  };
  for (const Case& c :
       {Case{0.2, 2, 1.5, 0.8, 0.05}, Case{0.1, 20, 2.0, 0.9, 0.01}, Case{0.3, 4, 1.25, 0.7, 0.0},
        Case{0.1, 3, 1.0, 0.5, 0.1}, Case{0.1, 16, 2.75, 0.9, 0.0}}) {
    sch::CosineDecayRestarts schedule(c.initial, c.first, c.t_mul, c.m_mul, c.alpha);
    for (int64_t step = 0; step <= 200; ++step) {
      const double fraction = static_cast<double>(step) / c.first;
      int i = 0;
      double start = 0, length = 1;
      while (start + length <= fraction) start += length, length *= c.t_mul, ++i;
      const double within = (fraction - start) / length;
      const double cosine = 0.5 * std::pow(c.m_mul, i) * (1 + std::cos(M_PI * within));
      const double want = c.initial * ((1 - c.alpha) * cosine + c.alpha);
      const double got = schedule(Tensor::from_vector<int64_t>({step}, Shape{}))
                             .astype(DType::Float64)
                             .item<double>();
      ASSERT_NEAR(got, want, 1e-5 * c.initial) << "t_mul " << c.t_mul << " step " << step;
    }
  }
}

// ---- learning rate --------------------------------------------------------------------------

TEST(Optimizers, LearningRateFollowsTheSchedule) {
  auto schedule = std::make_shared<sch::ExponentialDecay>(0.1, 1, 0.5);
  opt::SGD sgd(schedule);
  EXPECT_TRUE(sgd.has_schedule());
  Variable w = var({1.0}, {1}, "w");
  EXPECT_NEAR(sgd.learning_rate(), 0.1, 1e-7);
  sgd.apply({test::make({1.0}, {1})}, {w});
  EXPECT_NEAR(w.numpy<float>()[0], 0.9, 1e-6);
  EXPECT_NEAR(sgd.learning_rate(), 0.05, 1e-7);
  sgd.apply({test::make({1.0}, {1})}, {w});
  EXPECT_NEAR(w.numpy<float>()[0], 0.85, 1e-6);
  std::string message = error_of([&] { sgd.set_learning_rate(0.1); });
  EXPECT_NE(message.find("LearningRateSchedule"), std::string::npos) << message;

  opt::Adam adam(0.01);
  adam.set_learning_rate(0.5);
  EXPECT_NEAR(adam.learning_rate(), 0.5, 1e-7);
  EXPECT_EQ(adam.get_config()["learning_rate"], 0.5);
  EXPECT_THROW(adam.set_learning_rate(-1.0), ValueError);
}

// ---- stateless ------------------------------------------------------------------------------

TEST(Optimizers, StatelessApplyLeavesVariablesUntouched) {
  Variable w = var({1, 2, 3, 4}, {2, 2}, "w");
  Variable b = var({0.5, -0.5}, {2}, "b");
  opt::Adam adam({.learning_rate = 0.1, .use_ema = true});
  adam.build({w, b});
  std::vector<Tensor> before;
  for (const auto& v : adam.variables()) before.push_back(v.value());
  std::vector<Tensor> opt_values = before;
  opt_values[0] = Tensor(Scalar::typed_int(3, DType::Int64));  // pretend 3 steps were taken
  TensorList grads = {test::make({1, -1, 2, 0.5}, {2, 2}), test::make({0.1, 0.2}, {2})};
  auto [train, state] = adam.stateless_apply(opt_values, grads, {w.value(), b.value()});
  EXPECT_EQ(state[0].item<int64_t>(), 4);
  for (size_t i = 0; i < before.size(); ++i)
    EXPECT_TENSOR_EQ(adam.variables()[i].value(), before[i]);
  EXPECT_TENSOR_EQ(w.value(), test::make({1, 2, 3, 4}, {2, 2}));
  EXPECT_FALSE(test::tensors_near(train[0], w.value(), 0, 1e-3));

  // The same step through apply() from the same state.
  adam.set_weights(opt_values);
  adam.apply(grads);
  EXPECT_TENSOR_EQ(w.value(), train[0]);
  EXPECT_TENSOR_EQ(b.value(), train[1]);
  for (size_t i = 0; i < state.size(); ++i) EXPECT_TENSOR_EQ(adam.variables()[i].value(), state[i]);

  EXPECT_THROW(adam.stateless_apply({}, grads, {w.value(), b.value()}), ValueError);
  EXPECT_THROW(adam.stateless_apply(state, grads, {w.value()}), ValueError);
  opt::SGD unbuilt;
  EXPECT_THROW(unbuilt.stateless_apply({}, {}, {}), ValueError);
}

// ---- EMA, constraints, gradients ---------------------------------------------------------------

TEST(Optimizers, SwapEmaWeights) {
  Variable w = var({1.0, 2.0}, {2}, "w");
  opt::SGD sgd({.learning_rate = 1.0, .use_ema = true, .ema_momentum = 0.5});
  sgd.apply({test::make({1, 1}, {2})}, {w});  // w = (0, 1); first step: average = w
  sgd.apply({test::make({1, 1}, {2})}, {w});  // w = (-1, 0); average = (-0.5, 0.5)
  sgd.swap_ema_weights({w});
  EXPECT_TENSOR_NEAR(w.value(), test::make({-0.5, 0.5}, {2}), 1e-6, 1e-7);
  sgd.swap_ema_weights({w});
  EXPECT_TENSOR_NEAR(w.value(), test::make({-1, 0}, {2}), 1e-6, 1e-7);
  sgd.finalize_variable_values({w});
  EXPECT_TENSOR_NEAR(w.value(), test::make({-0.5, 0.5}, {2}), 1e-6, 1e-7);
  opt::SGD no_ema;
  no_ema.build({w});
  EXPECT_THROW(no_ema.swap_ema_weights({w}), ValueError);
  no_ema.finalize_variable_values({w});  // nothing to do
  EXPECT_TENSOR_NEAR(w.value(), test::make({-0.5, 0.5}, {2}), 1e-6, 1e-7);
}

TEST(Optimizers, ConstraintsApplyAfterTheUpdate) {
  Variable w = var({0.5, 2.0}, {2}, "w");
  w.set_constraint([](const Tensor& x) { return ops::maximum(x, 0.0); });
  opt::SGD sgd(1.0);
  sgd.apply({test::make({1, 1}, {2})}, {w});
  EXPECT_TENSOR_NEAR(w.value(), test::make({0, 1}, {2}), 0, 0);
}

TEST(Optimizers, MissingGradientsAreSkipped) {
  Variable a = var({1.0}, {1}, "a");
  Variable b = var({1.0}, {1}, "b");
  opt::SGD sgd(0.5);
  sgd.apply({Tensor(), test::make({1.0}, {1})}, {a, b});
  EXPECT_FLOAT_EQ(a.numpy<float>()[0], 1.0f);
  EXPECT_FLOAT_EQ(b.numpy<float>()[0], 0.5f);
  std::string message = error_of([&] { sgd.apply({Tensor(), Tensor()}, {a, b}); });
  EXPECT_NE(message.find("No gradients"), std::string::npos) << message;
}

TEST(Optimizers, ApplyGradientsPairsAndBuiltOrder) {
  Variable a = var({1.0, 2.0}, {2}, "a");
  Variable b = var({3.0}, {1}, "b");
  opt::SGD sgd(1.0);
  sgd.apply_gradients({{test::make({1, 1}, {2}), a}, {test::make({1}, {1}), b}});
  sgd.apply({test::make({1}, {1})}, {b});  // a subset, in any order
  sgd.apply({test::make({1, 1}, {2}), test::make({1}, {1})});
  EXPECT_TENSOR_NEAR(a.value(), test::make({-1, 0}, {2}), 0, 0);
  EXPECT_TENSOR_NEAR(b.value(), test::make({0}, {1}), 0, 0);
  EXPECT_EQ(sgd.iterations().value().item<int64_t>(), 3);
}

// ---- errors ---------------------------------------------------------------------------------

TEST(Optimizers, BadInput) {
  EXPECT_THROW(opt::Adam(-0.1), ValueError);
  EXPECT_THROW(opt::SGD({.learning_rate = std::nan("")}), ValueError);
  EXPECT_THROW(opt::SGD({.momentum = 1.5}), ValueError);
  EXPECT_THROW(opt::Adam({.clipnorm = 1.0, .clipvalue = 1.0}), ValueError);
  EXPECT_THROW(opt::Adam({.gradient_accumulation_steps = 1}), ValueError);
  EXPECT_THROW(opt::Adam({.use_ema = true, .ema_momentum = 1.5}), ValueError);
  EXPECT_THROW(opt::Lion({.beta_1 = 0.0}), ValueError);
  EXPECT_THROW(opt::Ftrl({.learning_rate_power = 0.5}), ValueError);
  EXPECT_THROW(opt::deserialize(json::parse(R"({"class_name": "AdamW",
                                                 "config": {"weight_decay": null}})")),
               ValueError);

  Variable a = var({1.0, 2.0}, {2}, "a");
  Variable b = var({3.0}, {1}, "b");
  opt::Adam adam;
  std::string message = error_of([&] { adam.apply({test::make({1, 1}, {2})}, {a, b}); });
  EXPECT_NE(message.find("1 gradients for 2 variables"), std::string::npos) << message;
  EXPECT_THROW(adam.apply({test::make({1, 1}, {2})}), ValueError);  // not built
  adam.build({a});
  message = error_of([&] { adam.apply({test::make({1}, {1})}, {b}); });
  EXPECT_NE(message.find("Unknown variable: 'b'"), std::string::npos) << message;
  message = error_of([&] { adam.apply({test::make({1, 1, 1}, {3})}, {a}); });
  EXPECT_NE(message.find("shape"), std::string::npos) << message;
  EXPECT_THROW(adam.apply({test::make({1, 1}, {2}), test::make({1}, {1})}), ValueError);
  EXPECT_THROW(adam.exclude_from_weight_decay({a}), ValueError);  // after build
  EXPECT_THROW(adam.set_weights({}), ValueError);
}

TEST(Optimizers, ExcludeFromWeightDecay) {
  Variable k = var({1.0}, {1}, "dense/kernel", "kernel");
  Variable b = var({1.0}, {1}, "dense/bias", "bias");
  opt::SGD sgd({.learning_rate = 0.5, .weight_decay = 0.1});
  sgd.exclude_from_weight_decay({}, {"bias"});
  sgd.apply({test::make({0}, {1}), test::make({0}, {1})}, {k, b});
  EXPECT_FLOAT_EQ(k.numpy<float>()[0], 0.95f);
  EXPECT_FLOAT_EQ(b.numpy<float>()[0], 1.0f);
}

TEST(Optimizers, CloneAndConversion) {
  opt::OptimizerPtr p = opt::SGD({.learning_rate = 0.1, .momentum = 0.9, .name = "s"});
  EXPECT_EQ(p->class_name(), "SGD");
  EXPECT_EQ(p->get_config()["momentum"], 0.9);
  EXPECT_EQ(p->name(), "s");
  Variable w = var({1.0}, {1}, "w");
  p->apply({test::make({1.0}, {1})}, {w});
  auto fresh = p->clone();
  EXPECT_FALSE(fresh->built());
  EXPECT_EQ(fresh->iterations().value().item<int64_t>(), 0);
  EXPECT_EQ(fresh->get_config(), p->get_config());
}

TEST(Optimizers, ScaleLoss) {
  opt::SGD sgd({.loss_scale_factor = 8.0});
  EXPECT_FLOAT_EQ(sgd.scale_loss(test::make({2.0}, {})).item<float>(), 16.0f);
  EXPECT_FLOAT_EQ(opt::SGD().scale_loss(test::make({2.0}, {})).item<float>(), 2.0f);
}

}  // namespace
}  // namespace keras

namespace keras {
namespace {

namespace opt = keras::optimizers;

// The example of Keras's Optimizer docstring: a custom optimizer through the protected API.
class MomentumSGD : public opt::Optimizer {
 public:
  explicit MomentumSGD(double lr) : Optimizer("MomentumSGD", lr, {}) {}
  std::string class_name() const override { return "MomentumSGD"; }

 protected:
  void build_slots(const std::vector<Variable>& vars) override {
    momentums_ = add_optimizer_variables(vars, {"momentum"})[0];
  }
  void update_step(const Tensor& grad, const Variable& var, size_t index,
                   const Tensor& lr) override {
    Variable& m = momentums_[index];
    m.assign(ops::subtract(ops::multiply(m.value(), 0.9), ops::multiply(grad, lr)));
    Variable v = var;
    v.assign_add(m.value());
  }

 private:
  std::vector<Variable> momentums_;
};

TEST(Optimizers, CustomSubclass) {
  Variable w(test::make({1.0, 2.0}, {2}), {.name = "w", .path = "w"});
  MomentumSGD custom(0.1);
  EXPECT_EQ(custom.name().substr(0, 12), "momentum_sgd");
  opt::SGD reference({.learning_rate = 0.1, .momentum = 0.9});
  Variable w2(test::make({1.0, 2.0}, {2}), {.name = "w", .path = "w"});
  for (int i = 0; i < 3; ++i) {
    custom.apply({test::make({0.5, -1.0}, {2})}, {w});
    reference.apply({test::make({0.5, -1.0}, {2})}, {w2});
  }
  EXPECT_TENSOR_NEAR(w.value(), w2.value(), 1e-6, 1e-7);
  EXPECT_EQ(custom.variables()[2].name(), "w_momentum");
  EXPECT_THROW(custom.clone(), NotImplementedError);
}

TEST(Optimizers, Float64VariablesKeepTheirDtype) {
  Variable w(test::make({1.0, 2.0}, {2}, DType::Float64), {.name = "w", .path = "w"});
  opt::Adam adam(0.1);
  adam.apply({test::make({0.5, -1.0}, {2}, DType::Float32)}, {w});
  EXPECT_EQ(w.dtype(), DType::Float64);
  EXPECT_EQ(adam.variables()[2].dtype(), DType::Float64);
  // First Adam step: var -= lr * sign(g) (up to epsilon).
  EXPECT_TENSOR_NEAR(w.value(), test::make({0.9, 2.1}, {2}, DType::Float64), 1e-6, 1e-6);
}

TEST(Optimizers, GlobalClipnormOfANonFiniteNormGivesNaN) {
  Variable w(test::make({1.0, 2.0}, {2}), {.name = "w", .path = "w"});
  opt::SGD sgd({.learning_rate = 0.1, .global_clipnorm = 1.0});
  sgd.apply({test::make({INFINITY, 1.0}, {2})}, {w});
  for (float x : w.numpy<float>()) EXPECT_TRUE(std::isnan(x));
}

TEST(Optimizers, UpdatesAreNotRecordedOnATape) {
  Variable w(test::make({1.0, 2.0}, {2}), {.name = "w", .path = "w"});
  opt::Adam adam(0.1);
  auto [loss, grads] = value_and_grad([&] { return ops::sum(ops::square(w.value())); }, {w});
  adam.apply(grads, {w});
  auto [loss2, grads2] = value_and_grad([&] { return ops::sum(ops::square(w.value())); }, {w});
  EXPECT_TENSOR_NEAR(grads2[0], ops::multiply(w.value(), 2.0), 1e-6, 1e-7);
  EXPECT_LT(loss2.item<float>(), loss.item<float>());
}

}  // namespace
}  // namespace keras
