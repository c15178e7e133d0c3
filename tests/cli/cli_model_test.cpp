// keras-cpp info, summary, predict, evaluate, fit and convert, run as a subprocess on files this
// test writes, compared with what the library itself gives for the same files.

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <sstream>

#include "assertions.h"
#include "cli_fixture.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the CLI helpers

// "name: value" lines.
std::map<std::string, double> parse_logs(const std::string& text) {
  std::map<std::string, double> logs;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    auto colon = line.find(": ");
    if (colon != std::string::npos) logs[line.substr(0, colon)] = std::stod(line.substr(colon + 2));
  }
  return logs;
}

TEST(Cli, HelpOnEverySubcommand) {
  auto top = run_cli({"--help"});
  EXPECT_EQ(top.code, 0);
  for (const char* sub :
       {"info", "summary", "predict", "evaluate", "fit", "convert", "export", "plot",
        "plot-history", "serve"}) {
    EXPECT_NE(top.out.find(sub), std::string::npos) << sub;
    auto r = run_cli({sub, "--help"});
    EXPECT_EQ(r.code, 0) << sub;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << sub << ": " << r.out;
  }
  auto version = run_cli({"--version"});
  EXPECT_EQ(version.code, 0);
  EXPECT_NE(version.out.find(KERAS_CPP_TEST_VERSION), std::string::npos) << version.out;
}

TEST(Cli, InfoNamesBackendsDevicesAndWhyTheDefault) {
  auto r = run_cli({"info"}, {{"KERAS_BACKEND", "cpu"}});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(KERAS_CPP_TEST_VERSION), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("default backend: cpu (from KERAS_BACKEND)"), std::string::npos) << r.out;
  for (const std::string& name : backend::available())
    EXPECT_NE(r.out.find(" " + name + " "), std::string::npos) << name << "\n" << r.out;
  EXPECT_NE(r.out.find("device " + backend::get("cpu").device()), std::string::npos) << r.out;
  // Without the variable the source is keras.json or the built-in default.
  auto home = cli_path("empty_keras_home");
  std::filesystem::create_directories(home);
  auto plain = run_cli({"info"}, {{"KERAS_HOME", home}, {"KERAS_BACKEND", ""}});
  EXPECT_NE(plain.out.find("default backend: cpu (from built-in default)"), std::string::npos)
      << plain.out;
  // An unknown backend in KERAS_BACKEND is a user error naming the choices.
  auto bad = run_cli({"info"}, {{"KERAS_BACKEND", "nosuch"}});
  EXPECT_EQ(bad.code, 1);
  EXPECT_TRUE(one_line(bad.err)) << bad.err;
}

TEST(Cli, SummaryIsTheModelsSummaryTable) {
  const auto& f = cli_files();
  for (const auto& path : {f.model, f.sequential}) {
    // The command loads without compiling (the architecture; no "Optimizer params" line).
    auto model = saving::load_model(path, {.compile = false});
    auto r = run_cli({"summary", path});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, model->summary_string()) << path;
    auto narrow = run_cli({"summary", path, "--line-length", "70", "--show-trainable"});
    EXPECT_EQ(narrow.out, model->summary_string({.line_length = 70, .show_trainable = true}));
  }
}

