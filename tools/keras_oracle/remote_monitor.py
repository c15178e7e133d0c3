"""Keras 3.15's RemoteMonitor, run for real against a local HTTP server: the requests it sends
(path, content type, extra headers, body bytes as requests.post encodes them), or its warning.
Writes tests/oracle/fixtures/remote_monitor.json for tests/callbacks/remote_monitor_test.cpp.
"""

import http.server
import json
import os
import threading
import warnings

import oracle  # noqa: F401  (JAX backend, before keras)
import keras

FIXTURE = os.path.join(oracle.ORACLE_DIR, "remote_monitor.json")

received = []


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        received.append(dict(path=self.path, content_type=self.headers["Content-Type"],
                             x_token=self.headers.get("X-Token"), body=body.decode("latin-1")))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


# Logs in name order (keras-cpp's Logs are sorted by name).
CASES = [
    dict(name="form", options={}, epoch=0,
         logs={"loss": 0.25, "mae": 0.4375, "val_loss": 1e-05}),
    dict(name="json", options=dict(send_as_json=True), epoch=3,
         logs={"accuracy": 1.0, "loss": 0.123456789}),
    dict(name="field_path_headers",
         options=dict(path="/other/path?x=1", field="my field&", headers={"X-Token": "abc"}),
         epoch=12, logs={"lo ss/é\"": -2.5, "z": 3e20}),
    dict(name="form_nan", options={}, epoch=1,
         logs={"loss": float("nan"), "mae": float("inf"), "val": float("-inf")}),
    dict(name="json_nan", options=dict(send_as_json=True), epoch=1,
         logs={"loss": float("nan")}),
    dict(name="unreachable", options=dict(root="http://127.0.0.1:9"), epoch=0,
         logs={"loss": 1.0}),
]


def main():
    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    root = f"http://127.0.0.1:{server.server_port}"
    out = []
    for case in CASES:
        options = {"root": root, **case["options"]}
        received.clear()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            keras.callbacks.RemoteMonitor(**options).on_epoch_end(case["epoch"], case["logs"])
        options["root"] = options["root"].replace(root, "ROOT")
        out.append(dict(name=case["name"], options=options, epoch=case["epoch"],
                        logs={k: repr(v) for k, v in case["logs"].items()},
                        requests=list(received),
                        warnings=[str(w.message).replace(root, "ROOT") for w in caught]))
    server.shutdown()
    with open(FIXTURE, "w") as f:
        json.dump(out, f, indent=1)
    print(f"{os.path.relpath(FIXTURE, oracle.ROOT)}: {len(out)} cases")


if __name__ == "__main__":
    main()
