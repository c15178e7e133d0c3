#pragma once
// Where the tests find their fixtures and the programs they run. The paths are absolute and
// differ between clones, so they live in one generated source (build/tests/test_paths.cpp,
// written by tests/CMakeLists.txt) rather than in -D definitions on every test's command line:
// a test object compiled in one clone is then a ccache hit in another (CI's clean checkout).
// Every test source gets this header through `-include` (tests/CMakeLists.txt), so the macros
// below read as they did when they were compile definitions.

namespace keras::test::paths {
extern const char* const golden_dir;     // tests/golden
extern const char* const oracle_dir;     // tests/oracle/fixtures
extern const char* const shared_dir;     // ../shared (the real Keras model files)
extern const char* const fuzz_dir;       // fuzz/ (the committed corpora)
extern const char* const cli_path;       // the built keras-cpp command ("" when not built)
}  // namespace keras::test::paths

#define KERAS_GOLDEN_DIR (::keras::test::paths::golden_dir)
#define KERAS_ORACLE_DIR (::keras::test::paths::oracle_dir)
#define KERAS_SHARED_DIR (::keras::test::paths::shared_dir)
#define KERAS_FUZZ_DIR (::keras::test::paths::fuzz_dir)
#define KERAS_CLI_PATH (::keras::test::paths::cli_path)
