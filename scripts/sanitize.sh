#!/usr/bin/env bash
# Builds keras-cpp and its tests with a sanitizer (build-<name>/, RelWithDebInfo, without the
# torch backend: LibTorch is not instrumented) and runs them:
#   ./scripts/sanitize.sh address    # ASan + LSan + UBSan (-fno-sanitize-recover), the unit tests
#   ./scripts/sanitize.sh undefined  # UBSan alone (-fno-sanitize-recover), the unit tests
#   ./scripts/sanitize.sh thread     # TSan, the tests that use threads: the thread pool and the
#                                    # small-block allocator, data pipelines, concurrent inference,
#                                    # compiled functions called from several threads, serving,
#                                    # and distributed jobs
# Further arguments go to ctest (for example -R models). Any report fails the run.
# KERAS_SANITIZE_TARGETS="test_saving test_serving" builds only those test programs (and the
# keras-cpp command) for address/undefined; pass the matching -R to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:-}"
shift || true
case "$kind" in
  address) flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined" ;;
  undefined) flags="-fsanitize=undefined -fno-sanitize-recover=undefined" ;;
  thread) flags="-fsanitize=thread" ;;
  *) echo "usage: ./scripts/sanitize.sh address|undefined|thread [ctest arguments]" >&2; exit 2 ;;
esac
./scripts/install_deps.sh
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR=1
dir="build-$kind"
# -g1: line tables only, enough for the reports' stack traces, and a faster build than -g.
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKERAS_WITH_TORCH=OFF -DKERAS_WITH_CUDA=OFF \
  -DKERAS_BUILD_EXAMPLES=OFF -DKERAS_BUILD_TESTS=ON -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DCMAKE_CXX_FLAGS="$flags -fno-omit-frame-pointer" \
  -DCMAKE_EXE_LINKER_FLAGS="$flags" > /dev/null
if [ "$kind" = thread ]; then
  tests=(test_backend test_data test_models test_compiler test_serving test_distribution)
  cmake --build "$dir" -j"$(nproc)" --target keras-cpp "${tests[@]}"
  # Gloo is not instrumented: TSan cannot see its synchronization (suppressions in
  # scripts/tsan.supp); everything of keras-cpp's own is checked.
  export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/scripts/tsan.supp"
  regex="^($(IFS='|'; echo "${tests[*]#test_}"))\$"
  cd "$dir"
  ctest --output-on-failure -L unit -R "$regex" "$@"
else
  if [ -n "${KERAS_SANITIZE_TARGETS:-}" ]; then
    # shellcheck disable=SC2086
    cmake --build "$dir" -j"$(nproc)" --target keras-cpp $KERAS_SANITIZE_TARGETS
  else
    cmake --build "$dir" -j"$(nproc)"
  fi
  export ASAN_OPTIONS="detect_leaks=1 halt_on_error=1 abort_on_error=0"
  export UBSAN_OPTIONS="print_stacktrace=1 halt_on_error=1"
  cd "$dir"
  ctest --output-on-failure -L unit -j"$(nproc)" "$@"
fi
