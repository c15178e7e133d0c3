#pragma once
// libjpeg reports errors through a callback that must not return: this one records the message
// and longjmps back to the setjmp of the reader or writer, which throws. Internal.

// jpeglib.h uses FILE and size_t without including their headers.
#include <cstddef>
#include <cstdio>

#include <jpeglib.h>

#include <csetjmp>

namespace keras::utils::detail {

struct JpegErrors {
  jpeg_error_mgr base;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX] = {};
};

inline void on_jpeg_error(j_common_ptr info) {
  auto* errors = reinterpret_cast<JpegErrors*>(info->err);
  (*info->err->format_message)(info, errors->message);
  std::longjmp(errors->jump, 1);
}

}  // namespace keras::utils::detail
