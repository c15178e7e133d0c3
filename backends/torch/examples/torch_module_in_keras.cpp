// A LibTorch module inside a keras-cpp model: a torch MLP block, wrapped as a keras layer
// (Keras's TorchModuleWrapper), between two Dense layers, trained with model.fit. The block's
// gradients come from torch::autograd, the rest from keras-cpp; its parameters are the keras
// weights, so training updates the torch module itself.

#include <keras/keras.h>
#include <keras/torch/interop.h>
#include <torch/torch.h>

#include <cstdio>

namespace ops = keras::ops;
namespace layers = keras::layers;
using keras::torch_interop::TorchModuleWrapper;

int main() {
  try {
    keras::utils::set_random_seed(7);
    torch::manual_seed(7);

    // A plain LibTorch block, as a LibTorch user already has it.
    torch::nn::Sequential block(torch::nn::Linear(16, 32), torch::nn::ReLU(),
                                torch::nn::Linear(32, 16), torch::nn::ReLU());

    auto model = keras::Sequential({
        keras::Input({4}),
        layers::Dense(16, {.activation = "relu"}),
        TorchModuleWrapper(block),
        layers::Dense(1),
    });
    model->summary();
    model->compile({.optimizer = keras::optimizers::Adam({.learning_rate = 3e-3}),
                    .loss = "mse",
                    .metrics = {"mae"}});

    // y = sin(x0) + x1 * x2 - 0.5 x3: a smooth target an MLP learns quickly.
    keras::Tensor x = keras::random::normal({1024, 4});
    auto col = [&](int i) { return x.slice({keras::Slice(), keras::Slice(i, i + 1)}); };
    keras::Tensor y = ops::subtract(ops::add(ops::sin(col(0)), ops::multiply(col(1), col(2))),
                                    ops::multiply(col(3), 0.5));

    at::Tensor first_weight = block->parameters()[0].detach().clone();
    const double initial = model->evaluate(x, y, {.verbose = 0}).at("loss");
    model->fit(x, y, {.batch_size = 64, .epochs = 20, .verbose = 0, .validation_split = 0.1});
    const double final_loss = model->evaluate(x, y, {.verbose = 0}).at("loss");
    const double moved = (block->parameters()[0] - first_weight).abs().max().item<double>();

    std::printf("initial loss %.4f\nfinal loss %.4f\ntorch block weights moved by up to %.4f\n",
                initial, final_loss, moved);
    return final_loss < 0.5 * initial && moved > 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
