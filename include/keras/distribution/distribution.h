#pragma once
// keras::distribution, all of it: the job's processes and devices, meshes, layouts, layout maps
// and the DataParallel and ModelParallel distributions.

#include "keras/distribution/collectives.h"
#include "keras/distribution/device_mesh.h"
#include "keras/distribution/distributions.h"
#include "keras/distribution/layout_map.h"
#include "keras/distribution/runtime.h"
