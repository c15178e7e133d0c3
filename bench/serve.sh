#!/usr/bin/env bash
# Load test of keras-cpp serve (issue 19) on loopback, with wrk (Debian's package):
#   ./bench/serve.sh [--seconds S] [--soak-seconds T]     (defaults 10 and 300)
# The shared Fashion-MNIST CNN (../shared/models/fashion_mnist_cnn.keras), one 28x28 test image
# per request (TF Serving's "instances" format, 256 different images round robin):
#  1. in process: predict_on_batch of the same rows at batch 32 and batch 1 (bench_serve_inprocess);
#  2. the server with dynamic batching (--max-batch 32 --batch-timeout-us 1000), the same with
#     one backend thread (KERAS_CPU_THREADS=1: the model's layers unsplit, the batches being
#     the parallelism), and without batching (--max-batch 1), wrk at 1, 8 and 64 connections
#     for S seconds each: requests/s, p50, p99, errors, and the server's CPU time (wrk takes
#     the rest of the 2 cores: requests per server CPU-second against in-process rows per
#     CPU-second is what a server on cores of its own would do), split between the event loop
#     (HTTP, JSON) and the model's threads;
#     the same batching behind TF Serving's gRPC API (bench_grpc_load, one call in flight per
#     connection, each image a float32 tensor_content) at 1, 8 and 64 connections;
#     and the transport's floor: the server's CPU per request for GET /v1/models/NAME (a status
#     reply: HTTP and the kernel's loopback TCP with no JSON body and no model) at 64
#     connections;
#  3. a soak: T seconds at about 80% of the batched peak (64 connections, each pausing between
#     requests; the pause calibrated by a 10 s run), the server's RSS sampled every 5 s; every
#     request must succeed and the RSS stay within +-5% of its value after the first 30 s.
# wrk runs on the same 2 cores as the server (one wrk thread for 1 connection, two otherwise).
# Output: bench/results/latest-serve.txt and a dated copy. Nothing else should run meanwhile.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=10
soak=300
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --soak-seconds) soak="$2"; shift 2 ;;
    *) echo "usage: bench/serve.sh [--seconds S] [--soak-seconds T]" >&2; exit 2 ;;
  esac
done
./scripts/install_deps.sh
./scripts/install_deps.sh wrk
model=${KERAS_SHARED_DIR:-../shared}/models/fashion_mnist_cnn.keras
[ -f "$model" ] || { echo "bench/serve.sh: $model is missing" >&2; exit 1; }
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR=1
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build -j"$(nproc)" --target keras-cpp bench_serve_inprocess bench_grpc_load > /dev/null
work=$(mktemp -d)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2> /dev/null; rm -rf "$work"; }
trap cleanup EXIT
raw="$work/raw.txt"
export KERAS_SERVE_REQUESTS="$work/requests.jsonl"
./build/bench/serve/bench_serve_inprocess "$model" "$KERAS_SERVE_REQUESTS" 256 >> "$raw"

