#pragma once
// keras.layers: every built-in layer.

#include "keras/layers/core/dense.h"
#include "keras/layers/input_layer.h"
#include "keras/layers/layer.h"
#include "keras/layers/registry.h"
