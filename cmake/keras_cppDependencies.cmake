# What keras::keras links, found again for a program that uses the installed package: the
# imported targets the exported keras::keras names (libzip and HDF5 through pkg-config, as the
# build found them). OpenBLAS, LAPACKE and HDF5's high-level library are linked by path.
include(CMakeFindDependencyMacro)
find_dependency(Threads)
find_dependency(nlohmann_json 3)
find_dependency(ZLIB)
find_dependency(PkgConfig)
if(NOT TARGET PkgConfig::KERAS_ZIP)
  pkg_check_modules(KERAS_ZIP REQUIRED IMPORTED_TARGET libzip)
endif()
if(NOT TARGET PkgConfig::KERAS_HDF5)
  pkg_check_modules(KERAS_HDF5 REQUIRED IMPORTED_TARGET hdf5)
endif()
if(KERAS_PACKAGE_WITH_GLOO)
  find_dependency(Gloo)
endif()
