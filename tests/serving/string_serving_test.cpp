// keras-cpp serve with text: models that Keras 3.15 saved with string Inputs
// (tools/keras_oracle/string_graphs.py) answer TF Serving's REST requests with Keras's own
// predictions; strings arrive as JSON text or TF Serving's {"b64": ...}, string outputs leave
// as JSON strings ({"b64": ...} for an output named "..._bytes"); base64 against RFC 4648's
// test vectors.

#include <optional>
#include <thread>

#include "oracle_fixture.h"
#include "serve/base64.h"
#include "serving_helpers.h"

namespace keras::serving_test {
namespace {

const json& fixture() {
  return test::oracle_json("string_graphs");
}
ModelPtr<Model> keras_model(const std::string& name) {
  return saving::load_model(std::string(KERAS_ORACLE_DIR) + "/string_graphs/" + name + ".keras");
}

void expect_close(const json& got, const json& want, const std::string& what) {
  std::vector<float> g, w;
  flatten_into(got, g);
  flatten_into(want, w);
  EXPECT_TRUE(close_to(g, w)) << what << ": " << got.dump() << " vs " << want.dump();
}

TEST(StringServing, TextInRowsAndColumnsGivesKerasPredictions) {
  const json& f = fixture()["text_classifier"];
  Served s(keras_model("text_classifier"), "text");
  const json& texts = f["inputs"]["text"];  // rows of one string
  Reply r = post(s, "/v1/models/text:predict", json{{"instances", texts}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  expect_close(r.doc().at("predictions"), f["outputs"][0], "instances");
  r = post(s, "/v1/models/text:predict", json{{"inputs", {{"text", texts}}}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  expect_close(r.doc().at("outputs"), f["outputs"][0], "inputs");
  // TF Serving's binary form of the same strings.
  json encoded = json::array();
  for (const json& row : texts)
    encoded.push_back({{{"b64", serving::base64_encode(row[0].get<std::string>())}}});
  r = post(s, "/v1/models/text:predict", json{{"instances", encoded}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  expect_close(r.doc().at("predictions"), f["outputs"][0], "b64 instances");
  // The signature says DT_STRING.
  r = get(s, "/v1/models/text/metadata");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.doc()
                .at("metadata")
                .at("signature_def")
                .at("signature_def")
                .at("serving_default")
                .at("inputs")
                .at("text")
                .at("dtype"),
            "DT_STRING");
}

TEST(StringServing, SeveralStringInputsAndAStringOutput) {
  const json& multi = fixture()["multi_input"];
  Served s(keras_model("multi_input"), "multi");
  Reply r = post(s, "/v1/models/multi:predict", json{{"inputs", multi["inputs"]}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  expect_close(r.doc().at("outputs"), multi["outputs"][0], "multi_input");

  // Numbers in, labels out (an inverted StringLookup), next to the logits.
  const json& inv = fixture()["invert_output"];
  Served t(keras_model("invert_output"), "labels");
  json instances = json::array();
  for (const json& row : inv["inputs"]["features"]) instances.push_back(row);
  r = post(t, "/v1/models/labels:predict", json{{"instances", instances}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  const json preds = r.doc().at("predictions");
  ASSERT_EQ(preds.size(), inv["outputs"][0].size());
  for (size_t k = 0; k < preds.size(); ++k) {
    EXPECT_EQ(preds[k].at("labels"), inv["outputs"][0][k]) << k;
    expect_close(preds[k].at("logits"), inv["outputs"][1][k], "logits");
  }
}

TEST(StringServing, BatchedRequestsKeepTheirOwnStrings) {
  // Requests queued together run as one batch; each gets its own rows back.
  const json& f = fixture()["text_classifier"];
  Served s(keras_model("text_classifier"), "text", {.max_batch = 8, .batch_timeout_us = 20000});
  std::vector<std::thread> clients;
  std::vector<Reply> replies(f["inputs"]["text"].size());
  for (size_t k = 0; k < replies.size(); ++k)
    clients.emplace_back([&, k] {
      json one = json::array({f["inputs"]["text"][k]});
      replies[k] = post(s, "/v1/models/text:predict", json{{"instances", one}}.dump());
    });
  for (auto& c : clients) c.join();
  for (size_t k = 0; k < replies.size(); ++k) {
    ASSERT_EQ(replies[k].status, 200) << replies[k].body;
    expect_close(replies[k].doc().at("predictions")[0], f["outputs"][0][k],
                 "request " + std::to_string(k));
  }
}

TEST(StringServing, BinaryOutputsAndBadStringsGet400) {
  // An output named "..._bytes" leaves as base64, any bytes intact.
  auto text = Input({1}, {.dtype = DType::String, .name = "raw"});
  auto lookup = layers::StringLookup({.vocabulary = std::vector<std::string>{"a", "b"}});
  auto back = layers::StringLookup(
      {.vocabulary = std::vector<std::string>{"a", std::string("\xff\x00z", 3)},
       .invert = true,
       .name = "label_bytes"});
  Served s(Functional(text, back(lookup(text))), "bin");
  Reply r = post(s, "/v1/models/bin:predict", R"({"instances": [["b"], ["a"], ["q"]]})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.doc().at("predictions"), json::parse(R"([[{"b64": "/wB6"}], [{"b64": "YQ=="}],
                                                        [{"b64": "W1VOS10="}]])"));
  // Strings where numbers go, numbers where strings go, broken base64: 400 with the place.
  struct Bad {
    std::string body, says;
  } cases[] = {
      {R"({"instances": [[1]]})", "expected a string (or {"},
      {R"({"instances": [[1]]})", "at instances[0][0], got 1"},
      {R"({"instances": [[{"b64": "YQ="}]]})", "is not base64"},
      {R"({"instances": [[{"b64": "YQ==", "x": 1}]]})", "expected a string"},
  };
  for (const Bad& c : cases) {
    Reply bad = post(s, "/v1/models/bin:predict", c.body);
    EXPECT_EQ(bad.status, 400) << c.body;
    EXPECT_NE(bad.body.find(c.says), std::string::npos) << bad.body;
  }
  // A scalar string input: each instance one string, {"b64": ...} included.
  auto word = Input({}, {.dtype = DType::String, .name = "word"});
  auto upper = layers::StringLookup(
      {.vocabulary = std::vector<std::string>{"a", "b"}, .output_mode = "one_hot"});
  Served w(Functional(word, upper(word)), "word");
  r = post(w, "/v1/models/word:predict", R"({"instances": ["b", {"b64": "YQ=="}, "zz"]})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.doc().at("predictions"), json::parse("[[0, 0, 1], [0, 1, 0], [1, 0, 0]]"));
  Served n(small_model(), "numbers");
  Reply bad = post(n, "/v1/models/numbers:predict", R"({"instances": [["a", "b", "c", "d"]]})");
  EXPECT_EQ(bad.status, 400) << bad.body;
}

TEST(StringServing, Base64MatchesRfc4648) {
  // RFC 4648 section 10.
  const std::pair<const char*, const char*> vectors[] = {{"", ""},
                                                         {"f", "Zg=="},
                                                         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},
                                                         {"foob", "Zm9vYg=="},
                                                         {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(serving::base64_encode(plain), encoded);
    EXPECT_EQ(serving::base64_decode(encoded), std::optional<std::string>(plain));
  }
  for (const char* bad : {"Zg=", "Zg", "Z===", "Zh==", "Zm9v!A==", "=Zm9", "Zg==Zg=="})
    EXPECT_EQ(serving::base64_decode(bad), std::nullopt) << bad;
}

}  // namespace
}  // namespace keras::serving_test
