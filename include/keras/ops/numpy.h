#pragma once
// keras.ops.numpy: the NumPy-compatible half of keras::ops.

#include "keras/ops/numpy/creation.h"
#include "keras/ops/numpy/elementwise.h"
#include "keras/ops/numpy/indexing.h"
#include "keras/ops/numpy/linear.h"
#include "keras/ops/numpy/reductions.h"
#include "keras/ops/numpy/shape.h"
#include "keras/ops/numpy/sorting.h"
#include "keras/ops/numpy/statistics.h"
#include "keras/ops/numpy/vectorize.h"
