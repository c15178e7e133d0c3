// audio_dataset_from_directory and its WAV decoding against Keras 3.15 and TensorFlow
// (tools/keras_oracle/audio_dataset.py): tf.audio.decode_wav's values and refusals, the files
// and their order for a seed, every batch's audio (exact) and labels, the class names, and
// Keras's argument errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "keras/core/errors.h"
#include "keras/utils/audio_dataset.h"
#include "oracle_fixture.h"
#include "utils/audio/decode_wav.h"

namespace keras {
namespace {

using json = nlohmann::json;

std::string root() {
  return std::string(KERAS_ORACLE_DIR) + "/audio_dataset";
}
std::string bad_root() {
  return std::string(KERAS_ORACLE_DIR) + "/audio_dataset_bad";
}
const json& oracle() {
  return test::oracle_json("audio_dataset");
}

utils::AudioDatasetOptions options_of(const json& o) {
  utils::AudioDatasetOptions opts;
  opts.verbose = false;
  if (o.contains("labels")) {
    if (o["labels"].is_null()) {
      opts.labels = std::monostate{};
    } else if (o["labels"].is_string()) {
      opts.labels = o["labels"].get<std::string>();
    } else {
      opts.labels = o["labels"].get<std::vector<int64_t>>();
    }
  }
  if (o.contains("label_mode")) {
    if (o["label_mode"].is_null()) {
      opts.label_mode.reset();
    } else {
      opts.label_mode = o["label_mode"].get<std::string>();
    }
  }
  if (o.contains("class_names"))
    opts.class_names = o["class_names"].get<std::vector<std::string>>();
  if (o.contains("batch_size")) {
    if (o["batch_size"].is_null()) {
      opts.batch_size.reset();
    } else {
      opts.batch_size = o["batch_size"].get<int64_t>();
    }
  }
  if (o.contains("output_sequence_length"))
    opts.output_sequence_length = o["output_sequence_length"].get<int64_t>();
  if (o.contains("sampling_rate")) opts.sampling_rate = o["sampling_rate"].get<int64_t>();
  if (o.contains("ragged")) opts.ragged = o["ragged"].get<bool>();
  if (o.contains("shuffle")) opts.shuffle = o["shuffle"].get<bool>();
  if (o.contains("seed")) opts.seed = o["seed"].get<uint64_t>();
  if (o.contains("validation_split")) opts.validation_split = o["validation_split"].get<double>();
  if (o.contains("subset")) opts.subset = o["subset"].get<std::string>();
  return opts;
}

std::vector<std::string> relative(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths) out.push_back(std::filesystem::relative(p, root()).string());
  return out;
}

// Keras's label batches flattened row by row.
std::vector<double> flat(const json& rows) {
  std::vector<double> out;
  for (const json& r : rows) {
    if (r.is_array()) {
      for (const double v : flat(r)) out.push_back(v);
    } else {
      out.push_back(r.get<double>());
    }
  }
  return out;
}

void expect_same_audio(const Tensor& got, const Tensor& want, const std::string& what) {
  ASSERT_EQ(got.dtype(), DType::Float32) << what;
  ASSERT_EQ(got.shape(), want.shape()) << what;
  EXPECT_EQ(got.to_vector<float>(), want.to_vector<float>()) << what;
}

TEST(AudioDataset, DecodesWavAsTensorFlow) {
  const json& corpus = oracle()["corpus"];
  ASSERT_EQ(corpus.size(), 12u);
  for (const json& file : corpus) {
    const std::string name = file;
    const utils::detail::WavAudio wav = utils::detail::decode_wav(root() + "/" + name);
    expect_same_audio(wav.audio, test::oracle_array("audio_dataset", "decode/" + name), name);
    EXPECT_EQ(wav.sample_rate,
              test::oracle_array("audio_dataset", "decode_rate/" + name).item<int32_t>())
        << name;
  }
  // desired_samples pads with zeros or cuts, as tf.audio.decode_wav.
  const Tensor full = utils::detail::decode_wav(root() + "/dog/x1.wav").audio;
  const Tensor longer = utils::detail::decode_wav(root() + "/dog/x1.wav", 25).audio;
  const Tensor shorter = utils::detail::decode_wav(root() + "/dog/x1.wav", 4).audio;
  ASSERT_EQ(longer.shape(), Shape({25, 2}));
  ASSERT_EQ(shorter.shape(), Shape({4, 2}));
  std::vector<float> want = full.to_vector<float>();
  EXPECT_EQ(shorter.to_vector<float>(), std::vector<float>(want.begin(), want.begin() + 8));
  want.resize(50, 0.0f);
  EXPECT_EQ(longer.to_vector<float>(), want);
}

TEST(AudioDataset, RefusesTheWavFilesTensorFlowRefuses) {
  // What keras-cpp's message must name for each file: TensorFlow's reason, in its words where
  // they fit (libsndfile itself refuses a file without channels or with two data chunks).
  const std::map<std::string, std::string> reason = {
      {"block_align", "block align is 4, expected 2"},
      {"byte_rate", "byte rate is 1, expected 16000"},
      {"extensible", "fmt chunk is 40 bytes, TensorFlow expects 16 or 18"},
      {"float32", "audio format is 3"},
      {"fmt_size_20", "fmt chunk is 20 bytes"},
      {"half_frame", "not a whole number of 4-byte frames"},
      {"no_channels", "Channel count is zero"},
      {"not_riff", "found \"FORM\""},
      {"pcm24", "24-bit samples"},
      {"pcm32", "32-bit samples"},
      {"pcm8", "8-bit samples"},
      {"rifx", "found \"RIFX\""},
      {"truncated", "declares 16 bytes but the file holds 12 (truncated)"},
      // libsndfile refuses it itself, with a message of its own ("SF_INFO struct incomplete").
      {"two_data_chunks", "libsndfile cannot read it"}};
  const json& refused = oracle()["bad_files"];
  ASSERT_EQ(refused.size(), reason.size());
  for (const auto& [name, tf_error] : refused.items()) {
    const std::string path = bad_root() + "/" + name + ".wav";
    try {
      utils::detail::decode_wav(path);
      ADD_FAILURE() << name << " decoded; TensorFlow says: " << tf_error.get<std::string>();
    } catch (const IOError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("16-bit PCM"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(reason.at(name)), std::string::npos)
          << e.what() << "\nTensorFlow: " << tf_error.get<std::string>();
    }
  }
}

TEST(AudioDataset, FilesBatchesAndLabelsAsKeras) {
  const json& cases = oracle()["cases"];
  ASSERT_EQ(cases.size(), 14u);
  for (const json& c : cases) {
    const std::string name = c["name"];
    utils::AudioDatasetOptions options = options_of(c["options"]);
    const utils::AudioDataset d = [&] {
      if (name != "both_training" && name != "both_validation")
        return utils::audio_dataset_from_directory(root(), options);
      auto [train, val] = utils::audio_dataset_from_directory_split(root(), options);
      return name == "both_training" ? train : val;
    }();
    EXPECT_EQ(relative(d.file_paths), c["files"].get<std::vector<std::string>>()) << name;
    if (c["class_names"].is_null()) {
      EXPECT_FALSE(d.class_names.has_value()) << name;
    } else {
      EXPECT_EQ(d.class_names, c["class_names"].get<std::vector<std::string>>()) << name;
    }
    if (!c.contains("shapes")) continue;  // shuffled by tf.data: only the file order compares
    const json& shapes = c["shapes"];
    const bool labelled = !c["labels"].empty();
    std::vector<double> labels;
    size_t batch = 0;
    auto it = d.dataset.iterator();
    for (;; ++batch) {
      std::optional<data::Element> e;
      if (!c["error_at"].is_null() && batch == c["error_at"].get<size_t>()) {
        EXPECT_THROW(it.next(), data::ProducerError) << name << " batch " << batch;
        break;
      }
      e = it.next();
      if (!e) break;
      ASSERT_LT(batch, shapes.size()) << name;
      expect_same_audio(e->x.single(),
                        test::oracle_array("audio_dataset", name + "/" + std::to_string(batch)),
                        name + " batch " + std::to_string(batch));
      EXPECT_EQ(e->y.defined(), labelled) << name;
      if (labelled) {
        const Tensor& y = e->y.single();
        EXPECT_EQ(y.dtype(), options.label_mode == "int" ? DType::Int32 : DType::Float32) << name;
        for (const double v : y.to_vector<double>()) labels.push_back(v);
      }
    }
    EXPECT_EQ(batch, c["error_at"].is_null() ? shapes.size() : c["error_at"].get<size_t>()) << name;
    if (labelled) {
      EXPECT_EQ(labels, flat(c["labels"])) << name;
    }
  }
}

TEST(AudioDataset, ShuffledDatasetKeepsEachFileWithItsLabel) {
  // Keras's per-epoch shuffle is TensorFlow's random stream, not reproduced: check instead that
  // every epoch holds each file once, with its own label, and that two epochs differ.
  const utils::AudioDataset plain = utils::audio_dataset_from_directory(
      root(), {.batch_size = std::nullopt, .shuffle = false, .verbose = false});
  std::map<std::vector<float>, int32_t> label_of;
  for (const data::Element& e : plain.dataset)
    label_of[e.x.single().to_vector<float>()] = e.y.single().item<int32_t>();
  ASSERT_EQ(label_of.size(), 12u);  // every file's audio is distinct

  const utils::AudioDataset shuffled = utils::audio_dataset_from_directory(
      root(), {.batch_size = std::nullopt, .seed = 3, .verbose = false});
  std::vector<std::vector<std::vector<float>>> epochs(2);
  for (auto& epoch : epochs) {
    for (const data::Element& e : shuffled.dataset) {
      const std::vector<float> audio = e.x.single().to_vector<float>();
      ASSERT_EQ(label_of.count(audio), 1u);
      EXPECT_EQ(label_of[audio], e.y.single().item<int32_t>());
      epoch.push_back(audio);
    }
    std::vector<std::vector<float>> sorted = epoch;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::unique(sorted.begin(), sorted.end()) - sorted.begin(), 12);
  }
  EXPECT_NE(epochs[0], epochs[1]);
}