# Starts the server with the given flags; sets $port and $server_pid.
start_server() {
  ./build/tools/cli/keras-cpp serve "$model" --name fashion --host 127.0.0.1 --port 0 \
    --poll-interval-s 0 "$@" > "$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 300); do
    port=$(sed -n 's/^listening on port \([0-9]*\)$/\1/p' "$work/server.log")
    [ -n "$port" ] && return
    sleep 0.1
  done
  cat "$work/server.log" >&2
  exit 1
}
stop_server() {
  kill -TERM "$server_pid"
  wait "$server_pid" || true
  server_pid=
}
# The server's CPU time so far (user + system), in clock ticks: all threads, and the main
# thread's (the event loop's).
server_ticks() { awk '{print $14 + $15}' "/proc/$server_pid/stat"; }
loop_ticks() { awk '{print $14 + $15}' "/proc/$server_pid/task/$server_pid/stat"; }
# wrk CONNECTIONS SECONDS [DELAY_MS [URL_PATH]]: prints "rps p50_ms p99_ms errors
# server_cpu_s loop_cpu_s" parsed from wrk and /proc; POSTs predict bodies unless a path is
# given (then GETs it).
run_wrk() {
  local c=$1 s=$2 threads=2 before after loop_before loop_after script=(-s bench/serve/post.lua)
  local path=/v1/models/fashion:predict
  [ "$c" -lt 2 ] && threads=1
  [ -n "${4:-}" ] && { path=$4; script=(); }
  before=$(server_ticks)
  loop_before=$(loop_ticks)
  KERAS_SERVE_DELAY_MS=${3:-0} wrk -t"$threads" -c"$c" -d"${s}s" --latency --timeout 10s \
    "${script[@]}" "http://127.0.0.1:$port$path" > "$work/wrk.txt"
  after=$(server_ticks)
  loop_after=$(loop_ticks)
  python3 - "$work/wrk.txt" "$(( after - before ))" "$(getconf CLK_TCK)" "$(( loop_after - loop_before ))" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
def ms(v):
    n, unit = re.match(r"([\d.]+)(\w+)", v).groups()
    return float(n) * {"us": 1e-3, "ms": 1, "s": 1e3, "m": 6e4}[unit]
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", t).group(1))
p50 = ms(re.search(r"\s50%\s+(\S+)", t).group(1))
p99 = ms(re.search(r"\s99%\s+(\S+)", t).group(1))
errors = sum(int(n) for n in re.findall(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", t)[0]) if "Socket errors" in t else 0
non2xx = int(re.search(r"Non-2xx or 3xx responses: (\d+)", t).group(1)) if "Non-2xx" in t else 0
cpu = int(sys.argv[2]) / int(sys.argv[3])
loop = int(sys.argv[4]) / int(sys.argv[3])
print(f"{rps:.1f} {p50:.3f} {p99:.3f} {errors + non2xx} {cpu:.2f} {loop:.2f}")
PY
}

for mode in batched batched1 unbatched; do
  case $mode in
    batched) start_server --max-batch 32 --batch-timeout-us 1000 ;;
    batched1) KERAS_CPU_THREADS=1 start_server --max-batch 32 --batch-timeout-us 1000 ;;
    unbatched) start_server --max-batch 1 --batch-timeout-us 0 ;;
  esac
  run_wrk 8 3 > /dev/null  # warm-up
  for c in 1 8 64; do
    echo "server_${mode}_c$c $(run_wrk "$c" "$seconds")" >> "$raw"
  done
  [ "$mode" = batched ] && echo "status_c64 $(run_wrk 64 "$seconds" 0 /v1/models/fashion)" >> "$raw"
  stop_server
done

# TF Serving's gRPC API on the same batching: bench_grpc_load's connections, one call in
# flight each, one image per call as float32 tensor_content.
start_server --max-batch 32 --batch-timeout-us 1000 --grpc-port 0
grpc_port=$(sed -n 's/^grpc listening on port \([0-9]*\)$/\1/p' "$work/server.log")
for c in 1 8 64; do
  before=$(server_ticks)
  read -r rps p50 p99 errors <<< "$(./build/bench/serve/bench_grpc_load "127.0.0.1:$grpc_port" \
    fashion input_layer "$c" "$seconds")"
  after=$(server_ticks)
  cpu=$(python3 -c "print(round(($after - $before) / $(getconf CLK_TCK), 2))")
  echo "server_grpc_c$c $rps $p50 $p99 $errors $cpu -" >> "$raw"
done
stop_server

