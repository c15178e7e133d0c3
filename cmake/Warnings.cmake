# Our code builds without warnings under -Wall -Wextra.
function(keras_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-missing-field-initializers)
  # GCC 12 reports -Wrestrict inside libstdc++'s std::string operator+ at -O2 and above, a
  # known false positive (GCC bug 105329, fixed in GCC 13); it says nothing about our code.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
endfunction()
