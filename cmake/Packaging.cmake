# `cpack -G DEB` (in the build folder, after the build): keras-cpp_<version>_<arch>.deb, what
# `cmake --install` installs, under /usr: the headers, libkeras.a, the torch backend's objects
# (when built), the keras-cpp command, the CMake package and the pkg-config file. A static library hands its dependencies on to the
# programs that link it, so the package depends on the Debian -dev packages the installed CMake
# package and .pc file look for (cmake/keras_cppDependencies.cmake); the keras-cpp command's
# shared libraries (LibTorch, cpp-httplib, ...) are added by dpkg-shlibdeps. Checked by
# scripts/test_deb.sh.
set(KERAS_DEB_DEPENDS
    libopenblas-dev liblapacke-dev libhdf5-dev libzip-dev zlib1g-dev libpng-dev libjpeg-dev
    libgif-dev libstb-dev libsndfile1-dev nlohmann-json3-dev pkgconf)
if(Gloo_FOUND)
  list(APPEND KERAS_DEB_DEPENDS libgloo-dev)
endif()
if(KERAS_HTTPLIB_FOUND)
  list(APPEND KERAS_DEB_DEPENDS libcpp-httplib-dev)
endif()
list(JOIN KERAS_DEB_DEPENDS ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
# find_package(keras_cpp COMPONENTS torch) needs LibTorch's CMake package.
if(TARGET keras_torch)
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libtorch-dev")
endif()

# Debian's place for the licence.
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/keras-cpp
        RENAME copyright)

set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "keras-cpp")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "keras-cpp")
set(CPACK_PACKAGE_CONTACT "keras-cpp developers <keras-cpp@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "The Keras 3 API and file format as a C++ library (headers, static library, keras-cpp command)")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "libdevel")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# gzip: a few seconds here against minutes for xz, for a package that is built in CI.
set(CPACK_DEBIAN_COMPRESSION_TYPE "gzip")
include(CPack)
