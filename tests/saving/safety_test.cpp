// The loader against hostile files, each built here: zip archives written byte by byte (sizes,
// methods and names that libzip would never write), HDF5 files written with the C API (links,
// external and virtual datasets, shapes that overflow, absurd ranks, lying attribute sizes,
// deep groups) and JSON. Every one must be refused with an IOError/ValueError naming the
// member or path, without a crash or a large allocation.

#include <gtest/gtest.h>
#include <hdf5.h>
#include <zlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "keras/keras.h"
#include "keras/saving/archive.h"
#include "keras/saving/h5_file.h"
#include "keras/saving/safe_json.h"
#include "safety_util.h"

namespace keras {
namespace {

using test::SafetyTempDir;

// Expects `f` to throw E with every one of `parts` in its message.
template <typename E, typename F>
void expect_error(F&& f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one mentioning " << *parts.begin();
  } catch (const E& e) {
    std::string message = e.what();
    for (const auto& p : parts) EXPECT_NE(message.find(p), std::string::npos) << message;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

// ---- zip archives written byte by byte --------------------------------------------------------

struct ZipMember {
  std::string name;
  std::string data;                 // the uncompressed content
  uint16_t method = 0;              // 0 stored, 8 deflated, anything else as given
  int64_t declared_size = -1;       // the uncompressed size in the headers (-1: the real one)
  std::string payload;              // the bytes after the local header (empty: from data)
  bool bad_crc = false;
};

std::string deflate_raw(const std::string& data) {
  z_stream s{};
  deflateInit2(&s, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&s, data.size()), '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  s.avail_in = static_cast<uInt>(data.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  deflate(&s, Z_FINISH);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

void put16(std::vector<uint8_t>& b, uint32_t v) {
  b.push_back(v & 0xff);
  b.push_back((v >> 8) & 0xff);
}
void put32(std::vector<uint8_t>& b, uint32_t v) {
  put16(b, v & 0xffff);
  put16(b, v >> 16);
}

std::vector<uint8_t> make_zip(const std::vector<ZipMember>& members) {
  std::vector<uint8_t> out, central;
  for (const ZipMember& m : members) {
    std::string payload = !m.payload.empty() ? m.payload
                          : m.method == 8    ? deflate_raw(m.data)
                                             : m.data;
    uint32_t crc = static_cast<uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(m.data.data()), static_cast<uInt>(m.data.size())));
    if (m.bad_crc) crc ^= 0x5a5a5a5a;
    uint32_t size = m.declared_size >= 0 ? static_cast<uint32_t>(m.declared_size)
                                         : static_cast<uint32_t>(m.data.size());
    uint32_t offset = static_cast<uint32_t>(out.size());
    put32(out, 0x04034b50);
    put16(out, 20);
    put16(out, 0);
    put16(out, m.method);
    put16(out, 0);
    put16(out, 0x21);
    put32(out, crc);
    put32(out, static_cast<uint32_t>(payload.size()));
    put32(out, size);
    put16(out, static_cast<uint32_t>(m.name.size()));
    put16(out, 0);
    out.insert(out.end(), m.name.begin(), m.name.end());
    out.insert(out.end(), payload.begin(), payload.end());
    put32(central, 0x02014b50);
    put16(central, 20);
    put16(central, 20);
    put16(central, 0);
    put16(central, m.method);
    put16(central, 0);
    put16(central, 0x21);
    put32(central, crc);
    put32(central, static_cast<uint32_t>(payload.size()));
    put32(central, size);
    put16(central, static_cast<uint32_t>(m.name.size()));
    put16(central, 0);
    put16(central, 0);
    put16(central, 0);
    put16(central, 0);
    put32(central, 0);
    put32(central, offset);
    central.insert(central.end(), m.name.begin(), m.name.end());
  }
  uint32_t cd_offset = static_cast<uint32_t>(out.size());
  out.insert(out.end(), central.begin(), central.end());
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<uint32_t>(members.size()));
  put16(out, static_cast<uint32_t>(members.size()));
  put32(out, static_cast<uint32_t>(central.size()));
  put32(out, cd_offset);
  put16(out, 0);
  return out;
}

TEST(ZipSafety, ReadsAGoodArchiveStoredAndDeflated) {
  std::string text(5000, 'k');
  auto members = saving::read_zip_members(
      make_zip({{"metadata.json", "{}"}, {"config.json", text, 8}, {"assets/", ""}}), "good.keras");
  ASSERT_EQ(members.size(), 3u);
  EXPECT_EQ(std::string(members["config.json"].begin(), members["config.json"].end()), text);
  EXPECT_EQ(members["metadata.json"].size(), 2u);
}

TEST(ZipSafety, StoredMemberDeclaringMoreThanItHolds) {
  // 8 bytes asking for almost 4 GiB: refused before any allocation.
  expect_error<IOError>(
      [] {
        saving::read_zip_members(
            make_zip({{"model.weights.h5", "12345678", 0, int64_t{0xfffffff0}}}), "bomb.keras");
      },
      {"bomb.keras", "model.weights.h5", "4294967280"});
  expect_error<IOError>(
      [] {
        saving::read_zip_members(make_zip({{"config.json", "12345678", 0, 9}}), "liar.keras");
      },
      {"liar.keras", "config.json"});
}

TEST(ZipSafety, DeflatedMemberBeyondDeflatesRatio) {
  ZipMember m{"config.json", "", 8, 10'000'000, std::string(100, 'x')};
  expect_error<IOError>([&] { saving::read_zip_members(make_zip({m}), "bomb.keras"); },
                        {"bomb.keras", "config.json", "10000000", "zip bomb"});
}

TEST(ZipSafety, DeflatedMembersBeyondTheTotalCap) {
  // Each declares 1000 MiB from 1 MiB (within deflate's ratio); the fifth passes 4 GiB.
  std::vector<ZipMember> members;
  for (int i = 0; i < 5; ++i)
    members.push_back({"assets/part" + std::to_string(i), "", 8, int64_t{1000} << 20,
                       std::string(size_t{1} << 20, static_cast<char>('a' + i))});
  expect_error<IOError>([&] { saving::read_zip_members(make_zip(members), "many.keras"); },
                        {"many.keras", "assets/part4", "zip bomb"});
}

TEST(ZipSafety, LyingDeflatedSizeAllocatesOnlyWhatInflates) {
  // Declares 1 MiB (allowed by the ratio) but inflates to 10 bytes: truncated, not allocated.
  ZipMember m{"config.json", "0123456789", 8, 1 << 20};
  m.payload = deflate_raw(m.data) + std::string(2000, '\0');
  expect_error<IOError>([&] { saving::read_zip_members(make_zip({m}), "short.keras"); },
                        {"short.keras", "config.json", "truncated"});
}

TEST(ZipSafety, OverlappingMembersAreRefused) {
  // Member "a.bin" claims to run over member "b.bin" (its local header and 1000 data bytes):
  // every byte of b would be allocated twice. Many such members multiply a small archive.
  std::vector<uint8_t> zip =
      make_zip({{"a.bin", std::string(10, 'a')}, {"b.bin", std::string(1000, 'b')}});
  const uint32_t claimed = 10 + 30 + 5 + 1000;
  auto patch = [&](size_t at) { std::memcpy(&zip[at], &claimed, 4); };
  patch(18);  // a's local header: compressed size, size
  patch(22);
  const size_t central = zip.size() - 22 - 2 * (46 + 5);
  patch(central + 20);  // a's central entry: compressed size, size
  patch(central + 24);
  expect_error<IOError>([&] { saving::read_zip_members(zip, "overlap.keras"); },
                        {"overlap.keras", "overlap", "b.bin"});
}

TEST(ZipSafety, OtherCompressionMethodsAreRefused) {
  expect_error<IOError>(
      [] { saving::read_zip_members(make_zip({{"config.json", "{}", 12, 2, "BZ"}}), "bz.keras"); },
      {"bz.keras", "config.json", "method 12"});
}

TEST(ZipSafety, BadChecksumIsRefused) {
  ZipMember m{"config.json", "{\"a\": 1}"};
  m.bad_crc = true;
  expect_error<IOError>([&] { saving::read_zip_members(make_zip({m}), "crc.keras"); },
                        {"crc.keras", "config.json"});
}

TEST(ZipSafety, PathTraversalAnywhereIsRefused) {
  for (std::string name : {"../evil.txt", "assets/../../etc/passwd", "assets/a/..", "/etc/passwd",
                           "assets\\..\\x", "C:/windows/x", "assets/x\x01y"}) {
    SCOPED_TRACE(name);
    try {
      saving::read_zip_members(make_zip({{"config.json", "{}"}, {name, "x"}}), "trav.keras");
      ADD_FAILURE() << "accepted " << name;
    } catch (const IOError& e) {
      std::string message = e.what();
      EXPECT_NE(message.find("trav.keras"), std::string::npos) << message;
      EXPECT_NE(message.find("member '"), std::string::npos) << message;
    }
  }
  // Names that merely contain dots are fine.
  EXPECT_NO_THROW(saving::read_zip_members(make_zip({{"assets/a..b/.hidden", "x"}}), "ok.keras"));
}

TEST(ZipSafety, DuplicateNamesAreRefused) {
  expect_error<IOError>(
      [] {
        saving::read_zip_members(make_zip({{"config.json", "{}"}, {"config.json", "[]"}}),
                                 "dup.keras");
      },
      {"dup.keras", "same name"});
}

TEST(ZipSafety, TooManyMembersAreRefused) {
  std::vector<ZipMember> members;
  for (int i = 0; i < 10001; ++i) members.push_back({"assets/" + std::to_string(i), ""});
  expect_error<IOError>([&] { saving::read_zip_members(make_zip(members), "crowd.keras"); },
                        {"crowd.keras", "10001 members"});
}

// ---- JSON -------------------------------------------------------------------------------------

TEST(JsonSafety, ParsesNormalJson) {
  auto j = saving::parse_json(R"({"a": [1, 2, {"b": null}]})", "config.json");
  EXPECT_EQ(j["a"][2]["b"], nullptr);
}

TEST(JsonSafety, DeepNestingIsRefusedWithoutStackOverflow) {
  std::string deep(1'000'000, '[');
  expect_error<ValueError>([&] { saving::parse_json(deep, "m.keras:config.json"); },
                           {"m.keras:config.json", "256 levels", "at byte 256"});
  std::string objects;
  for (int i = 0; i < 300; ++i) objects += "{\"a\":";
  expect_error<ValueError>([&] { saving::parse_json(objects, "c.json"); }, {"c.json", "256"});
  // Exactly at the limit is fine.
  std::string ok = std::string(256, '[') + std::string(256, ']');
  EXPECT_NO_THROW(saving::parse_json(ok, "ok.json"));
  // Brackets inside strings do not count.
  EXPECT_NO_THROW(saving::parse_json("[\"" + std::string(1000, '[') + "\"]", "s.json"));
}

TEST(JsonSafety, MalformedJsonNamesTheSourceAndOffset) {
  expect_error<ValueError>([] { saving::parse_json(R"({"a": [1, 2,, 3]})", "m.keras:config.json"); },
                           {"m.keras:config.json", "at byte 13"});
  expect_error<ValueError>([] { saving::parse_json("", "empty.json"); }, {"empty.json"});
  expect_error<ValueError>([] { saving::parse_json("{\"a\": \"\xff\"}", "utf8.json"); },
                           {"utf8.json"});
}

TEST(JsonSafety, SizeLimit) {
  expect_error<ValueError>(
      [] { saving::parse_json(std::string(2000, ' ') + "1", "big.json", {.max_bytes = 1000}); },
      {"big.json", "2001 bytes", "1000"});
}

TEST(JsonSafety, CheckCount) {
  EXPECT_NO_THROW(saving::check_count("layers", saving::kMaxLayers, saving::kMaxLayers, "c.json"));
  expect_error<ValueError>(
      [] { saving::check_count("layers", 100001, saving::kMaxLayers, "m.keras:config.json"); },
      {"m.keras:config.json", "100001 layers", "100000"});
}

// ---- HDF5 files written with the C API --------------------------------------------------------

class H5Writer {
 public:
  explicit H5Writer(const std::string& path)
      : file_(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)) {}
  ~H5Writer() { H5Fclose(file_); }
  hid_t id() const { return file_; }
  hid_t group(const std::string& path) {
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t g = H5Gcreate2(file_, path.c_str(), lcpl, H5P_DEFAULT, H5P_DEFAULT);
    H5Pclose(lcpl);
    return g;
  }
  // A float32 dataset of `dims`, with a creation property list (default if -1), written with
  // `data` when given.
  void dataset(const std::string& path, std::vector<hsize_t> dims, hid_t dcpl = H5P_DEFAULT,
               const float* data = nullptr) {
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    hid_t d = H5Dcreate2(file_, path.c_str(), H5T_IEEE_F32LE, space, lcpl, dcpl, H5P_DEFAULT);
    EXPECT_GE(d, 0) << "creating " << path;
    if (data) H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Dclose(d);
    H5Sclose(space);
    H5Pclose(lcpl);
  }

