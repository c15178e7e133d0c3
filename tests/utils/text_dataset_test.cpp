// text_dataset_from_directory against Keras 3.15 (tools/keras_oracle/text_dataset.py): the
// files, their order for a seed, the documents, labels and class names Keras gives.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "keras/core/errors.h"
#include "keras/ops/ops.h"
#include "keras/utils/text_dataset.h"
#include "oracle_fixture.h"

namespace keras {
namespace {

using json = nlohmann::json;

std::string root() { return std::string(KERAS_ORACLE_DIR) + "/text_dataset"; }

utils::TextDatasetOptions options_of(const json& o) {
  utils::TextDatasetOptions opts;
  opts.verbose = false;
  if (o.contains("labels")) {
    if (o["labels"].is_null()) {
      opts.labels = std::monostate{};
    } else {
      opts.labels = o["labels"].get<std::vector<int64_t>>();
    }
  }
  if (o.contains("label_mode")) opts.label_mode = o["label_mode"].get<std::string>();
  if (o.contains("class_names"))
    opts.class_names = o["class_names"].get<std::vector<std::string>>();
  if (o.contains("batch_size")) opts.batch_size = o["batch_size"].get<int64_t>();
  if (o.contains("max_length")) opts.max_length = o["max_length"].get<int64_t>();
  opts.shuffle = o["shuffle"].get<bool>();
  if (o.contains("seed")) opts.seed = o["seed"].get<uint64_t>();
  if (o.contains("validation_split")) opts.validation_split = o["validation_split"].get<double>();
  if (o.contains("subset")) opts.subset = o["subset"].get<std::string>();
  return opts;
}

TEST(TextDataset, FilesOrderTextsAndLabelsAsKeras) {
  const json& cases = test::oracle_json("text_dataset")["cases"];
  ASSERT_EQ(cases.size(), 8u);
  for (const json& c : cases) {
    const std::string name = c["name"];
    utils::TextDataset d = utils::text_dataset_from_directory(root(), options_of(c["options"]));
    std::vector<std::string> files;
    for (const std::string& p : d.file_paths)
      files.push_back(std::filesystem::relative(p, root()).string());
    EXPECT_EQ(files, c["files"].get<std::vector<std::string>>()) << name;
    if (c["class_names"].is_null()) {
      EXPECT_FALSE(d.class_names.has_value()) << name;
    } else {
      EXPECT_EQ(*d.class_names, c["class_names"].get<std::vector<std::string>>()) << name;
    }
    if (c.contains("texts")) {
      EXPECT_EQ(d.texts.values(), c["texts"].get<std::vector<std::string>>()) << name;
    }
    if (c["labels"].empty()) {
      EXPECT_FALSE(d.labels.defined()) << name;
      continue;
    }
    std::vector<double> want;
    for (const json& row : c["labels"]) {
      if (row.is_array()) {
        for (const json& v : row) want.push_back(v.get<double>());
      } else {
        want.push_back(row.get<double>());
      }
    }
    EXPECT_EQ(d.labels.to_vector<double>(), want) << name;
  }
}

TEST(TextDataset, MapTextsBatchesVectorizedDocuments) {
  utils::TextDataset d = utils::text_dataset_from_directory(
      root(), {.batch_size = 8, .shuffle = false, .verbose = false});
  // The length of each document as its one feature.
  data::Dataset ds = d.map_texts([](const StringTensor& t) {
    std::vector<float> lengths;
    for (const std::string& s : t.values()) lengths.push_back(static_cast<float>(s.size()));
    return Tensor::from_vector(lengths, {t.size(), 1});
  });
  int64_t seen = 0;
  for (const data::Element& e : ds) {
    const Tensor& x = e.x.single();
    const Tensor& y = e.y.single();
    for (int64_t i = 0; i < x.shape()[0]; ++i, ++seen)
      EXPECT_EQ(ops::slice(x, {i, 0}, {1, 1}).item<float>(),
                static_cast<float>(d.texts.flat(seen).size()));
    EXPECT_EQ(y.shape()[0], x.shape()[0]);
  }
  EXPECT_EQ(seen, 23);
}

TEST(TextDataset, TheDatasetYieldsStringBatches) {
  // Keras's dataset: (string batch, label batch), the documents in file order unshuffled.
  utils::TextDataset d = utils::text_dataset_from_directory(
      root(), {.batch_size = 8, .shuffle = false, .verbose = false});
  int64_t seen = 0;
  for (const data::Element& e : d.dataset()) {
    const Tensor& x = e.x.single();
    ASSERT_EQ(x.dtype(), DType::String);
    ASSERT_EQ(x.ndim(), 1);
    const StringTensor texts = x.to_strings();
    for (const std::string& text : texts.values()) EXPECT_EQ(text, d.texts.flat(seen++));
    EXPECT_EQ(e.y.single().shape()[0], x.shape()[0]);
  }
  EXPECT_EQ(seen, 23);
  // Shuffled: every document once per epoch, in another order.
  utils::TextDataset s = utils::text_dataset_from_directory(
      root(), {.batch_size = 4, .seed = 3, .verbose = false});
  std::vector<std::string> texts;
  for (const data::Element& e : s.dataset()) {
    const StringTensor batch = e.x.single().to_strings();
    texts.insert(texts.end(), batch.values().begin(), batch.values().end());
  }
  std::vector<std::string> sorted = texts, all = s.texts.values();
  std::sort(sorted.begin(), sorted.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(sorted, all);
}

TEST(TextDataset, ArgumentErrorsAsKeras) {
  EXPECT_THROW(utils::text_dataset_from_directory(root(), {.label_mode = "sparse"}), ValueError);
  EXPECT_THROW(utils::text_dataset_from_directory(root(), {.validation_split = 0.2,
                                                           .subset = "training"}),
               ValueError);  // shuffling needs a seed
  EXPECT_THROW(utils::text_dataset_from_directory(root(), {.label_mode = "binary"}),
               ValueError);  // three classes
  EXPECT_THROW(utils::text_dataset_from_directory(root() + "/neg/none", {.verbose = false}),
               Error);
}

}  // namespace
}  // namespace keras