TEST(AudioDataset, ArgumentErrorsAsKeras) {
  const json& errors = oracle()["argument_errors"];
  ASSERT_EQ(errors.size(), 13u);
  for (const json& e : errors) {
    const std::string name = e["name"], type = e["type"], needle = e["needle"];
    try {
      utils::audio_dataset_from_directory(root(), options_of(e["options"]));
      ADD_FAILURE() << name << " accepted; Keras: " << e["message"].get<std::string>();
    } catch (const NotImplementedError& err) {
      // Keras's ImportError: tensorflow-io's resampler, which keras-cpp does not have.
      EXPECT_EQ(type, "ImportError") << name << ": " << err.what();
      EXPECT_NE(std::string(err.what()).find(needle), std::string::npos) << err.what();
    } catch (const ValueError& err) {
      EXPECT_EQ(type, "ValueError") << name << ": " << err.what();
      EXPECT_NE(std::string(err.what()).find(needle), std::string::npos) << err.what();
    }
  }
  // keras-cpp's own refusals: no ragged tensors, and "both" has its own function.
  EXPECT_THROW(utils::audio_dataset_from_directory(root(), {.ragged = true, .verbose = false}),
               NotImplementedError);
  EXPECT_THROW(utils::audio_dataset_from_directory(
                   root(), {.seed = 1, .validation_split = 0.5, .subset = "both"}),
               ValueError);
  EXPECT_THROW(utils::audio_dataset_from_directory(root(), {.batch_size = 0}), ValueError);
  EXPECT_THROW(utils::audio_dataset_from_directory(bad_root() + "/none", {.verbose = false}),
               Error);
}

TEST(AudioDataset, ARefusedFileFailsItsBatchNamingTheFile) {
  // The bad files sit in one folder, read as unlabelled data: the first batch holds them.
  utils::AudioDataset d = utils::audio_dataset_from_directory(
      bad_root(), {.labels = std::monostate{}, .shuffle = false, .verbose = false});
  ASSERT_EQ(d.file_paths.size(), oracle()["bad_files"].size());
  auto it = d.dataset.iterator();
  try {
    it.next();
    ADD_FAILURE() << "a batch of refused files decoded";
  } catch (const data::ProducerError& e) {
    EXPECT_NE(e.cause().find(bad_root()), std::string::npos) << e.cause();
  }
}

}  // namespace
}  // namespace keras