 private:
  hid_t file_;
};

TEST(H5Safety, SoftAndExternalLinksAreRefusedByPath) {
  SafetyTempDir dir("h5");
  std::string path = dir.file("links.h5");
  {
    H5Writer w(path);
    float v[2] = {1, 2};
    w.dataset("layers/dense/vars/0", {2}, H5P_DEFAULT, v);
    H5Lcreate_soft("/layers/dense/vars/0", w.id(), "layers/dense/vars/1", H5P_DEFAULT,
                   H5P_DEFAULT);
    H5Lcreate_external("/etc/passwd", "/x", w.id(), "layers/ext", H5P_DEFAULT, H5P_DEFAULT);
  }
  auto f = saving::H5File::open(path);
  EXPECT_EQ(f.read("layers/dense/vars/0").to_vector<float>(), (std::vector<float>{1, 2}));
  expect_error<IOError>([&] { f.read("layers/dense/vars/1"); },
                        {path, "/layers/dense/vars/1", "soft or external link"});
  expect_error<IOError>([&] { f.read("layers/ext"); }, {path, "/layers/ext", "external link"});
  expect_error<IOError>([&] { f.children("layers/ext"); }, {"/layers/ext"});
}

TEST(H5Safety, ExternalAndVirtualDatasetsAreRefused) {
  SafetyTempDir dir("h5");
  std::string path = dir.file("datasets.h5");
  {
    H5Writer w(path);
    hid_t ext = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_external(ext, dir.file("raw.bin").c_str(), 0, 16);
    w.dataset("layers/dense/vars/0", {4}, ext);
    H5Pclose(ext);
    hid_t vds = H5Pcreate(H5P_DATASET_CREATE);
    hsize_t dims[1] = {4};
    hid_t src_space = H5Screate_simple(1, dims, nullptr);
    H5Pset_virtual(vds, src_space, "other.h5", "/data", src_space);
    w.dataset("layers/dense/vars/1", {4}, vds);
    H5Sclose(src_space);
    H5Pclose(vds);
  }
  auto f = saving::H5File::open(path);
  expect_error<IOError>([&] { f.read("layers/dense/vars/0"); },
                        {"layers/dense/vars/0", "external datasets"});
  expect_error<IOError>([&] { f.read("layers/dense/vars/1"); },
                        {"layers/dense/vars/1", "virtual datasets"});
}

