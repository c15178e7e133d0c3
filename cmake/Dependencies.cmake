# Third-party libraries, all from Debian packages (scripts/install_deps.sh installs them).
find_package(Threads REQUIRED)
find_package(nlohmann_json 3 REQUIRED)

# OpenBLAS for GEMM, LAPACKE for linear algebra.
find_path(KERAS_CBLAS_INCLUDE cblas.h PATH_SUFFIXES openblas x86_64-linux-gnu/openblas-pthread)
find_path(KERAS_LAPACKE_INCLUDE lapacke.h)
find_library(KERAS_OPENBLAS_LIB openblas)
find_library(KERAS_LAPACKE_LIB lapacke)
if(NOT KERAS_CBLAS_INCLUDE OR NOT KERAS_OPENBLAS_LIB)
  message(FATAL_ERROR "OpenBLAS not found: apt-get install -y libopenblas-dev")
endif()
if(NOT KERAS_LAPACKE_INCLUDE OR NOT KERAS_LAPACKE_LIB)
  message(FATAL_ERROR "LAPACKE not found: apt-get install -y liblapacke-dev")
endif()
set(KERAS_BLAS_INCLUDE_DIRS ${KERAS_CBLAS_INCLUDE} ${KERAS_LAPACKE_INCLUDE})
set(KERAS_BLAS_LIBRARIES ${KERAS_LAPACKE_LIB} ${KERAS_OPENBLAS_LIB})

# libzip for .npz (and later .keras) archives.
find_package(PkgConfig REQUIRED)
pkg_check_modules(KERAS_ZIP REQUIRED IMPORTED_TARGET libzip)
set(KERAS_ZIP_LIBRARIES PkgConfig::KERAS_ZIP)

# HDF5 (C and high-level APIs) for model.weights.h5 and legacy .h5 models. Debian ships a
# pkg-config file for the C library; the high-level library sits next to it.
pkg_check_modules(KERAS_HDF5 REQUIRED IMPORTED_TARGET hdf5)
find_library(KERAS_HDF5_HL_LIB NAMES hdf5_serial_hl hdf5_hl
             HINTS ${KERAS_HDF5_LIBRARY_DIRS} PATH_SUFFIXES hdf5/serial)
if(NOT KERAS_HDF5_HL_LIB)
  message(FATAL_ERROR "The HDF5 high-level library was not found: apt-get install -y libhdf5-dev")
endif()
set(KERAS_HDF5_LIBRARIES ${KERAS_HDF5_HL_LIB} PkgConfig::KERAS_HDF5)

# Image files for keras::utils::load_img / save_img / image_dataset_from_directory: libpng,
# libjpeg-turbo, giflib and stb (stb_image for BMP, stb_image_write for BMP output).
pkg_check_modules(KERAS_PNG IMPORTED_TARGET libpng)
pkg_check_modules(KERAS_JPEG IMPORTED_TARGET libjpeg)
pkg_check_modules(KERAS_GIF IMPORTED_TARGET libgif)
pkg_check_modules(KERAS_STB IMPORTED_TARGET stb)
foreach(image_lib PNG:libpng-dev JPEG:libjpeg62-turbo-dev GIF:libgif-dev STB:libstb-dev)
  string(REPLACE ":" ";" image_lib ${image_lib})
  list(GET image_lib 0 image_name)
  list(GET image_lib 1 image_package)
  if(NOT KERAS_${image_name}_FOUND)
    message(FATAL_ERROR "${image_package} not found (keras::utils image files need it): "
                        "apt-get install -y ${image_package}, or ./scripts/install_deps.sh")
  endif()
endforeach()
set(KERAS_IMAGE_LIBRARIES PkgConfig::KERAS_PNG PkgConfig::KERAS_JPEG PkgConfig::KERAS_GIF
                          PkgConfig::KERAS_STB)