# The soak: 64 connections pausing between requests, the pause set for 80% of the batched
# peak from a 10 s calibration run (rate = connections / (pause + latency)).
peak=$(awk '/^server_batched_c64 /{print $2}' "$raw")
start_server --max-batch 32 --batch-timeout-us 1000
target=$(python3 -c "print($peak * 0.8)")
delay=$(python3 -c "print(max(1, round(64 / $target * 1000)))")
read -r rate _ _ _ _ _ <<< "$(run_wrk 64 10 "$delay")"
delay=$(python3 -c "
latency_ms = 64 / $rate * 1000 - $delay
print(max(1, round(64 / $target * 1000 - latency_ms)))")
echo "soak_target_rps $target" >> "$raw"
echo "soak_delay_ms $delay" >> "$raw"
( while kill -0 "$server_pid" 2> /dev/null; do
    awk '/^VmRSS/{print $2}' "/proc/$server_pid/status" 2> /dev/null
    sleep 5
  done ) > "$work/rss.txt" &
sampler=$!
echo "soak $(run_wrk 64 "$soak" "$delay")" >> "$raw"
stop_server
wait "$sampler" 2> /dev/null || true
echo "soak_rss_kb $(tr '\n' ' ' < "$work/rss.txt")" >> "$raw"

mkdir -p bench/results
python3 - "$raw" "$seconds" "$soak" <<'PY' | tee bench/results/latest-serve.txt
import sys
rows = {}
for line in open(sys.argv[1]):
    k, *v = line.split()
    rows[k] = v
seconds, soak = sys.argv[2], sys.argv[3]
ip32 = float(rows["inprocess_batch32_rows_per_s"][0])
ip32_cpu = float(rows["inprocess_batch32_rows_per_cpu_s"][0])
ip1 = float(rows["inprocess_batch1_rows_per_s"][0])
print(f"keras-cpp serve load test: fashion_mnist_cnn, one image per request, wrk on loopback, "
      f"{seconds} s per cell, 2 cores shared by server and wrk")
print(f"in process: batch 32 {ip32:.0f} rows/s ({ip32_cpu:.0f} per CPU-second); batch 1 {ip1:.0f} rows/s, "
      f"p50 {float(rows['inprocess_batch1_p50_ms'][0]):.3f} ms, p99 {float(rows['inprocess_batch1_p99_ms'][0]):.3f} ms")
print()
print("| server | connections | requests/s | p50 ms | p99 ms | errors | / in-process batch 32 | server CPU s per s | requests per server CPU-s | / in-process per CPU-s | event loop µs / request | model threads µs / request |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
names = {"batched": "batched", "batched1": "batched, 1 backend thread", "unbatched": "unbatched",
         "grpc": "gRPC, batched"}
for mode in ("batched", "batched1", "unbatched", "grpc"):
    for c in (1, 8, 64):
        rps, p50, p99, err, cpu, loop = rows[f"server_{mode}_c{c}"]
        requests = float(rps) * float(seconds)
        per_cpu = requests / float(cpu)
        # gRPC's I/O runs on its own threads: no event-loop split.
        split = ("- | -" if loop == "-" else f"{1e6 * float(loop) / requests:.1f} | "
                 f"{1e6 * (float(cpu) - float(loop)) / requests:.1f}")
        print(f"| {names[mode]} | {c} | {float(rps):.0f} | {float(p50):.2f} | {float(p99):.2f} | {err} | "
              f"{float(rps) / ip32:.2f} | {float(cpu) / float(seconds):.2f} | {per_cpu:.0f} | "
              f"{per_cpu / ip32_cpu:.2f} | {split} |")
rps, _, _, err, cpu, _ = rows["status_c64"]
print()
print(f"transport floor: GET /v1/models/fashion (status, no JSON body, no model) at 64 connections: "
      f"{float(rps):.0f} requests/s, {1e6 * float(cpu) / (float(rps) * float(seconds)):.1f} µs of "
      f"server CPU per request, errors {err}; in process the model takes {1e6 / ip32_cpu:.1f} µs "
      f"of CPU per row at batch 32")
rps, p50, p99, err, _, _ = rows["soak"]
rss = [int(v) for v in rows["soak_rss_kb"]]
settled = rss[6:] if len(rss) > 8 else rss  # after the first 30 s
base = settled[0]
drift = max(abs(v - base) / base for v in settled)
print()
print(f"soak: {soak} s at a target of {float(rows['soak_target_rps'][0]):.0f} requests/s "
      f"(80% of the batched peak; pause {rows['soak_delay_ms'][0]} ms): {float(rps):.0f} requests/s, "
      f"p50 {float(p50):.2f} ms, p99 {float(p99):.2f} ms, failed requests {err}")
print(f"soak RSS: {base / 1024:.1f} MiB after 30 s, min {min(settled) / 1024:.1f}, "
      f"max {max(settled) / 1024:.1f}, last {settled[-1] / 1024:.1f} MiB; largest drift {100 * drift:.1f}% "
      f"({len(rss)} samples)")
PY
cp bench/results/latest-serve.txt "bench/results/$(date +%Y-%m-%d-%H%M)-serve.txt"
