// Bad arguments and bad files give exit code 1 and one line on stderr, never a crash; the real
// Keras files in ../shared/models go through `summary`.

#include <gtest/gtest.h>

#include <fstream>

#include "cli_fixture.h"

namespace keras {
namespace {

using namespace test;  // NOLINT: the CLI helpers

void expect_user_error(const std::vector<std::string>& args, const std::string& mentions = "") {
  auto r = run_cli(args);
  std::string what;
  for (const auto& a : args) what += a + " ";
  EXPECT_EQ(r.code, 1) << what << "\n" << r.out << r.err;
  EXPECT_TRUE(one_line(r.err)) << what << "\n[" << r.err << "]";
  EXPECT_NE(r.err.find("keras-cpp: error: "), std::string::npos) << r.err;
  if (!mentions.empty()) {
    EXPECT_NE(r.err.find(mentions), std::string::npos) << what << r.err;
  }
}

std::string write_junk(const std::string& name) {
  std::string path = cli_path(name);
  std::ofstream out(path, std::ios::binary);
  for (int i = 0; i < 300; ++i) out.put(static_cast<char>((i * 37 + 11) % 256));
  return path;
}

TEST(CliErrors, BadArgumentsAreOneLineUserErrors) {
  const auto& f = cli_files();
  expect_user_error({});                               // no subcommand
  expect_user_error({"frobnicate"});                   // unknown subcommand
  expect_user_error({"summary"}, "FILE");              // missing positional
  expect_user_error({"predict", f.model}, "--input");  // missing flag
  expect_user_error({"evaluate", f.model, "--x", f.x}, "--y");
  expect_user_error({"fit", f.model, "--x", f.x, "--y", f.y}, "--epochs");
  expect_user_error({"fit", f.model, "--x", f.x, "--y", f.y, "--epochs", "two"}, "two");
  expect_user_error({"fit", f.model, "--x", f.x, "--y", f.y, "--epochs", "0"});
  expect_user_error({"predict", f.model, "-i", f.x, "--batch-size", "1.5x"});
  expect_user_error(
      {"fit", f.model, "--x", f.x, "--y", f.y, "--epochs", "1", "--validation-split", "1.5"});
  expect_user_error({"plot", f.model, "-o", cli_path("m.dot"), "--format", "gif"});
  expect_user_error({"summary", f.model, "--no-such-flag"});
  expect_user_error({"predict", f.model, "-i", f.x, "--backend", "nosuch"}, "nosuch");
  expect_user_error({"convert", f.model, cli_path("out.h5")}, ".keras");
  expect_user_error({"export", f.model, cli_path("out.keras")}, ".onnx");
  expect_user_error({"export", f.model, cli_path("out.onnx"), "--opset", "12"}, "12");
  expect_user_error({"predict", f.model, "-i", f.x, "--backend", "symbolic"}, "shapes only");
  expect_user_error(
      {"fit", f.model, "--x", f.x, "--y", f.y, "--epochs", "1", "-o", "/nonexistent_dir/m.keras"},
      "/nonexistent_dir");
}

TEST(CliErrors, BadFilesAreOneLineUserErrors) {
  const auto& f = cli_files();
  std::string missing = cli_path("does_not_exist.keras");
  std::string junk_model = write_junk("junk.keras");
  std::string junk_npy = write_junk("junk.npy");
  for (const char* sub : {"summary", "plot"}) {
    std::vector<std::string> extra = std::string(sub) == "plot"
                                         ? std::vector<std::string>{"-o", cli_path("j.dot")}
                                         : std::vector<std::string>{};
    auto args = std::vector<std::string>{sub, missing};
    args.insert(args.end(), extra.begin(), extra.end());
    expect_user_error(args, missing);
    args[1] = junk_model;
    expect_user_error(args, junk_model);
  }
  expect_user_error({"predict", junk_model, "-i", f.x}, junk_model);
  expect_user_error({"predict", f.model, "-i", missing});
  expect_user_error({"predict", f.model, "-i", junk_npy}, junk_npy);
  expect_user_error({"convert", missing, cli_path("c.keras")}, missing);
  expect_user_error({"plot-history", missing, "-o", cli_path("h.svg")}, missing);
  expect_user_error({"plot-history", f.x, "-o", cli_path("h.svg")});  // not a CSV
  // Data that does not fit the model: wrong feature count, mismatched labels.
  Tensor wrong = random::uniform({8, 5}, 0.0, 1.0, DType::Float32, 3);
  std::string wrong_path = cli_path("wrong.npy");
  utils::save_npy(wrong_path, wrong);
  expect_user_error({"predict", f.model, "-i", wrong_path});
  expect_user_error({"evaluate", f.model, "--x", f.x, "--y", wrong_path});
  // evaluate and fit need a compiled model.
  expect_user_error({"evaluate", f.uncompiled, "--x", f.x, "--y", f.y}, "compile");
  expect_user_error({"fit", f.uncompiled, "--x", f.x, "--y", f.y, "--epochs", "1"}, "compile");
  // A model file that is a directory.
  expect_user_error({"summary", cli_dir().string()});
}

TEST(CliErrors, RealKerasFilesThroughSummary) {
  int seen = 0;
  for (const char* name :
       {"fashion_mnist_cnn.keras", "heart_functional_bn.keras", "churn_functional_keras2.h5"}) {
    std::string path = std::string(KERAS_SHARED_DIR) + "/models/" + name;
    if (!std::filesystem::exists(path)) continue;
    ++seen;
    auto r = run_cli({"summary", path});
    std::string expected;
    try {
      expected = saving::load_model(path, {.compile = false})->summary_string();
    } catch (const Error&) {  // what load_model does not read yet (legacy .h5): a clean error
      EXPECT_EQ(r.code, 1) << name;
      EXPECT_TRUE(one_line(r.err)) << r.err;
      continue;
    }
    ASSERT_EQ(r.code, 0) << name << ": " << r.err;
    EXPECT_EQ(r.out, expected) << name;
  }
  if (seen == 0) GTEST_SKIP() << KERAS_SHARED_DIR << "/models is not here";
}

}  // namespace
}  // namespace keras
