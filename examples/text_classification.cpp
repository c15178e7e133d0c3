// Text classification: token sequences of different lengths, padded with pad_sequences, fed
// through a keras::data::Dataset (shuffle, batch, prefetch) into Embedding(mask_zero) + LSTM.
// The synthetic task: a "review" is positive when it mentions the token GOOD more often than
// the token BAD; other tokens are noise. Word order does not matter, counts do, and padding
// must be ignored (the mask does that).

#include <iostream>
#include <random>

#include <keras/keras.h>

namespace layers = keras::layers;

int main() {
  try {
    keras::utils::set_random_seed(5);
    constexpr int kVocabulary = 30, kGood = 1, kBad = 2;
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> length(4, 16), token(3, kVocabulary - 1), coin(0, 2);
    std::vector<std::vector<int>> reviews;
    std::vector<float> labels;
    for (int i = 0; i < 1200; ++i) {
      std::vector<int> review;
      int good = 0, bad = 0, n = length(rng);
      for (int t = 0; t < n; ++t) {
        int c = coin(rng);
        review.push_back(c == 0 ? kGood : c == 1 ? kBad : token(rng));
        good += c == 0;
        bad += c == 1;
      }
      if (good == bad) review.push_back(kGood), ++good;  // no ties
      reviews.push_back(review);
      labels.push_back(good > bad ? 1.0f : 0.0f);
    }
    keras::Tensor x = keras::utils::pad_sequences(reviews, {.maxlen = 17});
    keras::Tensor y = keras::Tensor::from_vector(labels, {static_cast<int64_t>(labels.size()), 1});
    auto [train, test] = keras::utils::split_dataset(
        keras::data::Dataset::from_tensor_slices(x, y), {.left_size = 0.8});

    auto model = keras::Sequential({
        keras::Input({17}, {.dtype = keras::DType::Int32}),
        layers::Embedding(kVocabulary, 16, {.mask_zero = true}),
        layers::LSTM(16),
        layers::Dense(1, {.activation = "sigmoid"}),
    });
    model->compile({.optimizer = keras::optimizers::Adam({.learning_rate = 1e-2}),
                    .loss = "binary_crossentropy",
                    .metrics = {"accuracy"}});
    model->fit(train.shuffle(1000, 7).batch(32).prefetch(2), {.epochs = 8, .verbose = 2});
    keras::Logs scores = model->evaluate(test.batch(64), {.verbose = 0});
    std::cout << "test accuracy: " << scores.at("accuracy") << "\n";
    return scores.at("accuracy") > 0.85 ? 0 : 1;
  } catch (const keras::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
