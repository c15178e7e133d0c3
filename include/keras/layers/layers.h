#pragma once
// keras.layers: every built-in layer.

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
#include "keras/layers/input_layer.h"
#include "keras/layers/layer.h"
#include "keras/layers/registry.h"
