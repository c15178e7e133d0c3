// model.summary(): the table layout against rich (tools/golden/summary_tables.py renders the
// same rows with rich exactly as keras/src/utils/summary_utils.py does), and the content
// against Keras's documented numbers.

#include <gtest/gtest.h>

#include <fstream>

#include "golden.h"
#include "keras/keras.h"
#include "models/summary_table.h"

namespace keras {
namespace {

TEST(SummaryTable, MatchesRich) {
  std::ifstream in(std::string(KERAS_GOLDEN_DIR) + "/summary_tables.json");
  ASSERT_TRUE(in.good());
  test::json cases = test::json::parse(in);
  ASSERT_GE(cases.size(), 5u);
  for (const auto& c : cases) {
    detail::SummaryTable t;
    t.header = c["header"].get<std::vector<std::string>>();
    t.positions = c["positions"].get<std::vector<double>>();
    for (const auto& j : c["justify"]) {
      std::string s = j.get<std::string>();
      t.justify.push_back(s == "right" ? detail::Justify::Right
                                       : s == "center" ? detail::Justify::Center
                                                       : detail::Justify::Left);
    }
    t.rows = c["rows"].get<std::vector<std::vector<std::string>>>();
    EXPECT_EQ(detail::render_table(t, c["line_length"].get<int>()), c["expected"].get<std::string>())
        << c["name"];
  }
}

TEST(Summary, SequentialMatchesKeras) {
  // The numbers Keras prints for Input(784) -> Dense(64) -> Dense(10): 50,890 parameters,
  // 198.79 KB (KERAS_REFERENCE.md section 1.8's model).
  backend::clear_session();
  auto model = Sequential({Input({784}), layers::Dense(64, {.activation = "relu"}),
                           layers::Dense(10, {.activation = "softmax"})});
  std::string s = model->summary_string({.line_length = 88});
  EXPECT_NE(s.find("Model: \"sequential\""), std::string::npos) << s;
  EXPECT_NE(s.find("\u2502 dense (Dense)"), std::string::npos) << s;
  EXPECT_NE(s.find("(None, 64)"), std::string::npos) << s;
  EXPECT_NE(s.find("50,240"), std::string::npos) << s;
  EXPECT_NE(s.find(" Total params: 50,890 (198.79 KB)"), std::string::npos) << s;
  EXPECT_NE(s.find(" Trainable params: 50,890 (198.79 KB)"), std::string::npos) << s;
  EXPECT_NE(s.find(" Non-trainable params: 0 (0.00 B)"), std::string::npos) << s;
}

TEST(Summary, FunctionalShowsConnections) {
  backend::clear_session();
  auto x = Input({4});
  auto h = layers::Dense(2)(x);
  auto y = layers::Dense(3)(x);
  auto two = Functional(std::vector<KerasTensor>{x}, std::vector<KerasTensor>{h, y});
  std::string s = two->summary_string({.line_length = 108});
  EXPECT_NE(s.find("Connected to"), std::string::npos) << s;
  EXPECT_NE(s.find("input_layer[0][0]"), std::string::npos) << s;
}

}  // namespace
}  // namespace keras
