// What users read, against real Keras 3.15 (tools/keras_oracle/summaries.py writes the
// fixtures under tests/oracle/fixtures/summaries/): model.summary() text character for
// character, fit(verbose=2) epoch lines with the times masked, and the exceptions of common
// mistakes by their key facts. A case whose fixture entry has "keras_cpp_differs" is a known
// difference: printed with both texts and not compared.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>

#include "golden.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::json;

std::string dir() { return std::string(KERAS_ORACLE_DIR) + "/summaries/"; }

const json& fixture() {
  static const json value = [] {
    std::ifstream in(dir() + "summaries.json");
    EXPECT_TRUE(in.good()) << "missing " << dir() << "summaries.json";
    return in.good() ? json::parse(in) : json::object();
  }();
  return value;
}

// $COLUMNS for the duration of a case: both Keras (shutil.get_terminal_size, rich) and
// keras-cpp read it when stdout is not a terminal, as it is not under CaptureStdout.
class ScopedColumns {
 public:
  explicit ScopedColumns(int columns) {
    if (const char* old = std::getenv("COLUMNS")) old_ = old;
    setenv("COLUMNS", std::to_string(columns).c_str(), 1);
  }
  ~ScopedColumns() {
    if (old_.empty())
      unsetenv("COLUMNS");
    else
      setenv("COLUMNS", old_.c_str(), 1);
  }

 private:
  std::string old_;
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Both texts and the first line where they part, for a failure message or a known difference.
std::string show_difference(const std::string& keras, const std::string& ours) {
  auto a = lines_of(keras), b = lines_of(ours);
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  std::ostringstream out;
  out << "--- Keras 3.15:\n" << keras << "--- keras-cpp:\n" << ours;
  out << "--- first differing line " << i + 1 << ":\n  Keras:     "
      << (i < a.size() ? a[i] : "(none)") << "\n  keras-cpp: " << (i < b.size() ? b[i] : "(none)")
      << "\n";
  return out.str();
}

// ---- summary() ----------------------------------------------------------------------------

TEST(OracleSummary, MatchesKerasText) {
  const json& cases = fixture().at("summaries");
  ASSERT_GE(cases.size(), 12u);
  int matched = 0, differs = 0;
  for (const auto& [name, c] : cases.items()) {
    SCOPED_TRACE(name);
    backend::clear_session();
    std::string ours;
    {
      ScopedColumns columns(c.at("columns").get<int>());
      testing::internal::CaptureStdout();
      try {
        auto model = saving::load_model(dir() + c.at("model").get<std::string>() + ".keras");
        model->summary({.expand_nested = c.at("expand_nested").get<bool>(),
                        .show_trainable = c.at("show_trainable").get<bool>()});
      } catch (const Error& e) {
        std::cout << "(keras::Error: " << e.what() << ")\n";
      }
      ours = testing::internal::GetCapturedStdout();
    }
    const std::string keras = c.at("text").get<std::string>();
    if (c.contains("keras_cpp_differs")) {
      ++differs;
      std::cout << "[ known difference ] summary " << name << ": "
                << c["keras_cpp_differs"].get<std::string>() << "\n"
                << (ours == keras ? std::string("(now equal: drop the mark)\n")
                                  : show_difference(keras, ours));
      continue;
    }
    EXPECT_TRUE(ours == keras) << show_difference(keras, ours);
    matched += ours == keras;
  }
  std::cout << "summaries: " << matched << " of " << cases.size() << " equal Keras's text, "
            << differs << " marked as differing\n";
}

// ---- fit(verbose=2) -----------------------------------------------------------------------

Tensor matrix(const json& rows) {
  std::vector<float> values;
  for (const auto& row : rows)
    for (const auto& v : row) values.push_back(v.get<float>());
  return Tensor::from_vector(values, {static_cast<int64_t>(rows.size()),
                                      static_cast<int64_t>(rows[0].size())});
}

optimizers::OptimizerPtr sgd(double lr) {
  return optimizers::deserialize({{"class_name", "SGD"}, {"config", {{"learning_rate", lr}}}});
}

// Rule: the times are masked with the fixture's regex on both sides; then the text with every
// decimal number replaced by <n> must be equal, and the numbers (4 decimals as printed) may
// differ by 1.5e-4: one unit in the last printed place from float32 rounding of the same
// arithmetic, plus half a unit where the two values straddle a rounding boundary.
void expect_same_epoch_lines(const std::string& keras, const std::string& ours,
                             const json& time_mask) {
  const std::regex times(time_mask[0].get<std::string>());
  const std::regex number(R"(-?\d+\.\d+(e[+-]\d+)?)");
  auto masked = [&](const std::string& s) {
    return std::regex_replace(std::regex_replace(s, times, time_mask[1].get<std::string>()),
                              number, "<n>");
  };
  auto numbers = [&](const std::string& s) {
    std::vector<double> out;
    std::string t = std::regex_replace(s, times, "");
    for (std::sregex_iterator it(t.begin(), t.end(), number), end; it != end; ++it)
      out.push_back(std::stod(it->str()));
    return out;
  };
  EXPECT_EQ(masked(ours), masked(keras)) << show_difference(keras, ours);
  auto a = numbers(keras), b = numbers(ours);
  ASSERT_EQ(a.size(), b.size()) << show_difference(keras, ours);
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_NEAR(b[i], a[i], 1.5e-4) << "number " << i << "\n" << show_difference(keras, ours);
}

TEST(OracleSummary, FitVerbose2EpochLines) {
  const json& f = fixture().at("fit_verbose2");
  backend::clear_session();
  auto model = saving::load_model(dir() + f.at("model").get<std::string>() + ".keras");
  model->compile({.optimizer = sgd(f.at("learning_rate").get<double>()),
                  .loss = "mse",
                  .metrics = {"mae"}});
  testing::internal::CaptureStdout();
  model->fit(matrix(f.at("x")), matrix(f.at("y")),
             {.batch_size = f.at("batch_size").get<int64_t>(),
              .epochs = f.at("epochs").get<int>(),
              .verbose = 2,
              .validation_data = ValidationData(matrix(f.at("val_x")), matrix(f.at("val_y"))),
              .shuffle = false});
  std::string ours = testing::internal::GetCapturedStdout();
  expect_same_epoch_lines(f.at("stdout").get<std::string>(), ours, f.at("time_mask"));
}

// ---- the messages of common mistakes ------------------------------------------------------

// A subclassed model that has not seen data yet (Keras's Subclassed in summaries.py).
class Subclassed : public Model {
 public:
  Subclassed() : Model({.name = "subclassed"}) {
    hidden_ = track("hidden", layers::Dense(4));
    out_ = track("out", layers::Dense(2));
  }
  Tensor call(const Tensor& x, const CallContext&) override { return out_(hidden_(x)); }

