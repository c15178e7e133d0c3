# `cmake --install build [--prefix P]`: the public headers, libkeras.a and libkeras.so, the
# keras-cpp command, a CMake package (find_package(keras_cpp CONFIG REQUIRED) gives keras::keras,
# the static library, and keras::keras_shared) and a
# pkg-config file (keras-cpp.pc). The package finds the same Debian dependencies again
# (cmake/keras_cppDependencies.cmake) before it declares keras::keras, since a static library
# passes its dependencies on to the programs that link it.
include(CMakePackageConfigHelpers)
set(KERAS_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/keras_cpp)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/keras DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS keras EXPORT keras_cppTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# libkeras.so.0.1 (SONAME) with the libkeras.so link; keras::keras_shared in the CMake package.
if(TARGET keras_shared)
  install(TARGETS keras_shared EXPORT keras_cppTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
install(TARGETS keras-cpp RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT keras_cppTargets NAMESPACE keras:: DESTINATION ${KERAS_INSTALL_CMAKEDIR})

# The torch backend, when built: the package's optional component "torch" (keras::torch, its
# object files, so that the backend's self-registration is always linked, and its headers).
# A separate export set, so that programs that do not ask for it need no LibTorch.
set(KERAS_PACKAGE_WITH_TORCH OFF)
if(TARGET keras_torch)
  set(KERAS_PACKAGE_WITH_TORCH ON)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/backends/torch/include/keras
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(TARGETS keras_torch EXPORT keras_cppTorchTargets
          OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/keras_torch)
  install(EXPORT keras_cppTorchTargets NAMESPACE keras:: DESTINATION ${KERAS_INSTALL_CMAKEDIR})
endif()

set(KERAS_PACKAGE_WITH_GLOO ${Gloo_FOUND})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/keras_cppConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/keras_cppConfig.cmake
                              INSTALL_DESTINATION ${KERAS_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/keras_cppConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/keras_cppConfig.cmake
              ${PROJECT_BINARY_DIR}/keras_cppConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/keras_cppDependencies.cmake
        DESTINATION ${KERAS_INSTALL_CMAKEDIR})

# pkg-config: the libraries a program needs besides libkeras.a, in link order.
set(KERAS_PC_LIBS "")
foreach(lib ${KERAS_HDF5_HL_LIB} ${KERAS_LAPACKE_LIB} ${KERAS_OPENBLAS_LIB})
  set(KERAS_PC_LIBS "${KERAS_PC_LIBS} ${lib}")
endforeach()
set(KERAS_PC_REQUIRES "libzip hdf5 zlib libpng libjpeg libgif stb sndfile")
if(KERAS_HTTPLIB_FOUND)
  set(KERAS_PC_REQUIRES "${KERAS_PC_REQUIRES} cpp-httplib")
endif()
if(Gloo_FOUND)
  set(KERAS_PC_LIBS "${KERAS_PC_LIBS} -lgloo")
endif()
# The prefix relative to the .pc file, so the package works wherever --prefix puts it.
file(RELATIVE_PATH KERAS_PC_TO_PREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" KERAS_PC_TO_PREFIX "${KERAS_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/keras-cpp.pc.in ${PROJECT_BINARY_DIR}/keras-cpp.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/keras-cpp.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
