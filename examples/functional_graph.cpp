// A Functional graph as people build them in Keras 3: a pretrained-style base model nested in
// the model, an LSTM whose states start a GRU, and keras::ops on symbolic tensors, which
// become nodes of the graph as in Keras. Trained briefly, saved as .keras (which Python Keras
// opens: scripts/interop.sh checks it), loaded back and checked to predict the same.

#include <cmath>
#include <iostream>

#include "functional_graph_model.h"

int main(int argc, char** argv) {
  namespace ops = keras::ops;
  try {
    const std::string path = argc > 1 ? argv[1] : "functional_graph.keras";
    keras::utils::set_random_seed(24);
    auto model = functional_graph_model();
    model->summary({.expand_nested = true});

    const int64_t n = 256;
    keras::TensorList x = {keras::random::normal({n, 16}), keras::random::normal({n, 5, 3}),
                           keras::random::normal({n, 6}), keras::random::normal({n, 6})};
    // The class depends on the image features. Only the classifier output has a loss (the
    // encoder's state output is for inference), as in Keras: outputs left out of the loss map
    // get none.
    keras::Tensor y = ops::argmax(ops::slice(x[0], {0, 0}, {n, 3}), 1);
    model->compile(
        {.optimizer = keras::optimizers::Adam({.learning_rate = 1e-2}),
         .loss = std::map<std::string, keras::losses::LossArg>{{"classifier",
                                                                "sparse_categorical_crossentropy"}},
         .metrics = std::map<std::string, std::vector<keras::metrics::MetricArg>>{
             {"classifier", {"accuracy"}}}});
    keras::TensorStruct targets = std::map<std::string, keras::Tensor>{{"classifier", y}};
    auto history = model->fit(x, targets, {.batch_size = 32, .epochs = 15, .verbose = 0});
    double accuracy = history->history.at("classifier_accuracy").back();
    std::cout << "training accuracy: " << accuracy << "\n";

    model->save(path);
    auto loaded = keras::saving::load_model(path);
    keras::TensorList before = model->predict(x, {.verbose = 0}).flat();
    keras::TensorList after = loaded->predict(x, {.verbose = 0}).flat();
    double worst = 0;
    for (size_t i = 0; i < before.size(); ++i)
      worst = std::max(worst, ops::max(ops::abs(before[i] - after[i])).item<double>());
    std::cout << "saved to " << path << "; reloaded predictions differ by at most " << worst
              << "\n";
    return accuracy > 0.8 && worst < 1e-6 ? 0 : 1;
  } catch (const keras::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