TEST(H5Safety, DatasetsClaimingFarMoreThanTheyStoreAreRefused) {
  SafetyTempDir dir("h5");
  std::string path = dir.file("claims.h5");
  {
    H5Writer w(path);
    // Chunked, never written: 4 GiB declared, nothing stored.
    hid_t chunked = H5Pcreate(H5P_DATASET_CREATE);
    hsize_t chunk[2] = {1, 1024};
    H5Pset_chunk(chunked, 2, chunk);
    w.dataset("layers/dense/vars/0", {1 << 20, 1024}, chunked);
    H5Pclose(chunked);
  }
  auto bytes = saving::read_file_bytes(path);
  EXPECT_LT(bytes.size(), 100000u);
  auto f = saving::H5File::open_image(bytes, "claims.keras:model.weights.h5");
  expect_error<IOError>([&] { f.read("layers/dense/vars/0"); },
                        {"claims.keras:model.weights.h5:layers/dense/vars/0", "4294967296"});
}

TEST(H5Safety, DatasetsDeclaringMoreThanTheFileCanHoldAreRefused) {
  // A 1 GiB gzip-chunked dataset with one chunk written; its chunk index then claims that chunk
  // is 4 GiB, so "stored" no longer bounds it: the file's size must.
  SafetyTempDir dir("h5");
  std::string path = dir.file("lying.h5");
  uint32_t stored = 0;
  {
    H5Writer w(path);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hsize_t chunk[1] = {1 << 20};
    H5Pset_chunk(dcpl, 1, chunk);
    H5Pset_deflate(dcpl, 6);
    w.dataset("layers/dense/vars/0", {hsize_t{1} << 28}, dcpl);
    H5Pclose(dcpl);
    hid_t d = H5Dopen2(w.id(), "layers/dense/vars/0", H5P_DEFAULT);
    hid_t fspace = H5Dget_space(d);
    hsize_t start[1] = {0};
    H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, nullptr, chunk, nullptr);
    hid_t mspace = H5Screate_simple(1, chunk, nullptr);
    std::vector<float> zeros(size_t{1} << 20, 0.0f);
    H5Dwrite(d, H5T_NATIVE_FLOAT, mspace, fspace, H5P_DEFAULT, zeros.data());
    H5Sclose(mspace);
    H5Sclose(fspace);
    H5Dflush(d);
    stored = static_cast<uint32_t>(H5Dget_storage_size(d));
    H5Dclose(d);
  }
  auto bytes = saving::read_file_bytes(path);
  std::vector<size_t> hits;
  for (size_t i = 0; i + 4 <= bytes.size(); ++i) {
    uint32_t v;
    std::memcpy(&v, &bytes[i], 4);
    if (v == stored) hits.push_back(i);
  }
  ASSERT_EQ(hits.size(), 1u) << "the chunk size " << stored << " is not unique in the file";
  const uint32_t huge = 0xffffffffu;
  std::memcpy(&bytes[hits[0]], &huge, 4);
  auto f = saving::H5File::open_image(bytes, "lying.keras:model.weights.h5");
  expect_error<IOError>([&] { f.read("layers/dense/vars/0"); },
                        {"lying.keras:model.weights.h5:layers/dense/vars/0", "1073741824",
                         "more than a file of " + std::to_string(bytes.size())});
}