# WAV files for keras::utils::audio_dataset_from_directory: libsndfile (LGPL-2.1, linked as the
# shared library Debian ships). Only src/utils/audio includes <sndfile.h>, from /usr/include,
# so the target is linked without its include directories (CMakeLists.txt): pkg-config's
# -I/usr/include/opus and the like on every source would rebuild the whole library.
pkg_check_modules(KERAS_SNDFILE IMPORTED_TARGET sndfile)
if(NOT KERAS_SNDFILE_FOUND)
  message(FATAL_ERROR "libsndfile1-dev not found (keras::utils audio files need it): "
                      "apt-get install -y libsndfile1-dev, or ./scripts/install_deps.sh")
endif()

# KISS FFT (BSD) for keras.ops.fft/rfft/stft and the audio layers: its header-only C++ template
# (kissfft.hh) runs the transforms in double precision, so no library is linked.
find_path(KERAS_KISSFFT_INCLUDE kissfft.hh PATH_SUFFIXES kissfft)
if(NOT KERAS_KISSFFT_INCLUDE)
  message(FATAL_ERROR "KISS FFT not found (keras.ops.fft and the spectral ops need it): "
                      "apt-get install -y libkissfft-dev")
endif()

# zlib for the gzipped IDX files of keras::datasets (Debian's dataset-fashion-mnist).
find_package(ZLIB REQUIRED)

if(KERAS_BUILD_SERVING)
  # Boost.Asio and Boost.Beast (Debian's libboost-dev, header-only, Boost Software License) for the
  # event loop and HTTP/1.1 parser of the model server (tools/serve).
  find_package(Boost 1.74 CONFIG QUIET)
  if(NOT Boost_FOUND)
    message(FATAL_ERROR "Boost not found (keras-cpp serve needs Boost.Asio and Boost.Beast): "
                        "apt-get install -y libboost-dev")
  endif()

  # gRPC and protobuf (Debian's libgrpc++-dev, protobuf-compiler, protobuf-compiler-grpc; Apache-2.0
  # and BSD) for keras-cpp serve's gRPC API, TF Serving's (tools/serve/proto).
  pkg_check_modules(KERAS_GRPC QUIET IMPORTED_TARGET grpc++ protobuf)
  find_program(KERAS_PROTOC protoc)
  find_program(KERAS_GRPC_CPP_PLUGIN grpc_cpp_plugin)
  find_path(KERAS_PROTOBUF_WELL_KNOWN google/protobuf/any.proto)
  if(NOT KERAS_GRPC_FOUND OR NOT KERAS_PROTOC OR NOT KERAS_GRPC_CPP_PLUGIN
     OR NOT KERAS_PROTOBUF_WELL_KNOWN)
    message(FATAL_ERROR "gRPC not found (keras-cpp serve's gRPC API needs it): "
                        "apt-get install -y libgrpc++-dev protobuf-compiler protobuf-compiler-grpc")
  endif()
endif()

# cpp-httplib (Debian's libcpp-httplib-dev) for keras.callbacks.RemoteMonitor and the HTTP
# client of the serving tests. Debian's is a compiled library whose header must see the definitions
# the library was built with (its pkg-config file lists them); an upstream single-header copy
# needs none.
find_path(KERAS_HTTPLIB_INCLUDE_DIR httplib.h)
if(NOT KERAS_HTTPLIB_INCLUDE_DIR)
  message(FATAL_ERROR "cpp-httplib not found (RemoteMonitor and keras-cpp serve need it): "
                      "apt-get install -y libcpp-httplib-dev")
endif()
pkg_check_modules(KERAS_HTTPLIB QUIET IMPORTED_TARGET cpp-httplib)

# Gloo (Debian's libgloo-dev) for the collectives of multi-process jobs (keras::distribution).
# Optional: without it a program runs as a job of one process, and initialize() with several
# processes says to install it.
find_package(Gloo QUIET)
if(Gloo_FOUND)
  message(STATUS "Gloo found: multi-process distribution enabled")
else()
  message(STATUS "Gloo not found: keras::distribution runs single-process only (apt-get install -y libgloo-dev)")
endif()
