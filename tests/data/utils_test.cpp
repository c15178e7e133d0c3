// The data utilities against NumPy and Keras's documentation: load_csv against numpy.loadtxt
// (tools/golden/data_files.py), .npy files NumPy wrote in C and Fortran order, save_npy read
// back by NumPy itself, and pad_sequences / to_categorical / split_dataset against the
// examples in Keras's docstrings.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <fstream>

#include "keras/keras.h"

namespace keras {
namespace {

const std::string kDir = std::string(KERAS_GOLDEN_DIR) + "/data/";

const std::map<std::string, Tensor>& expected() {
  static const auto arrays = utils::load_npz(kDir + "expected.npz");
  return arrays;
}

template <typename T>
std::vector<T> values(const Tensor& t) {
  return t.to_vector<T>();
}

TEST(Csv, MatchesNumpyLoadtxt) {
  auto all = utils::load_csv(kDir + "table.csv");
  EXPECT_EQ(all.column_names, std::vector<std::string>({"id", "height cm", "weight, kg", "label"}));
  const Tensor& ref = expected().at("all_f4");
  EXPECT_EQ(all.values.shape(), ref.shape());
  EXPECT_EQ(all.values.dtype(), DType::Float32);
  EXPECT_EQ(values<float>(all.values), values<float>(ref));

  auto picked = utils::load_csv(kDir + "table.csv", {.columns = {"label", "height cm"}});
  EXPECT_EQ(values<float>(picked.values), values<float>(expected().at("label_height_f4")));
  auto by_index = utils::load_csv(kDir + "table.csv", {.column_indices = {3, 1}});
  EXPECT_EQ(values<float>(by_index.values), values<float>(expected().at("label_height_f4")));

  auto labels = utils::load_csv(kDir + "table.csv", {.columns = {"label"}, .dtype = DType::Int32});
  EXPECT_EQ(labels.values.dtype(), DType::Int32);
  EXPECT_EQ(values<int32_t>(labels.column("label")), values<int32_t>(expected().at("label_i4")));
  EXPECT_THROW(labels.column("weight"), ValueError);
}

TEST(Csv, BadInputNamesTheProblem) {
  auto path = (std::filesystem::temp_directory_path() / "keras_csv_bad.csv").string();
  std::ofstream(path) << "a,b\n1,2\n3,x\n";
  try {
    utils::load_csv(path);
    FAIL();
  } catch (const ValueError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("line 3"), std::string::npos) << m;
    EXPECT_NE(m.find("'b'"), std::string::npos) << m;
    EXPECT_NE(m.find("'x'"), std::string::npos) << m;
  }
  EXPECT_THROW(utils::load_csv(path, {.columns = {"c"}}), ValueError);
  EXPECT_THROW(utils::load_csv(path, {.column_indices = {5}}), ValueError);
  EXPECT_THROW(utils::load_csv(path + ".missing"), IOError);
  std::filesystem::remove(path);
}

TEST(Npy, LoadsNumpyFilesOfSeveralDtypesInCAndFortranOrder) {
  const std::map<std::string, DType> files = {
      {"c_float64_3d", DType::Float64}, {"c_int16", DType::Int16},
      {"c_uint8", DType::UInt8},        {"c_int8", DType::Int8},
      {"c_float16", DType::Float16},    {"f_float32_2d", DType::Float32},
      {"f_int64_3d", DType::Int64}};
  for (const auto& [name, dtype] : files) {
    SCOPED_TRACE(name);
    Tensor t = utils::load_npy(kDir + name + ".npy");
    const Tensor& ref = expected().at("npy_" + name);
    EXPECT_EQ(t.dtype(), dtype);
    EXPECT_EQ(t.shape(), ref.shape());
    EXPECT_EQ(values<double>(ops::cast(t, DType::Float64)),
              values<double>(ops::cast(ref, DType::Float64)));
  }
}

TEST(Npy, SaveNpyIsReadBackByNumpy) {
  if (std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3 with numpy is not installed";
  auto dir = std::filesystem::temp_directory_path() / "keras_npy_readback";
  std::filesystem::create_directories(dir);
  std::vector<float> f{0.5f, -1.25f, 3.0f, 4.0f, 5.5f, -6.0f};
  utils::save_npy((dir / "f4.npy").string(), Tensor::from_vector(f, {2, 3}));
  std::vector<int64_t> i{1, -2, 3, 1LL << 40};
  utils::save_npy((dir / "i8.npy").string(), Tensor::from_vector(i, {4, 1}));
  utils::save_npy((dir / "t.npy").string(), ops::transpose(Tensor::from_vector(f, {2, 3})));
  std::string script =
      "import numpy as np, sys\n"
      "d = sys.argv[1]\n"
      "a = np.load(d + '/f4.npy'); b = np.load(d + '/i8.npy'); t = np.load(d + '/t.npy')\n"
      "f = np.array([[0.5, -1.25, 3.0], [4.0, 5.5, -6.0]], np.float32)\n"
      "assert a.dtype == np.float32 and np.array_equal(a, f)\n"
      "assert b.dtype == np.int64 and np.array_equal(b, [[1], [-2], [3], [1 << 40]])\n"
      "assert np.array_equal(t, f.T)\n";
  std::ofstream((dir / "check.py").string()) << script;
  std::string command = "/usr/bin/python3 " + (dir / "check.py").string() + " " + dir.string();
  EXPECT_EQ(std::system(command.c_str()), 0) << "numpy disagreed with save_npy";
  std::filesystem::remove_all(dir);
}

TEST(PadSequences, KerasDocstringExamples) {
  // keras.utils.pad_sequences's docstring, sequence = [[1], [2, 3], [4, 5, 6]].
  std::vector<std::vector<int>> sequence{{1}, {2, 3}, {4, 5, 6}};
  Tensor a = utils::pad_sequences(sequence);
  EXPECT_EQ(a.dtype(), DType::Int32);
  EXPECT_EQ(a.shape(), Shape({3, 3}));
  EXPECT_EQ(values<int32_t>(a), std::vector<int32_t>({0, 0, 1, 0, 2, 3, 4, 5, 6}));
  EXPECT_EQ(values<int32_t>(utils::pad_sequences(sequence, {.value = -1})),
            std::vector<int32_t>({-1, -1, 1, -1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(values<int32_t>(utils::pad_sequences(sequence, {.padding = "post"})),
            std::vector<int32_t>({1, 0, 0, 2, 3, 0, 4, 5, 6}));
  EXPECT_EQ(values<int32_t>(utils::pad_sequences(sequence, {.maxlen = 2})),
            std::vector<int32_t>({0, 1, 2, 3, 5, 6}));
  // truncating="post" keeps the first values (NumPy's s[:maxlen]).
  EXPECT_EQ(values<int32_t>(utils::pad_sequences(sequence, {.maxlen = 2, .truncating = "post"})),
            std::vector<int32_t>({0, 1, 2, 3, 4, 5}));
  Tensor f = utils::pad_sequences({{0.5, 1.5}, {}}, {.dtype = DType::Float32});
  EXPECT_EQ(values<float>(f), std::vector<float>({0.5f, 1.5f, 0, 0}));
  EXPECT_THROW(utils::pad_sequences(sequence, {.padding = "middle"}), ValueError);
}

TEST(ToCategorical, KerasDocstringAndNumpyPath) {
  // keras.utils.to_categorical([0, 1, 2, 3], num_classes=4): the identity matrix.
  Tensor a = utils::to_categorical(Tensor::from_vector(std::vector<int32_t>{0, 1, 2, 3}, {4}), 4);
  EXPECT_EQ(a.shape(), Shape({4, 4}));
  EXPECT_EQ(values<float>(a), values<float>(ops::eye(4)));
  // A (n, 1) label column gives (n, classes), classes inferred as max + 1 (NumPy fixture).
  Tensor b = utils::to_categorical(expected().at("categorical_in"));
  EXPECT_EQ(b.shape(), Shape({4, 3}));
  EXPECT_EQ(values<double>(ops::cast(b, DType::Float64)),
            values<double>(expected().at("categorical_out")));
  EXPECT_THROW(utils::to_categorical(Tensor::from_vector(std::vector<int32_t>{0, 5}, {2}), 3),
               ValueError);
}

TEST(Normalize, MatchesKerasNumpyFormula) {
  const Tensor& x = expected().at("normalize_in");
  for (int order : {1, 2}) {
    Tensor got = utils::normalize(x, -1, order);
    Tensor want = expected().at("normalize_l" + std::to_string(order));
    auto g = values<float>(got), w = values<float>(want);
    ASSERT_EQ(g.size(), w.size());
    for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], w[i], 1e-6) << order << " " << i;
  }
}

TEST(SplitDataset, KerasDocstringExampleAndSizeRules) {
  // keras.utils.split_dataset(np.random.random((1000, 4)), left_size=0.8): 800 and 200.
  std::vector<float> v(4000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  auto data = data::Dataset::from_tensor_slices(Tensor::from_vector(v, {1000, 4}));
  auto [left, right] = utils::split_dataset(data, {.left_size = 0.8});
  EXPECT_EQ(left.cardinality(), 800);
  EXPECT_EQ(right.cardinality(), 200);
  // Without shuffle, left is the head and right the tail.
  EXPECT_EQ(left.iterator().next()->x.single().to_vector<float>()[0], 0.0f);
  EXPECT_EQ(right.iterator().next()->x.single().to_vector<float>()[0], 3200.0f);
  auto [l2, r2] = utils::split_dataset(data, {.right_size = int64_t{100}});
  EXPECT_EQ(l2.cardinality(), 900);
  EXPECT_EQ(r2.cardinality(), 100);
  auto [l3, r3] = utils::split_dataset(data, {.left_size = int64_t{10}, .right_size = int64_t{20}});
  EXPECT_EQ(l3.cardinality(), 10);
  EXPECT_EQ(r3.cardinality(), 20);
  // Python's round: 0.25 * 10 = 2.5 rounds to 2.
  auto ten = data.take(10);
  EXPECT_EQ(utils::split_dataset(ten, {.left_size = 0.25}).first.cardinality(), 2);
  // A seeded shuffle: the two sides are disjoint and cover everything.
  auto [sl, sr] = utils::split_dataset(ten, {.left_size = 0.5, .shuffle = true, .seed = 3});
  std::set<float> seen;
  for (const auto* part : {&sl, &sr})
    for (const auto& e : *part) seen.insert(e.x.single().to_vector<float>()[0]);
  EXPECT_EQ(seen.size(), 10u);
  EXPECT_THROW(utils::split_dataset(data, {}), ValueError);
  EXPECT_THROW(utils::split_dataset(data, {.left_size = 0.7, .right_size = 0.5}), ValueError);
  EXPECT_THROW(utils::split_dataset(data, {.left_size = int64_t{1000}}), ValueError);
  EXPECT_THROW(utils::split_dataset(data, {.left_size = 1.5}), ValueError);
}

}  // namespace
}  // namespace keras