TEST(H5Safety, ShapesWhoseProductOverflowsAreRefused) {
  SafetyTempDir dir("h5");
  std::string path = dir.file("overflow.h5");
  {
    H5Writer w(path);
    hid_t chunked = H5Pcreate(H5P_DATASET_CREATE);
    hsize_t chunk[3] = {1, 1, 1};
    H5Pset_chunk(chunked, 3, chunk);
    hsize_t big = hsize_t{1} << 31;
    w.dataset("layers/dense/vars/0", {big, big, big}, chunked);
    H5Pclose(chunked);
  }
  auto f = saving::H5File::open(path);
  expect_error<IOError>([&] { f.read("layers/dense/vars/0"); },
                        {path, "layers/dense/vars/0", "overflows int64"});
}

TEST(H5Safety, AbsurdRanksAreRefused) {
  SafetyTempDir dir("h5");
  std::string path = dir.file("rank.h5");
  {
    H5Writer w(path);
    std::vector<float> one(1, 3.0f);
    w.dataset("ok", std::vector<hsize_t>(16, 1), H5P_DEFAULT, one.data());
    w.dataset("layers/dense/vars/0", std::vector<hsize_t>(17, 1), H5P_DEFAULT, one.data());
  }
  auto f = saving::H5File::open(path);
  EXPECT_EQ(f.read("ok").shape().size(), 16u);
  expect_error<IOError>([&] { f.read("layers/dense/vars/0"); },
                        {"layers/dense/vars/0", "rank 17"});
}

