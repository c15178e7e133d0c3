#pragma once
// keras::ops: the Keras 3 ops API. Every function here runs on the backend of its inputs,
// broadcasts and promotes as Keras does, validates its arguments, and is differentiable where
// the math allows. All names are also reachable through their Keras sub-namespace
// (ops::numpy::add, ops::nn::relu, ops::linalg::svd, ...).

#include "keras/ops/core.h"
#include "keras/ops/einops.h"
#include "keras/ops/image.h"
#include "keras/ops/linalg.h"
#include "keras/ops/math.h"
#include "keras/ops/nn.h"
#include "keras/ops/numpy.h"
