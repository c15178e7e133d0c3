#pragma once
// TF Serving's model layout: a base folder holding one folder per version, named by its number
// (models/mnist/1/, models/mnist/2/, ...). In keras-cpp each version folder holds one model file
// (.keras, or a legacy .h5); folders whose names are not numbers are ignored, as TF Serving
// ignores them.

#include <cstdint>
#include <map>
#include <string>

namespace keras::serving {

/// The version folders under `base`: version number -> the folder. Empty when there are none
/// (or `base` is not a folder).
std::map<int64_t, std::string> version_folders(const std::string& base);

/// The model file of a version folder: its one .keras (or .h5) file. ValueError naming the
/// folder when it holds none or several.
std::string model_file_in(const std::string& version_folder);

}  // namespace keras::serving
