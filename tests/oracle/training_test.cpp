// Training runs against real Keras 3.15 (tools/keras_oracle/training.py): each case loads the
// UNTRAINED compiled model Keras saved (weights, optimizer and schedule from the .keras file),
// fits it for 2 epochs with shuffle off and Keras's batch size, and compares with what Keras
// recorded after its own fit: every on_train_batch_end's logs (running means), the History,
// the final weights, the optimizer's variables and learning rate, evaluate() and predict(), and
// the loaded optimizer's config.
//
// Tolerance: 1e-4 relative, 1e-6 absolute (the fixture's rtol/atol): six float32 steps in a
// different summation order drift by a few ulps per step, far below that. A case whose kwargs
// hold "keras_cpp_differs" is printed and skipped (see training.py's KERAS_CPP_DIFFERS).
//
// The same comparison runs the mixed-precision cases (tools/keras_oracle/mixed_precision.py:
// an MLP and a CNN under mixed_float16, with Keras's automatic LossScaleOptimizer, and under
// mixed_bfloat16) with the 16-bit tolerances their fixture names; a LossScaleOptimizer's
// dynamic_scale and step_counter must match exactly (which steps were skipped, when the scale
// grew).

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "keras/callbacks/history.h"
#include "keras/callbacks/lambda_callback.h"
#include "keras/keras.h"
#include "keras/saving/save_model.h"
#include "keras/utils/npy.h"

