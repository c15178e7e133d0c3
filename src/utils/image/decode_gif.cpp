// GIF through giflib: the first frame, as palette indices ("P") with the frame's colour table
// (local, else global) and its transparent index, as PIL opens a GIF.

#include <gif_lib.h>

#include <cstring>

#include "keras/core/errors.h"
#include "utils/image/raw_image.h"

namespace keras::utils::detail {
namespace {

struct GifInput {
  std::span<const uint8_t> bytes;
  size_t offset = 0;
};

int read_from_span(GifFileType* gif, GifByteType* out, int count) {
  auto* input = static_cast<GifInput*>(gif->UserData);
  size_t n = std::min(static_cast<size_t>(count), input->bytes.size() - input->offset);
  std::memcpy(out, input->bytes.data() + input->offset, n);
  input->offset += n;
  return static_cast<int>(n);
}

}  // namespace

RawImage decode_gif(std::span<const uint8_t> bytes, const std::string& source) {
  GifInput input{bytes};
  int error = 0;
  GifFileType* gif = DGifOpen(&input, read_from_span, &error);
  check<IOError>(gif != nullptr, "Cannot decode the GIF file ", source, ": ",
                 GifErrorString(error));
  auto fail = [&](const std::string& why) {
    int ignored = 0;
    DGifCloseFile(gif, &ignored);
    throw IOError("Cannot decode the GIF file " + source + ": " + why);
  };
  if (DGifSlurp(gif) != GIF_OK) fail(GifErrorString(gif->Error));
  if (gif->ImageCount < 1) fail("it holds no frame");
  const SavedImage& frame = gif->SavedImages[0];
  const ColorMapObject* colors =
      frame.ImageDesc.ColorMap ? frame.ImageDesc.ColorMap : gif->SColorMap;
  if (!colors) fail("it has no colour table");
  GraphicsControlBlock control{};
  control.TransparentColor = NO_TRANSPARENT_COLOR;
  DGifSavedExtensionToGCB(gif, 0, &control);

  RawImage image;
  image.format = "GIF";
  image.mode = "P";
  image.width = gif->SWidth;
  image.height = gif->SHeight;
  image.palette.assign(256 * 4, 0);
  for (int i = 0; i < 256; ++i) image.palette[i * 4 + 3] = 255;
  for (int i = 0; i < colors->ColorCount && i < 256; ++i) {
    image.palette[i * 4 + 0] = colors->Colors[i].Red;
    image.palette[i * 4 + 1] = colors->Colors[i].Green;
    image.palette[i * 4 + 2] = colors->Colors[i].Blue;
  }
  if (control.TransparentColor >= 0 && control.TransparentColor < 256)
    image.palette[control.TransparentColor * 4 + 3] = 0;
  // A frame smaller than the screen sits on the background colour.
  image.pixels.assign(static_cast<size_t>(image.width * image.height),
                      static_cast<uint8_t>(gif->SBackGroundColor));
  const GifImageDesc& desc = frame.ImageDesc;
  for (int y = 0; y < desc.Height; ++y) {
    const int64_t row = desc.Top + y;
    if (row < 0 || row >= image.height) continue;
    for (int x = 0; x < desc.Width; ++x) {
      const int64_t col = desc.Left + x;
      if (col < 0 || col >= image.width) continue;
      image.pixels[row * image.width + col] = frame.RasterBits[y * desc.Width + x];
    }
  }
  int ignored = 0;
  DGifCloseFile(gif, &ignored);
  return image;
}

}  // namespace keras::utils::detail
