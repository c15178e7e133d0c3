#pragma once
// keras.layers: every built-in layer.

#include "keras/layers/core/dense.h"
#include "keras/layers/input_layer.h"
#include "keras/layers/layer.h"
#include "keras/layers/registry.h"
#include "keras/layers/rnn/bidirectional.h"
#include "keras/layers/rnn/gru.h"
#include "keras/layers/rnn/lstm.h"
#include "keras/layers/rnn/rnn.h"
#include "keras/layers/rnn/simple_rnn.h"
#include "keras/layers/rnn/stacked_rnn_cells.h"
#include "keras/layers/rnn/time_distributed.h"
