// tf.audio.decode_wav (tensorflow/core/lib/wav/wav_io.cc) through libsndfile.
//
// libsndfile reads far more than TensorFlow does (8/24/32-bit and float PCM, ADPCM, RIFX,
// WAVE_FORMAT_EXTENSIBLE, truncated files); a dataset that keras-cpp loads must be one Keras
// loads too, so every header field TensorFlow checks is checked here from the chunks
// libsndfile found, and only then are the 16-bit frames read.

#include "utils/audio/decode_wav.h"

#include <sndfile.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <vector>

#include "keras/core/errors.h"

namespace keras::utils::detail {
namespace {

// The way out for every refused file: TensorFlow reads nothing else.
constexpr const char* kFix =
    " (tf.audio.decode_wav, which Keras's audio_dataset_from_directory uses, reads only 16-bit "
    "PCM WAV files; convert the file, e.g. `sox IN.wav -b 16 -e signed-integer OUT.wav`)";

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw IOError("Cannot decode the WAV file " + path + ": " + why + kFix);
}

struct CloseSndfile {
  void operator()(SNDFILE* f) const { sf_close(f); }
};
using Sndfile = std::unique_ptr<SNDFILE, CloseSndfile>;

uint16_t u16(const std::vector<uint8_t>& b, size_t at) {
  return static_cast<uint16_t>(b[at] | (b[at + 1] << 8));
}
uint32_t u32(const std::vector<uint8_t>& b, size_t at) {
  return static_cast<uint32_t>(u16(b, at)) | (static_cast<uint32_t>(u16(b, at + 2)) << 16);
}

// libsndfile opens AIFF, FLAC, RIFX... by content; TensorFlow wants "RIFF" then "WAVE".
void check_riff_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  check<IOError>(in.good(), "Cannot open the audio file ", path, " (missing or unreadable)");
  std::array<char, 12> head{};
  in.read(head.data(), head.size());
  const std::string riff(head.data(), 4), wave(head.data() + 8, 4);
  if (in.gcount() < 12) refuse(path, "the file is shorter than a RIFF header");
  if (riff != "RIFF") refuse(path, "it does not start with \"RIFF\" (found \"" + riff + "\")");
  if (wave != "WAVE") refuse(path, "its RIFF type is \"" + wave + "\", not \"WAVE\"");
}

// One chunk's declared size, and its bytes when `data` is set.
std::optional<uint32_t> chunk(SNDFILE* f, const char* id, std::vector<uint8_t>* data) {
  SF_CHUNK_INFO wanted{};
  std::strncpy(wanted.id, id, sizeof(wanted.id) - 1);
  wanted.id_size = static_cast<unsigned>(std::strlen(id));
  SF_CHUNK_ITERATOR* it = sf_get_chunk_iterator(f, &wanted);
  if (!it) return std::nullopt;
  SF_CHUNK_INFO info{};
  if (sf_get_chunk_size(it, &info) != SF_ERR_NO_ERROR) return std::nullopt;
  if (data) {
    data->resize(info.datalen);
    info.data = data->data();
    if (sf_get_chunk_data(it, &info) != SF_ERR_NO_ERROR) return std::nullopt;
  }
  return info.datalen;
}

std::string subtype_name(int format) {
  SF_FORMAT_INFO info{};
  info.format = format & SF_FORMAT_SUBMASK;
  if (sf_command(nullptr, SFC_GET_FORMAT_INFO, &info, sizeof(info)) == 0 && info.name)
    return info.name;
  return "subtype " + std::to_string(info.format);
}

