# Our code builds without warnings under -Wall -Wextra.
function(keras_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-missing-field-initializers)
endfunction()
