// A keras-cpp model trained by a plain LibTorch loop: to_torch_module gives a torch::nn::Module
// whose parameters are the keras weights and whose forward is differentiable for
// torch::autograd, so torch::optim::Adam trains it; model->predict then uses the new weights.

#include <keras/keras.h>
#include <keras/torch/interop.h>
#include <torch/torch.h>

#include <cstdio>

namespace layers = keras::layers;
using keras::torch_interop::from_torch;
using keras::torch_interop::to_torch_module;

int main() {
  try {
    // The torch backend: keras tensors in ATen memory, so from_torch's views meet the weights.
    keras::backend::set_default("torch");
    keras::utils::set_random_seed(3);
    torch::manual_seed(3);

    // Three Gaussian blobs in 2-D, labelled by blob.
    const int64_t n = 600;
    at::Tensor labels = torch::arange(n, torch::kLong) % 3;
    at::Tensor centers = torch::tensor({{0.0f, 2.0f}, {-2.0f, -1.0f}, {2.0f, -1.0f}});
    at::Tensor x = centers.index_select(0, labels) + 0.7 * torch::randn({n, 2});

    auto model = keras::Sequential({
        keras::Input({2}), layers::Dense(32, {.activation = "relu"}),
        layers::Dense(32, {.activation = "relu"}),
        layers::Dense(3),  // logits
    });
    auto module = to_torch_module(model);
    torch::optim::Adam adam(module->parameters(), torch::optim::AdamOptions(1e-2));

    double loss_value = 0;
    for (int epoch = 0; epoch < 30; ++epoch) {
      at::Tensor order = torch::randperm(n);
      for (int64_t start = 0; start < n; start += 60) {
        at::Tensor idx = order.slice(0, start, start + 60);
        adam.zero_grad();
        at::Tensor loss = torch::nn::functional::cross_entropy(
            module->forward(x.index_select(0, idx)), labels.index_select(0, idx));
        loss.backward();
        adam.step();
        loss_value = loss.item<double>();
      }
    }

    // The keras model itself now classifies the blobs.
    keras::Tensor logits = model->predict(from_torch(x), {.verbose = 0}).single();
    keras::Tensor predicted = keras::ops::argmax(logits, -1);
    const double accuracy =
        keras::ops::mean(
            keras::ops::cast(keras::ops::equal(predicted, from_torch(labels)), keras::float32))
            .item<double>();
    std::printf("final loss %.4f\nkeras predict accuracy %.3f\n", loss_value, accuracy);
    return accuracy > 0.9 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
