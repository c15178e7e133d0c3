#pragma once
// keras.layers: every built-in layer.

#include "keras/layers/core/dense.h"
#include "keras/layers/input_layer.h"
#include "keras/layers/layer.h"
#include "keras/layers/preprocessing/category_encoding.h"
#include "keras/layers/preprocessing/center_crop.h"
#include "keras/layers/preprocessing/discretization.h"
#include "keras/layers/preprocessing/normalization.h"
#include "keras/layers/preprocessing/random_brightness.h"
#include "keras/layers/preprocessing/random_contrast.h"
#include "keras/layers/preprocessing/random_flip.h"
#include "keras/layers/preprocessing/random_rotation.h"
#include "keras/layers/preprocessing/random_translation.h"
#include "keras/layers/preprocessing/random_zoom.h"
#include "keras/layers/preprocessing/rescaling.h"
#include "keras/layers/preprocessing/resizing.h"
#include "keras/layers/registry.h"
