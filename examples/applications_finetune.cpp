// Transfer learning with keras::applications: a MobileNet base learns one task, its weights
// are saved, and a new model built by MobileNet(weights = that file) reuses them for another
// task: first its new classifier alone on the frozen base (Keras's usual recipe), then the
// whole model at a small learning rate.
//
// Fashion-MNIST (Debian's dataset-fashion-mnist) split in two: the "pretraining" task is the
// five garment classes (T-shirt, trouser, pullover, dress, coat), the new task the other five
// (sandal, shirt, sneaker, bag, ankle boot). Images are padded to 32x32 (MobileNet's smallest
// input), given three channels and scaled by mobilenet::preprocess_input, as one would prepare
// photographs for an ImageNet base. Small batches: a frozen base normalizes with the moving
// statistics of its BatchNormalization layers (momentum 0.99), which need a few hundred steps
// of pretraining to settle (MobileNetV2's momentum of 0.999 would need thousands).
//
//   ./applications_finetune                          # 12000 images per task, 2 epochs each step
//   ./applications_finetune --samples 12000 --epochs 1     # the test suite's run (about a minute)

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include <keras/keras.h>

namespace ops = keras::ops;
namespace layers = keras::layers;
namespace apps = keras::applications;

namespace {

struct Task {
  keras::Tensor x, y;
};

// The images of `classes` (labels renumbered from 0), as 32x32 RGB pixels in [0, 255] scaled
// for MobileNet.
Task select(const keras::Tensor& images, const keras::Tensor& labels, int first_class,
            int64_t limit) {
  std::vector<int64_t> rows, targets;
  for (int64_t i = 0; const uint8_t label : labels.to_vector<uint8_t>()) {
    if (label >= first_class && label < first_class + 5 &&
        static_cast<int64_t>(rows.size()) < limit) {
      rows.push_back(i);
      targets.push_back(label - first_class);
    }
    ++i;
  }
  const int64_t n = static_cast<int64_t>(rows.size());
  keras::Tensor x = ops::take(images, ops::convert_to_tensor(rows), 0);
  x = ops::cast(ops::reshape(x, {n, 28, 28, 1}), keras::DType::Float32);
  x = ops::pad(x, {{0, 0}, {2, 2}, {2, 2}, {0, 0}});
  x = ops::repeat(x, 3, 3);
  return {apps::mobilenet::preprocess_input(x), ops::convert_to_tensor(targets)};
}

// A MobileNet base (alpha 0.25, global average pooling) with a new 5-class classifier.
keras::ModelPtr<keras::FunctionalModel> classifier(const std::string& weights,
                                                   keras::ModelPtr<keras::FunctionalModel>* base_out) {
  auto base = apps::MobileNet({.include_top = false, .weights = weights,
                               .input_shape = keras::Shape{32, 32, 3}, .pooling = "avg"},
                              {.alpha = 0.25});
  auto inputs = keras::Input({32, 32, 3});
  auto features = base(inputs);
  auto outputs = layers::Dense(5, {.activation = "softmax", .name = "new_head"})(features);
  *base_out = base;
  return keras::Functional(inputs, outputs);
}

double accuracy(keras::Model& model, const Task& task) {
  auto logs = model.evaluate(task.x, task.y, {.batch_size = 256, .verbose = 0});
  return logs.at("accuracy");
}

}  // namespace

int main(int argc, char** argv) {
  int64_t samples = 12000;
  int epochs = 2;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--samples")) samples = std::atoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--epochs")) epochs = std::atoi(argv[i + 1]);
  }
  try {
    keras::utils::set_random_seed(42);
    auto [train, test] = keras::datasets::fashion_mnist::load_data();
    const Task garments = select(train.first, train.second, 0, samples);
    const Task others = select(train.first, train.second, 5, samples);
    const Task others_test = select(test.first, test.second, 5, 5000);

    // 1. "Pretraining": the whole network learns the garment classes.
    keras::ModelPtr<keras::FunctionalModel> base;
    auto pretrain = classifier("", &base);
    pretrain->compile({.optimizer = keras::optimizers::Adam(2e-3),
                       .loss = "sparse_categorical_crossentropy", .metrics = {"accuracy"}});
    pretrain->fit(garments.x, garments.y, {.batch_size = 16, .epochs = epochs, .verbose = 2});
    const std::string weights =
        (std::filesystem::temp_directory_path() / "mobilenet_garments.weights.h5").string();
    base->save_weights(weights);
    std::cout << "pretrained base saved to " << weights << "\n";

    // 2. The new task on the pretrained base, loaded by the applications API from the file.
    auto model = classifier(weights, &base);
    base->set_trainable(false);
    model->compile({.optimizer = keras::optimizers::Adam(1e-3),
                    .loss = "sparse_categorical_crossentropy", .metrics = {"accuracy"}});
    std::cout << "trainable weights with the base frozen: " << model->trainable_weights().size()
              << " of " << model->weights().size() << "\n";
    model->fit(others.x, others.y, {.batch_size = 32, .epochs = epochs, .verbose = 2});
    const double frozen = accuracy(*model, others_test);

    // 3. Fine-tuning everything at a tenth of the learning rate (recompiled, as in Keras, so
    //    the change of trainable weights takes effect).
    base->set_trainable(true);
    model->compile({.optimizer = keras::optimizers::Adam(1e-4),
                    .loss = "sparse_categorical_crossentropy", .metrics = {"accuracy"}});
    model->fit(others.x, others.y, {.batch_size = 32, .epochs = 1, .verbose = 2});
    const double tuned = accuracy(*model, others_test);
    std::filesystem::remove(weights);

    std::cout << "new task, test accuracy: " << frozen << " with the base frozen, " << tuned
              << " after fine-tuning\n";
    // Five classes: chance is 0.2. Even a short run must beat it clearly.
    if (tuned < 0.5) {
      std::cerr << "applications_finetune: accuracy " << tuned << " is too low\n";
      return 1;
    }
  } catch (const keras::Error& e) {
    std::cerr << "applications_finetune: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
