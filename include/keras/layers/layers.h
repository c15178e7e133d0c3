#pragma once
// keras.layers: every built-in layer.

#include "keras/layers/core/dense.h"
#include "keras/layers/input_layer.h"
#include "keras/layers/layer.h"
#include "keras/layers/normalization/axes_arg.h"
#include "keras/layers/normalization/batch_normalization.h"
#include "keras/layers/normalization/group_normalization.h"
#include "keras/layers/normalization/layer_normalization.h"
#include "keras/layers/normalization/rms_normalization.h"
#include "keras/layers/normalization/unit_normalization.h"
#include "keras/layers/registry.h"
#include "keras/layers/regularization/activity_regularization.h"
#include "keras/layers/regularization/alpha_dropout.h"
#include "keras/layers/regularization/dropout.h"
#include "keras/layers/regularization/gaussian_dropout.h"
#include "keras/layers/regularization/gaussian_noise.h"
#include "keras/layers/regularization/spatial_dropout.h"