namespace keras {
namespace {

using json = nlohmann::json;

const std::string kDir = std::string(KERAS_ORACLE_DIR) + "/training/";
const std::string kMixedDir = std::string(KERAS_ORACLE_DIR) + "/mixed_precision/";

std::string text_of(const Tensor& bytes) {
  auto v = bytes.to_vector<uint8_t>();
  return std::string(v.begin(), v.end());
}

// Whether every element meets |a - e| <= atol + rtol |e|, and for the summary table the largest
// |a - e| / |e| over elements with |e| >= 1e-3 (smaller ones are judged by atol) and the largest
// |a - e|.
struct Diff {
  double rel = 0, abs = 0;
  bool ok = true;
  void add(double a, double e, double rtol, double atol) {
    double d = std::abs(a - e);
    if (!(d <= atol + rtol * std::abs(e))) ok = false;  // NaN fails too
    if (!std::isfinite(d)) d = 1e30;
    abs = std::max(abs, d);
    if (std::abs(e) >= 1e-3) rel = std::max(rel, d / std::abs(e));
  }
  void merge(const Diff& o) {
    rel = std::max(rel, o.rel);
    abs = std::max(abs, o.abs);
    ok = ok && o.ok;
  }
};

std::vector<double> values(const Tensor& t) { return t.astype(DType::Float64).to_vector<double>(); }

// Compares actual with expected element by element; `what` names them in failures.
Diff compare(const std::vector<double>& a, const std::vector<double>& e, double rtol, double atol,
             const std::string& what) {
  Diff d;
  EXPECT_EQ(a.size(), e.size()) << what;
  size_t first_bad = SIZE_MAX;
  for (size_t i = 0; i < std::min(a.size(), e.size()); ++i) {
    bool was = d.ok;
    d.add(a[i], e[i], rtol, atol);
    if (was && !d.ok) first_bad = i;
  }
  EXPECT_TRUE(d.ok) << what << ": first mismatch at element " << first_bad << ": keras-cpp "
                    << a[first_bad] << ", Keras " << e[first_bad] << " (max rel " << d.rel << ")";
  return d;
}

// Every key Keras's optimizer config has must be in keras-cpp's with the same value (numbers to
// 1e-6 relative: Keras stores float32 learning rates widened to double).
void compare_config(const json& keras, const json& cpp, const std::string& path) {
  if (keras.is_object()) {
    if (!cpp.is_object()) {
      ADD_FAILURE() << "optimizer config " << path << ": Keras " << keras << ", keras-cpp " << cpp;
      return;
    }
    for (const auto& [k, v] : keras.items()) {
      if (!cpp.contains(k)) {
        ADD_FAILURE() << "optimizer config: keras-cpp lacks " << path << "/" << k << " (Keras: "
                      << v << ")";
        continue;
      }
      compare_config(v, cpp.at(k), path + "/" + k);
    }
  } else if (keras.is_number() && cpp.is_number()) {
    double e = keras.get<double>(), a = cpp.get<double>();
    EXPECT_LE(std::abs(a - e), 1e-6 * std::abs(e)) << "optimizer config " << path;
  } else {
    EXPECT_EQ(cpp, keras) << "optimizer config " << path;
  }
}

struct Row {
  std::string name;
  Diff logs, weights, optimizer;
};

// Runs one case; returns the largest differences of the batch logs, weights and optimizer state.
Row run_case(const std::string& dir, const std::string& name, const std::string& kind,
             const json& kw, const std::vector<Tensor>& in, const std::vector<Tensor>& out) {
  SCOPED_TRACE("case " + name);
  const double rtol = kw.at("rtol").get<double>(), atol = kw.at("atol").get<double>();
  backend::clear_session();
  // A mixed-precision case loads under its policy, as Keras's Sequential takes the global one.
  if (kw.contains("policy")) config::set_dtype_policy(kw["policy"].get<std::string>());
  auto model = saving::load_model(dir + kw.at("model").get<std::string>());
  compare_config(kw.at("optimizer_config"), model->optimizer()->get_config(), "");

  TensorStruct x = in[0], y;
  if (kind == "two_outputs")
    y = std::map<std::string, Tensor>{{"score", in[1]}, {"klass", in[2]}};
  else
    y = in[1];

  std::vector<Logs> batch_logs;
  auto recorder = std::make_shared<callbacks::LambdaCallback>(callbacks::LambdaCallbackOptions{
      .on_train_batch_end = [&](int64_t, const Logs& logs) { batch_logs.push_back(logs); }});
  const int64_t batch = kw.at("batch_size").get<int64_t>();
  auto history = model->fit(x, y, {.batch_size = batch, .epochs = kw.at("epochs").get<int>(),
                                   .verbose = 0, .callbacks = {recorder}, .shuffle = false});
  // The files compile with jit_compile "auto": after the building step and two traces, the
  // steps are compiled replays, and they must match Keras as the eager ones do. Two cases
  // decide on the host each step (gradient accumulation, EMA overwrite) and run eagerly.
  const bool host_decided = name == "mlp_gradient_accumulation" || name == "mlp_use_ema_overwrite";
  EXPECT_EQ(model->train_function().replay_count() > 0, !host_decided)
      << model->train_function().fallback_reason();

  // Batch logs: steps x keys, row by row, so a failure names the first step that differs.
  auto batch_keys = kw.at("batch_keys").get<std::vector<std::string>>();
  auto expected_steps = values(out[0]);
  size_t steps = batch_keys.empty() ? 0 : expected_steps.size() / batch_keys.size();
  EXPECT_EQ(batch_logs.size(), steps);
  Diff loss_diff;
  for (size_t s = 0; s < std::min(steps, batch_logs.size()); ++s) {
    std::vector<double> a, e;
    for (size_t k = 0; k < batch_keys.size(); ++k) {
      auto it = batch_logs[s].find(batch_keys[k]);
      EXPECT_NE(it, batch_logs[s].end()) << "step " << s << " lacks log " << batch_keys[k];
      a.push_back(it == batch_logs[s].end() ? NAN : it->second);
      e.push_back(expected_steps[s * batch_keys.size() + k]);
    }
    EXPECT_EQ(batch_logs[s].size(), batch_keys.size()) << "step " << s << " log keys";
    Diff d = compare(a, e, rtol, atol, "batch logs of step " + std::to_string(s));
    loss_diff.merge(d);
  }

  // History: epochs x keys.
  auto history_keys = kw.at("history_keys").get<std::vector<std::string>>();
  std::vector<std::string> got_keys;
  for (const auto& [k, v] : history->history) got_keys.push_back(k);
  EXPECT_EQ(got_keys, history_keys) << "History keys";
  std::vector<double> hist;
  for (int e = 0; e < kw.at("epochs").get<int>(); ++e)
    for (const auto& k : history_keys)
      hist.push_back(history->history.count(k) && history->history.at(k).size() > size_t(e)
                         ? history->history.at(k)[e] : NAN);
  compare(hist, values(out[1]), rtol, atol, "History");

  // Weights, then evaluate and predict with the trained weights.
  const int n_out = kw.at("num_outputs").get<int>(), n_w = kw.at("num_weights").get<int>();
  auto weights = model->get_weights();
  EXPECT_EQ(weights.size(), size_t(n_w));
  Diff weight_diff;
  for (int i = 0; i < std::min(n_w, static_cast<int>(weights.size())); ++i) {
    const Tensor& e = out[3 + n_out + i];
    EXPECT_EQ(weights[i].shape(), e.shape()) << "weight " << i;
    Diff d = compare(values(weights[i]), values(e), rtol, atol, "weight " + std::to_string(i));
    weight_diff.merge(d);
  }

  // The optimizer's state: its variables in Keras's order (iteration, learning_rate, EMA
  // averages, gradient accumulators, slots) and the current (scheduled) learning rate.
  const auto& optimizer = model->optimizer();
  auto paths = kw.at("optimizer_variables").get<std::vector<std::string>>();
  auto slots = optimizer->variables();
  EXPECT_EQ(slots.size(), paths.size()) << "optimizer variables";
  Diff state_diff;
  for (size_t i = 0; i < std::min(slots.size(), paths.size()); ++i) {
    const Tensor& e = out[3 + n_out + n_w + i];
    Tensor a = slots[i].value();
    EXPECT_EQ(a.shape(), e.shape()) << "optimizer variable " << paths[i];
    // The loss scale schedule is exact: powers of two and a step count.
    const bool exact = paths[i].ends_with("/dynamic_scale") || paths[i].ends_with("/step_counter");
    state_diff.merge(compare(values(a), values(e), exact ? 0.0 : rtol, exact ? 0.0 : atol,
                             "optimizer variable " + paths[i]));
  }
  // Where Keras also saved the model after its fit, the file's optimizer variables load into
  // keras-cpp's in Keras's order: the values Keras recorded, exactly. (Paths are not compared:
  // Keras's slot names carry the model's name, "mlp_dense_kernel_momentum", keras-cpp's
  // variable paths do not.)
  const std::string trained = dir + name + "_trained.keras";
  if (std::filesystem::exists(trained)) {
    auto loaded = saving::load_model(trained);
    auto loaded_slots = loaded->optimizer()->variables();
    EXPECT_EQ(loaded_slots.size(), paths.size()) << trained;
    for (size_t i = 0; i < std::min(loaded_slots.size(), paths.size()); ++i) {
      compare(values(loaded_slots[i].value()), values(out[3 + n_out + n_w + i]), 0.0, 0.0,
              trained + ": optimizer variable " + paths[i]);
    }
  }
  const double lr = kw.at("final_learning_rate").get<double>();
  EXPECT_NEAR(optimizer->learning_rate(), lr, atol + rtol * std::abs(lr)) << "learning rate";

  Logs scores = model->evaluate(x, y, {.batch_size = batch, .verbose = 0});
  auto evaluate_keys = kw.at("evaluate_keys").get<std::vector<std::string>>();
  std::vector<double> ev;
  got_keys.clear();
  for (const auto& [k, v] : scores) got_keys.push_back(k);
  EXPECT_EQ(got_keys, evaluate_keys) << "evaluate keys";
  for (const auto& k : evaluate_keys) ev.push_back(scores.count(k) ? scores.at(k) : NAN);
  // Under a 16-bit policy one sample whose two best classes nearly tie may flip its argmax: an
  // epoch's accuracy may then differ by one sample in N.
  std::vector<double> expected_ev = values(out[2]);
  for (size_t k = 0; k < evaluate_keys.size() && k < expected_ev.size(); ++k) {
    const bool one_sample = kw.contains("policy") && evaluate_keys[k].ends_with("accuracy");
    compare({ev[k]}, {expected_ev[k]}, one_sample ? 0.0 : rtol,
            one_sample ? 1.5 / static_cast<double>(in[0].shape()[0]) : atol,  // one sample, not two
            "evaluate " + evaluate_keys[k]);
  }

  auto preds = model->predict(x, {.batch_size = batch, .verbose = 0});
  TensorList p = preds.kind() == TensorStruct::Kind::Single ? TensorList{preds.single()}
                                                            : preds.list();
  EXPECT_EQ(p.size(), size_t(n_out));
  for (int i = 0; i < std::min(n_out, static_cast<int>(p.size())); ++i)
    compare(values(p[i]), values(out[3 + i]), rtol, atol, "predict output " + std::to_string(i));
  return {name, loss_diff, weight_diff, state_diff};
}

// Runs every case of `dir`/cases.npz; `label` names the fixture in the summary.
void run_fixture(const std::string& dir, const std::string& label) {
  auto arrays = utils::load_npz(dir + "cases.npz");
  std::map<std::string, std::map<std::string, Tensor>> cases;
  for (auto& [key, value] : arrays) {
    size_t dot = key.rfind('.');
    cases[key.substr(0, dot)][key.substr(dot + 1)] = value;
  }
  std::vector<Row> rows;
  int skipped = 0;
  for (auto& [name, fields] : cases) {
    json kw = json::parse(text_of(fields.at("kwargs")));
    if (kw.contains("keras_cpp_differs")) {
      std::printf("[differs] oracle/%s/%s: %s\n", label.c_str(), name.c_str(),
                  kw["keras_cpp_differs"].get<std::string>().c_str());
      ++skipped;
      continue;
    }
    std::vector<Tensor> in, out;
    for (int i = 0; fields.count("in" + std::to_string(i)); ++i)
      in.push_back(fields.at("in" + std::to_string(i)));
    for (int i = 0; fields.count("out" + std::to_string(i)); ++i)
      out.push_back(fields.at("out" + std::to_string(i)));
    try {
      rows.push_back(run_case(dir, name, text_of(fields.at("op")), kw, in, out));
    } catch (const std::exception& e) {
      ADD_FAILURE() << "case " << name << " threw: " << e.what();
    }
  }
  std::printf("oracle/%s: %zu cases compared, %d skipped (keras_cpp_differs)\n", label.c_str(),
              rows.size(), skipped);
  std::printf("%-32s %9s %9s %9s %9s %9s %9s\n", "case (max diffs)", "logs rel", "logs abs",
              "wts rel", "wts abs", "opt rel", "opt abs");
  for (const auto& r : rows)
    std::printf("%-32s %9.3g %9.3g %9.3g %9.3g %9.3g %9.3g\n", r.name.c_str(), r.logs.rel,
                r.logs.abs, r.weights.rel, r.weights.abs, r.optimizer.rel, r.optimizer.abs);
  EXPECT_EQ(rows.size() + skipped, cases.size());
}

TEST(OracleTraining, TwoEpochsMatchKeras) { run_fixture(kDir, "training"); }

TEST(OracleTraining, MixedPrecisionMatchesKeras) { run_fixture(kMixedDir, "mixed_precision"); }

// Muon and ScheduleFreeAdamW (tools/keras_oracle/optimizers_muon_sf.py): compiled by Keras,
// trained by keras-cpp; and Keras's trained files' optimizer state loaded.
TEST(OracleTraining, MuonAndScheduleFreeMatchKeras) {
  run_fixture(std::string(KERAS_ORACLE_DIR) + "/optimizers_muon_sf/", "optimizers_muon_sf");
}

}  // namespace
}  // namespace keras