 private:
  LayerPtr<layers::DenseLayer> hidden_, out_;
};

ModelPtr<Model> load(const std::string& name) {
  return saving::load_model(dir() + name + ".keras");
}

// Each mistake, made in keras-cpp (the test captures what it prints).
std::map<std::string, std::function<void()>> mistakes() {
  std::map<std::string, std::function<void()>> m;
  m["wrong_input_shape_predict"] = [] { load("mlp")->predict(ops::zeros({2, 5}), {.verbose = 0}); };
  m["wrong_input_shape_functional"] = [] {
    load("two_in_two_out")->predict(TensorStruct{ops::zeros({2, 4}), ops::zeros({2, 7})},
                                    {.verbose = 0});
  };
  m["unbuilt_subclassed_count_params"] = [] { make_layer<Subclassed>()->count_params(); };
  m["unbuilt_subclassed_predict"] = [] {
    make_layer<Subclassed>()->predict(ops::zeros({3, 5}), {.verbose = 0});
  };
  m["fit_without_loss"] = [] {
    auto model = load("mlp");
    model->compile({.optimizer = "sgd"});
    model->fit(ops::zeros({4, 8}), ops::zeros({4, 4}), {.verbose = 2});
  };
  m["fit_without_compile"] = [] {
    load("mlp")->fit(ops::zeros({4, 8}), ops::zeros({4, 4}), {.verbose = 0});
  };
  m["unknown_layer"] = [] { load("unknown_layer"); };
  m["mismatched_weights"] = [] { load("mlp")->load_weights(dir() + "cnn.weights.h5"); };
  return m;
}

// keras-cpp's exception type under Keras's name.
std::string type_name(const Error& e) {
  if (dynamic_cast<const IndexError*>(&e)) return "IndexError";
  if (dynamic_cast<const ValueError*>(&e)) return "ValueError";
  if (dynamic_cast<const TypeError*>(&e)) return "TypeError";
  if (dynamic_cast<const IOError*>(&e)) return "OSError";
  if (dynamic_cast<const NotImplementedError*>(&e)) return "NotImplementedError";
  if (dynamic_cast<const RuntimeError*>(&e)) return "RuntimeError";
  return "Error";
}

// Rule, per case: where Keras raises nothing, keras-cpp must not throw either (and where Keras
// printed a verbose=2 line, keras-cpp prints the same, times masked). Where Keras raises,
// keras-cpp must throw a keras::Error of the same Python type (ValueError <-> ValueError, ...)
// whose message contains every string of the case's "facts": the shapes and names Keras's
// message names and its key phrase, kept generic ("expected", "compile") so that wording
// around them is free. "keras_cpp_type_differs" lets the type differ but checks the facts.
TEST(OracleSummary, CommonMistakesName) {
  const json& cases = fixture().at("errors");
  auto actions = mistakes();
  ASSERT_EQ(cases.size(), actions.size());
  for (const auto& [name, c] : cases.items()) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(actions.count(name)) << "no C++ trigger for " << name;
    backend::clear_session();
    std::string thrown_type, message, out;
    testing::internal::CaptureStdout();
    try {
      actions[name]();
    } catch (const Error& e) {
      thrown_type = type_name(e);
      message = e.what();
    }
    out = testing::internal::GetCapturedStdout();
    const bool keras_raises = !c.at("type").is_null();
    std::ostringstream report;
    report << "Keras 3.15: " << (keras_raises ? c["type"].get<std::string>() : "no exception")
           << ": " << c["message"].get<std::string>() << "\nkeras-cpp: "
           << (thrown_type.empty() ? "no exception" : thrown_type) << ": " << message << "\n";
    if (c.contains("keras_cpp_differs")) {
      std::cout << "[ known difference ] error " << name << ": "
                << c["keras_cpp_differs"].get<std::string>() << "\n" << report.str();
      continue;
    }
    if (!keras_raises) {
      EXPECT_TRUE(thrown_type.empty()) << report.str();
      if (c.contains("stdout"))
        expect_same_epoch_lines(c["stdout"].get<std::string>(), out,
                                fixture().at("fit_verbose2").at("time_mask"));
      continue;
    }
    if (c.contains("keras_cpp_type_differs"))
      std::cout << "[ known difference ] error type " << name << ": "
                << c["keras_cpp_type_differs"].get<std::string>() << "\n";
    else
      EXPECT_EQ(thrown_type, c["type"].get<std::string>()) << report.str();
    for (const auto& fact : c.at("facts"))
      EXPECT_NE(message.find(fact.get<std::string>()), std::string::npos)
          << "missing \"" << fact.get<std::string>() << "\"\n" << report.str();
  }
}

}  // namespace
}  // namespace keras