// wav_io.cc's checks of the fmt chunk, in its order and with its numbers.
void check_fmt_chunk(SNDFILE* f, const std::string& path) {
  std::vector<uint8_t> fmt;
  if (!chunk(f, "fmt ", &fmt)) refuse(path, "it has no readable 'fmt ' chunk");
  if (fmt.size() != 16 && fmt.size() != 18)
    refuse(path, "its fmt chunk is " + std::to_string(fmt.size()) +
                     " bytes, TensorFlow expects 16 or 18" +
                     (u16(fmt, 0) == 0xFFFE ? " (WAVE_FORMAT_EXTENSIBLE)" : ""));
  const uint16_t tag = u16(fmt, 0), channels = u16(fmt, 2), block_align = u16(fmt, 12),
                 bits = u16(fmt, 14);
  const uint32_t rate = u32(fmt, 4), byte_rate = u32(fmt, 8);
  if (tag != 1)
    refuse(path, "its audio format is " + std::to_string(tag) + (tag == 3 ? " (IEEE float)" : "") +
                     ", TensorFlow expects 1 (PCM)");
  if (channels < 1) refuse(path, "it has 0 channels");
  if (bits != 16)
    refuse(path, "it has " + std::to_string(bits) + "-bit samples, TensorFlow reads 16-bit only");
  if (block_align != channels * 2u)
    refuse(path, "its block align is " + std::to_string(block_align) + ", expected " +
                     std::to_string(channels * 2));
  if (byte_rate != rate * block_align)
    refuse(path, "its byte rate is " + std::to_string(byte_rate) + ", expected " +
                     std::to_string(rate * block_align) + " (sample rate " + std::to_string(rate) +
                     " x block align " + std::to_string(block_align) + ")");
}

}  // namespace

WavAudio decode_wav(const std::string& path, int64_t desired_samples) {
  check_riff_header(path);
  SF_INFO info{};
  Sndfile file(sf_open(path.c_str(), SFM_READ, &info));
  if (!file) refuse(path, std::string("libsndfile cannot read it: ") + sf_strerror(nullptr));
  check_fmt_chunk(file.get(), path);
  // The fmt checks above imply these; they guard what libsndfile itself decided.
  if ((info.format & SF_FORMAT_TYPEMASK) != SF_FORMAT_WAV ||
      (info.format & SF_FORMAT_SUBMASK) != SF_FORMAT_PCM_16)
    refuse(path, "libsndfile reads it as " + subtype_name(info.format) + ", not plain WAV " +
                     "of signed 16-bit PCM");
  const auto channels = static_cast<int64_t>(info.channels);
  const int64_t frames = info.frames;
  // TensorFlow reads the data chunk as declared: a truncated file or a partial last frame is
  // an error there, where libsndfile would read the whole frames it finds.
  const std::optional<uint32_t> data_bytes = chunk(file.get(), "data", nullptr);
  if (!data_bytes) refuse(path, "it has no data chunk");
  const int64_t frame_bytes = channels * 2;
  if (*data_bytes % frame_bytes != 0)
    refuse(path, "its data chunk holds " + std::to_string(*data_bytes) +
                     " bytes, not a whole number of " + std::to_string(frame_bytes) +
                     "-byte frames");
  if (static_cast<int64_t>(*data_bytes) != frames * frame_bytes)
    refuse(path, "its data chunk declares " + std::to_string(*data_bytes) +
                     " bytes but the file holds " + std::to_string(frames * frame_bytes) +
                     " (truncated)");

  std::vector<int16_t> pcm(static_cast<size_t>(frames * channels));
  if (frames > 0 && sf_readf_short(file.get(), pcm.data(), frames) != frames)
    refuse(path,
           std::string("libsndfile stopped before the last frame: ") + sf_strerror(file.get()));
  const int64_t out_frames = desired_samples >= 0 ? desired_samples : frames;
  std::vector<float> audio(static_cast<size_t>(out_frames * channels), 0.0f);
  const int64_t kept = std::min(out_frames, frames) * channels;
  // Int16SampleToFloat: x * (1 / 2^15), exact in float32.
  constexpr float kScale = 1.0f / 32768.0f;
  for (int64_t i = 0; i < kept; ++i)
    audio[static_cast<size_t>(i)] = pcm[static_cast<size_t>(i)] * kScale;
  return {Tensor::from_vector(audio, {out_frames, channels}), info.samplerate};
}

}  // namespace keras::utils::detail
