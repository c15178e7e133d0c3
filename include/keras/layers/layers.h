#pragma once
// keras.layers: every built-in layer.

#include "keras/layers/convolutional/conv.h"
#include "keras/layers/convolutional/conv_transpose.h"
#include "keras/layers/convolutional/depthwise_conv.h"
#include "keras/layers/convolutional/separable_conv.h"
#include "keras/layers/core/dense.h"
#include "keras/layers/input_layer.h"
#include "keras/layers/layer.h"
#include "keras/layers/pooling/adaptive_average_pooling.h"
#include "keras/layers/pooling/adaptive_max_pooling.h"
#include "keras/layers/pooling/average_pooling.h"
#include "keras/layers/pooling/global_average_pooling.h"
#include "keras/layers/pooling/global_max_pooling.h"
#include "keras/layers/pooling/max_pooling.h"
#include "keras/layers/registry.h"
