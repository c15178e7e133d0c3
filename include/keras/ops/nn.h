#pragma once
// keras.ops.nn.

#include "keras/ops/nn/activations.h"
#include "keras/ops/nn/attention.h"
#include "keras/ops/nn/conv.h"
#include "keras/ops/nn/ctc.h"
#include "keras/ops/nn/encoding.h"
#include "keras/ops/nn/losses.h"
#include "keras/ops/nn/normalization.h"
#include "keras/ops/nn/pooling.h"
