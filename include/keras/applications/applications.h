#pragma once
// keras.applications: the architectures of Keras 3.15 with their layer names, configs and
// weight layouts, so Keras's weight files load into them.

#include "keras/applications/application_options.h"
#include "keras/applications/convnext.h"
#include "keras/applications/densenet.h"
#include "keras/applications/efficientnet.h"
#include "keras/applications/efficientnet_v2.h"
#include "keras/applications/imagenet_utils.h"
#include "keras/applications/inception_resnet_v2.h"
#include "keras/applications/inception_v3.h"
#include "keras/applications/mobilenet.h"
#include "keras/applications/mobilenet_v3.h"
#include "keras/applications/nasnet.h"
#include "keras/applications/resnet.h"
#include "keras/applications/vgg.h"
#include "keras/applications/xception.h"
