#pragma once
// keras.layers: every built-in layer.

#include "keras/layers/attention/additive_attention.h"
#include "keras/layers/attention/attention.h"
#include "keras/layers/attention/grouped_query_attention.h"
#include "keras/layers/attention/multi_head_attention.h"
#include "keras/layers/core/dense.h"
#include "keras/layers/input_layer.h"
#include "keras/layers/layer.h"
#include "keras/layers/registry.h"
