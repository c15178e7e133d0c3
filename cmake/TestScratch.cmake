# keras_scratch_dir_per_test(): every test of the calling directory gets a TMPDIR of its own
# under build/test-tmp/. Test programs write scratch files under temp_directory_path(), some
# with fixed names, and ctest runs entries side by side: a suite and its @torch run, an
# example and its eager-vs-compiled comparison, or the suites of two checkouts would share
# them. Call it at the end of a CMakeLists.txt that adds tests.
function(keras_scratch_dir_per_test)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test IN LISTS tests)
    string(REGEX REPLACE "[^A-Za-z0-9_.-]" "_" leaf "${test}")
    set(dir "${CMAKE_BINARY_DIR}/test-tmp/${leaf}")
    file(MAKE_DIRECTORY "${dir}")
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "TMPDIR=${dir}")
  endforeach()
endfunction()
