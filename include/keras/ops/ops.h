#pragma once
// keras::ops: the Keras 3 ops API. Every function here runs on the backend of its inputs,
// broadcasts and promotes as Keras does, validates its arguments, and is differentiable where
// the math allows.

#include "keras/ops/core.h"
#include "keras/ops/numpy.h"
