#pragma once
// keras.models: Model, Functional, Sequential.

#include "keras/models/functional.h"
#include "keras/models/model.h"
#include "keras/models/sequential.h"
