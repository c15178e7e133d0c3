#pragma once
// keras.ops core.

#include "keras/ops/core/control_flow.h"
#include "keras/ops/core/conversion.h"
#include "keras/ops/core/updates.h"
