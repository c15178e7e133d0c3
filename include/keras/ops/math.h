#pragma once
// keras.ops.math.

#include "keras/ops/math/complex.h"
#include "keras/ops/math/elementwise.h"
#include "keras/ops/math/reductions.h"
#include "keras/ops/math/sequences.h"
