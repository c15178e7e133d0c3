// Every built-in layer's from_config, by Keras class name. Keep the list sorted.

#include "layers/builtin_layers.h"

#include "keras/layers/activations/activation.h"
#include "keras/layers/activations/elu.h"
#include "keras/layers/activations/leaky_relu.h"
#include "keras/layers/activations/prelu.h"
#include "keras/layers/activations/relu.h"
#include "keras/layers/activations/softmax.h"
#include "keras/layers/core/dense.h"
#include "keras/layers/core/einsum_dense.h"
#include "keras/layers/core/embedding.h"
#include "keras/layers/core/identity.h"
#include "keras/layers/core/lambda_layer.h"
#include "keras/layers/core/masking.h"

namespace keras::layers::detail {

std::vector<std::pair<std::string, LayerFactory>> builtin_layers() {
  return {
      {"Activation", ActivationLayer::from_config},
      {"Dense", DenseLayer::from_config},
      {"ELU", ELULayer::from_config},
      {"EinsumDense", EinsumDenseLayer::from_config},
      {"Embedding", EmbeddingLayer::from_config},
      {"Identity", IdentityLayer::from_config},
      {"Lambda", LambdaLayer::from_config},
      {"LeakyReLU", LeakyReLULayer::from_config},
      {"Masking", MaskingLayer::from_config},
      {"PReLU", PReLULayer::from_config},
      {"ReLU", ReLULayer::from_config},
      {"Softmax", SoftmaxLayer::from_config},
  };
}

}  // namespace keras::layers::detail