TEST(H5Safety, AttributeStringsOfAbsurdLengthAreRefused) {
  SafetyTempDir dir("h5");
  std::string path = dir.file("attr.h5");
  const size_t size = (size_t{64} << 20) + 1;  // one byte over the limit
  {
    // Attributes over 64 KiB need dense attribute storage (the 1.8 file format).
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_LATEST);
    hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
    H5Pset_attr_phase_change(gcpl, 0, 0);
    hid_t g = H5Gcreate2(file, "vars", H5P_DEFAULT, gcpl, H5P_DEFAULT);
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, size);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attr = H5Acreate2(g, "name", type, space, H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(attr, 0);
    std::string value(size, 'a');
    H5Awrite(attr, type, value.data());
    for (hid_t id : {attr}) H5Aclose(id);
    H5Sclose(space);
    H5Tclose(type);
    H5Gclose(g);
    H5Pclose(gcpl);
    H5Fclose(file);
    H5Pclose(fapl);
  }
  auto f = saving::H5File::open(path);
  expect_error<IOError>([&] { f.string_attribute("vars", "name"); },
                        {path + ":vars", "'name'", "67108865"});
}

// A corrupt attribute is an IOError naming it, not a silent "no attribute".
TEST(H5Safety, CorruptAttributeIsAnError) {
  SafetyTempDir dir("h5");
  std::string path = dir.file("attr.h5");
  const uint32_t size = 12345;
  {
    H5Writer w(path);
    hid_t g = w.group("layers/dense/vars");
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, size);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attr = H5Acreate2(g, "name", type, space, H5P_DEFAULT, H5P_DEFAULT);
    std::string value(size, 'a');
    H5Awrite(attr, type, value.data());
    H5Aclose(attr);
    H5Sclose(space);
    H5Tclose(type);
    H5Gclose(g);
  }
  auto bytes = saving::read_file_bytes(path);
  {
    auto f = saving::H5File::open_image(bytes, "attr.h5");
    EXPECT_EQ(f.string_attribute("layers/dense/vars", "name")->size(), size);
  }
  // The string datatype's size (class 3, the only 4 bytes equal to 12345) now claims 1 GiB.
  bool patched = false;
  for (size_t i = 0; i + 8 <= bytes.size() && !patched; ++i) {
    uint32_t v;
    std::memcpy(&v, &bytes[i + 4], 4);
    if ((bytes[i] & 0x0f) == 3 && v == size) {
      const uint32_t huge = 0x40000000u;
      std::memcpy(&bytes[i + 4], &huge, 4);
      patched = true;
    }
  }
  ASSERT_TRUE(patched);
  auto f = saving::H5File::open_image(bytes, "attr.h5");
  expect_error<IOError>([&] { f.string_attribute("layers/dense/vars", "name"); },
                        {"attr.h5:layers/dense/vars", "'name'"});
}

