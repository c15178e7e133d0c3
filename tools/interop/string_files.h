#pragma once
// Models with string Inputs written by keras-cpp for Python Keras to load (scripts/interop.sh's
// string phase, tools/keras_oracle/string_interop.py): Keras's own text models
// (tools/keras_oracle/string_graphs.py) saved again, and a text model built and adapted in C++.

#include <string>

/// Writes OUT_DIR/<name>.keras and OUT_DIR/<name>.json ({"input_names", "input_dtypes",
/// "inputs" by name, "outputs": keras-cpp's predictions as nested lists}) for "py_<model>" (each
/// model of FIXTURES_DIR/string_graphs, loaded and saved again) and "cpp_text" (built here).
void write_string_files(const std::string& out_dir, const std::string& fixtures_dir);