TEST(Cli, PredictWritesWhatModelPredictGives) {
  const auto& f = cli_files();
  auto model = saving::load_model(f.model);
  Tensor expected = model->predict(f.x_values, {.verbose = 0}).single();
  std::string out = cli_path("y_pred.npy");
  auto r = run_cli({"predict", f.model, "--input", f.x, "--output", out});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TENSOR_EQ(utils::load_npy(out), expected);
  // Batch size and backend change nothing here.
  auto b =
      run_cli({"predict", f.model, "-i", f.x, "-o", out, "--batch-size", "5", "--backend", "cpu"});
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_TENSOR_EQ(utils::load_npy(out),
                   model->predict(f.x_values, {.batch_size = 5, .verbose = 0}).single());
  // .npz: one array per output name.
  std::string npz = cli_path("y_pred.npz");
  ASSERT_EQ(run_cli({"predict", f.model, "-i", f.x, "-o", npz}).code, 0);
  EXPECT_TENSOR_EQ(utils::load_npz(npz).at("probs"), expected);
  // Without --output: a short summary of the result.
  auto s = run_cli({"predict", f.model, "--input", f.x});
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_NE(s.out.find("probs: (64, 3) float32"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("first sample"), std::string::npos) << s.out;
}

TEST(Cli, PredictReadsAndWritesNumpyStrings) {
  // Keras's text models (string_graphs.py): a .npy of NumPy strings feeds the string input,
  // and a string output is written as NumPy strings.
  const std::string dir = std::string(KERAS_ORACLE_DIR) + "/string_graphs/";
  const std::string texts = cli_path("texts.npy"), out = cli_path("text_scores.npy");
  const StringTensor docs({"the cat ran", "An unseen sentence"}, {2, 1});
  utils::save_npy(texts, docs);
  auto r = run_cli({"predict", dir + "text_classifier.keras", "-i", texts, "-o", out});
  ASSERT_EQ(r.code, 0) << r.err;
  auto model = saving::load_model(dir + "text_classifier.keras");
  EXPECT_TENSOR_EQ(utils::load_npy(out), model->predict(docs, {.verbose = 0}).single());
  const std::string features = cli_path("features.npy"), npz = cli_path("labels.npz");
  Tensor x = random::normal({3, 4}, 0.0, 1.0, DType::Float32, 7);
  utils::save_npy(features, x);
  r = run_cli({"predict", dir + "invert_output.keras", "-i", features, "-o", npz});
  ASSERT_EQ(r.code, 0) << r.err;
  auto labels = saving::load_model(dir + "invert_output.keras");
  EXPECT_EQ(utils::load_npz(npz).at("labels").to_strings(),
            labels->predict(x, {.verbose = 0}).flat()[0].to_strings());
  auto s = run_cli({"predict", dir + "invert_output.keras", "-i", features});
  EXPECT_NE(s.out.find("labels: (3,) string"), std::string::npos) << s.out;
}

TEST(Cli, EvaluatePrintsModelEvaluatesNumbers) {
  const auto& f = cli_files();
  auto model = saving::load_model(f.model);
  Logs expected = model->evaluate(f.x_values, f.y_values, {.batch_size = 10, .verbose = 0});
  auto r = run_cli({"evaluate", f.model, "--x", f.x, "--y", f.y, "--batch-size", "10"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto got = parse_logs(r.out);
  ASSERT_EQ(got.size(), expected.size()) << r.out;
  EXPECT_EQ(r.out.rfind("loss: ", 0), 0u) << r.out;  // loss first, as Keras lists it
  for (const auto& [name, value] : expected) {
    ASSERT_EQ(got.count(name), 1u) << name;
    EXPECT_NEAR(got[name], value, 1e-7 * std::max(1.0, std::abs(value))) << name;
  }
}

TEST(Cli, FitContinuesTrainingAndSaves) {
  const auto& f = cli_files();
  std::string out = cli_path("fitted.keras"), history = cli_path("fit_history.csv");
  auto r = run_cli({"fit", f.model, "--x", f.x, "--y", f.y, "--epochs", "25", "--batch-size", "8",
                    "--validation-split", "0.25", "--output", out, "--history", history});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("Epoch 25/25"), std::string::npos) << r.out;  // the Keras progress bar
  auto before = saving::load_model(f.model);
  auto after = saving::load_model(out);
  auto w0 = before->get_weights(), w1 = after->get_weights();
  ASSERT_EQ(w0.size(), w1.size());
  bool changed = false;
  for (size_t i = 0; i < w0.size(); ++i) changed = changed || !tensors_near(w0[i], w1[i], 0, 0);
  EXPECT_TRUE(changed);
  double loss0 = before->evaluate(f.x_values, f.y_values, {.verbose = 0}).at("loss");
  double loss1 = after->evaluate(f.x_values, f.y_values, {.verbose = 0}).at("loss");
  EXPECT_LT(loss1, loss0);
  // The saved optimizer went on counting.
  EXPECT_GT(after->optimizer()->iterations().value().item<int64_t>(),
            before->optimizer()->iterations().value().item<int64_t>());
  std::string csv = read_text(history);
  EXPECT_EQ(csv.rfind("epoch,", 0), 0u) << csv;
  EXPECT_NE(csv.find("val_loss"), std::string::npos) << csv;
  auto plot = run_cli({"plot-history", history, "-o", cli_path("fit_curves.svg")});
  ASSERT_EQ(plot.code, 0) << plot.err;
  std::string svg = read_text(cli_path("fit_curves.svg"));
  for (const char* name : {">loss<", ">val_loss<", ">accuracy<", ">val_accuracy<"})
    EXPECT_NE(svg.find(name), std::string::npos) << name;
}

TEST(Cli, ConvertKerasToKerasKeepsTheModel) {
  const auto& f = cli_files();
  std::string out = cli_path("converted.keras");
  auto r = run_cli({"convert", f.model, out});
  ASSERT_EQ(r.code, 0) << r.err;
  auto a = saving::load_model(f.model), b = saving::load_model(out);
  EXPECT_EQ(b->to_json(), a->to_json());
  EXPECT_TRUE(b->compiled());
  EXPECT_TENSOR_EQ(b->predict(f.x_values, {.verbose = 0}).single(),
                   a->predict(f.x_values, {.verbose = 0}).single());
}

// The file's values are checked against ONNX Runtime by scripts/onnx_check.sh; here: the
// command writes a protobuf (field 1, ir_version, first) that names the producer.
TEST(Cli, ExportWritesAnOnnxFile) {
  const auto& f = cli_files();
  std::string out = cli_path("exported.onnx");
  std::filesystem::remove(out);
  auto r = run_cli({"export", f.model, out, "--opset", "17", "--batch", "4"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("opset 17"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(4, "), std::string::npos) << r.out;
  const std::string bytes = read_text(out);
  ASSERT_FALSE(bytes.empty());
  EXPECT_EQ(bytes[0], '\x08');
  EXPECT_NE(bytes.find("keras-cpp"), std::string::npos);
}

TEST(Cli, ConvertLegacyH5AsFarAsLoadModelGoes) {
  std::string path = std::string(KERAS_SHARED_DIR) + "/models/churn_functional_keras2.h5";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is not here";
  std::string out = cli_path("churn.keras");
  std::filesystem::remove(out);
  auto r = run_cli({"convert", path, out});
  bool library_reads_it = true;
  try {
    saving::load_model(path);
  } catch (const Error&) {
    library_reads_it = false;
  }
  if (library_reads_it) {
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(saving::load_model(out)->to_json(), saving::load_model(path)->to_json());
  } else {  // not wired in yet: a clear one-line error, no file
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
  }
}

TEST(Cli, PredictTakesOneInputPerModelInputAndWritesEveryOutput) {
  backend::clear_session();
  auto a = Input({3}, {.name = "a"});
  auto b = Input({2}, {.name = "b"});
  KerasTensor merged = layers::Concatenate()(std::vector<KerasTensor>{a, b})[0];
  auto score = layers::Dense(2, {.name = "score"})(merged);
  auto flag = layers::Dense(1, {.activation = "sigmoid", .name = "flag"})(merged);
  auto model = Functional(std::vector<KerasTensor>{a, b}, std::vector<KerasTensor>{score, flag});
  std::string path = cli_path("two_in_two_out.keras");
  model->save(path);
  Tensor xa = random::uniform({6, 3}, 0.0, 1.0, DType::Float32, 1);
  Tensor xb = random::uniform({6, 2}, 0.0, 1.0, DType::Float32, 2);
  utils::save_npy(cli_path("a.npy"), xa);
  utils::save_npy(cli_path("b.npy"), xb);
  TensorList expected = model->predict(TensorList{xa, xb}, {.verbose = 0}).list();
  std::string npz = cli_path("two_out.npz");
  auto r = run_cli({"predict", path, "-i", cli_path("a.npy"), "-i", cli_path("b.npy"), "-o", npz});
  ASSERT_EQ(r.code, 0) << r.err;
  auto arrays = utils::load_npz(npz);
  EXPECT_TENSOR_EQ(arrays.at("score"), expected[0]);
  EXPECT_TENSOR_EQ(arrays.at("flag"), expected[1]);
  // Two outputs do not fit one .npy; one input is not enough.
  auto npy = run_cli({"predict", path, "-i", cli_path("a.npy"), "-i", cli_path("b.npy"), "-o",
                      cli_path("two_out.npy")});
  EXPECT_EQ(npy.code, 1);
  EXPECT_NE(npy.err.find(".npz"), std::string::npos) << npy.err;
  auto one = run_cli({"predict", path, "-i", cli_path("a.npy")});
  EXPECT_EQ(one.code, 1);
  EXPECT_TRUE(one_line(one.err)) << one.err;
}

}  // namespace
}  // namespace keras