TEST(H5Safety, DeepGroupsAndCyclesAreBounded) {
  SafetyTempDir dir("h5");
  std::string path = dir.file("deep.h5");
  std::string deep;
  for (int i = 0; i < 70; ++i) deep += "/g";
  {
    H5Writer w(path);
    H5Gclose(w.group(deep));
    // A cycle: a hard link from a group to its parent.
    H5Gclose(w.group("a/b"));
    H5Lcreate_hard(w.id(), "/a", w.id(), "/a/b/up", H5P_DEFAULT, H5P_DEFAULT);
  }
  auto f = saving::H5File::open(path);
  std::string shallow;
  for (int i = 0; i < 64; ++i) shallow += "/g";
  EXPECT_TRUE(f.is_group(shallow));
  expect_error<IOError>([&] { f.is_group(deep); }, {path, "groups deep"});
  expect_error<IOError>([&] { f.read(deep); }, {"groups deep"});
  expect_error<IOError>([&] { f.exists("a/../a"); }, {"'..'"});
  // Following the cycle ends at the depth limit instead of recursing forever.
  std::string around = "a";
  for (int i = 0; i < 40; ++i) around += "/b/up";
  expect_error<IOError>([&] { f.children(around); }, {"groups deep"});
}

}  // namespace
}  // namespace keras

namespace keras {
namespace {

// open_image hands libhdf5 the bytes in place: several images open at once stay apart, and a
// moved H5File still reads its own.
TEST(H5Safety, ImagesOpenedInPlaceStayApart) {
  SafetyTempDir dir("h5");
  std::vector<std::vector<uint8_t>> images;
  for (float value : {1.0f, 2.0f}) {
    std::string path = dir.file("v" + std::to_string(static_cast<int>(value)) + ".h5");
    {
      H5Writer w(path);
      float v[3] = {value, value, value};
      w.dataset("layers/dense/vars/0", {3}, H5P_DEFAULT, v);
    }
    images.push_back(saving::read_file_bytes(path));
  }
  auto a = saving::H5File::open_image(images[0], "a");
  auto b = saving::H5File::open_image(images[1], "b");
  saving::H5File moved = std::move(a);
  EXPECT_EQ(moved.read("layers/dense/vars/0").to_vector<float>(), (std::vector<float>{1, 1, 1}));
  EXPECT_EQ(b.read("layers/dense/vars/0").to_vector<float>(), (std::vector<float>{2, 2, 2}));
  for (int i = 0; i < 50; ++i) {  // repeated opens and closes
    auto c = saving::H5File::open_image(images[i % 2], "c");
    EXPECT_EQ(c.read("layers/dense/vars/0").to_vector<float>()[0], static_cast<float>(i % 2 + 1));
  }
}

}  // namespace
}  // namespace keras
