// Text classification from raw text files, as Keras's "Text classification from scratch":
// text_dataset_from_directory reads a folder of class subfolders, TextVectorization learns a
// vocabulary and turns each review into token ids, and Embedding(mask_zero) + LSTM classifies.
// The reviews are written by this program into a temporary folder: a review is positive when
// it says "good" (in any case, with punctuation) more often than "bad"; other words are noise.
// Word order does not matter, counts do, and padding must be ignored (the mask does that).
// Then, as Keras's guide ends, the vectorizer and the model become one model of raw text.

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include <keras/keras.h>

namespace fs = std::filesystem;
namespace layers = keras::layers;

// Writes 1200 reviews as <folder>/{neg,pos}/NNNN.txt.
void write_reviews(const fs::path& folder) {
  const std::vector<std::string> good = {"good", "Good!", "GOOD,"}, bad = {"bad", "Bad.", "BAD;"};
  const std::vector<std::string> noise = {"the", "film", "plot", "was", "an", "actor", "really",
                                          "and", "it", "music", "scenes", "ending", "story"};
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> length(4, 16), coin(0, 2), pick(0, 1000);
  fs::create_directories(folder / "neg");
  fs::create_directories(folder / "pos");
  for (int i = 0; i < 1200; ++i) {
    std::string text;
    int n_good = 0, n_bad = 0, n = length(rng);
    for (int t = 0; t < n; ++t) {
      const int c = coin(rng);
      const auto& words = c == 0 ? good : c == 1 ? bad : noise;
      text += words[static_cast<size_t>(pick(rng)) % words.size()] + " ";
      n_good += c == 0;
      n_bad += c == 1;
    }
    if (n_good == n_bad) text += "good", ++n_good;  // no ties
    char name[16];
    std::snprintf(name, sizeof(name), "%04d.txt", i);
    std::ofstream(folder / (n_good > n_bad ? "pos" : "neg") / name) << text;
  }
}

int main() {
  try {
    keras::utils::set_random_seed(5);
    const fs::path folder = fs::temp_directory_path() / "keras_cpp_reviews";
    fs::remove_all(folder);
    write_reviews(folder);

    auto [train, test] = keras::utils::text_dataset_from_directory_split(
        folder.string(), {.seed = 1337, .validation_split = 0.2, .subset = "both"});
    std::cout << "classes: " << train.class_names->at(0) << ", " << train.class_names->at(1)
              << "; first review: " << train.texts.flat(0) << "\n";

    constexpr int64_t kSequenceLength = 17;
    auto vectorize = layers::TextVectorization({.max_tokens = 40,
                                                .output_sequence_length = kSequenceLength});
    vectorize->adapt(train.texts);  // "good!" and "GOOD," both become "good"
    auto to_ids = [&](const keras::StringTensor& texts) { return vectorize(texts); };

    auto model = keras::Sequential({
        keras::Input({kSequenceLength}, {.dtype = keras::DType::Int64}),
        layers::Embedding(vectorize->vocabulary_size(), 16, {.mask_zero = true}),
        layers::LSTM(16),
        layers::Dense(1, {.activation = "sigmoid"}),
    });
    model->compile({.optimizer = keras::optimizers::Adam({.learning_rate = 1e-2}),
                    .loss = "binary_crossentropy",
                    .metrics = {"accuracy"}});
    model->fit(train.map_texts(to_ids), {.epochs = 8, .verbose = 2});
    keras::Logs scores = model->evaluate(test.map_texts(to_ids), {.verbose = 0});
    std::cout << "test accuracy: " << scores.at("accuracy") << "\n";

    // Keras's end-to-end model: raw strings in, the vectorizer and the trained model inside,
    // evaluated on the dataset of strings itself and saved as one .keras file.
    auto text = keras::Input({}, {.dtype = keras::DType::String, .name = "review"});
    auto end_to_end = keras::Functional(text, model(vectorize(text)));
    end_to_end->compile({.loss = "binary_crossentropy", .metrics = {"accuracy"}});
    keras::Logs raw = end_to_end->evaluate(test.dataset(), {.verbose = 0});
    std::cout << "end-to-end test accuracy (raw text in): " << raw.at("accuracy") << "\n";
    const keras::Tensor p = end_to_end->predict(
        keras::StringTensor({"Good film, GOOD music!", "bad plot, bad ending"}), {.verbose = 0})
                                .single();
    std::cout << "P(positive): " << p.to_vector<float>()[0] << ", " << p.to_vector<float>()[1]
              << "\n";
    end_to_end->save((fs::temp_directory_path() / "keras_cpp_reviews.keras").string());
    fs::remove_all(folder);
    const bool same = std::abs(raw.at("accuracy") - scores.at("accuracy")) < 1e-6;
    return scores.at("accuracy") > 0.85 && same ? 0 : 1;
  } catch (const keras::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
