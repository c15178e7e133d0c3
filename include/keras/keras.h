#pragma once
// keras-cpp: the Keras 3 API in C++. Include this one header.

#include "keras/autograd/gradient_tape.h"
#include "keras/autograd/variable.h"
#include "keras/backend/registry.h"
#include "keras/core/config.h"
#include "keras/core/dtype.h"
#include "keras/core/errors.h"
#include "keras/core/promotion.h"
#include "keras/core/shape.h"
#include "keras/ops/ops.h"
#include "keras/random/random.h"
#include "keras/tensor/tensor.h"
