#include "keras/utils/py_dataset.h"

namespace keras::utils {

PyDataset::PyDataset(PyDatasetOptions options) : options_(options) {}

}  // namespace keras::utils
