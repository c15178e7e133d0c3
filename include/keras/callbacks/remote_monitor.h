#pragma once
// keras.callbacks.RemoteMonitor: POSTs the epoch's logs to a server at every epoch end, as
// Keras does with requests.post(root + path, ...):
//   send_as_json=false: a form (application/x-www-form-urlencoded) with one field, `field`,
//                       holding json.dumps({"epoch": epoch, <logs>...});
//   send_as_json=true:  that JSON object as the body (application/json); NaN or infinite
//                       values cannot be sent so (requests' allow_nan=False), which, like an
//                       unreachable server, gives Keras's warning
//                       "Could not reach RemoteMonitor root server at <root>" and no exception.
// The server's answer (any status) is ignored, as Keras ignores it. The logs follow "epoch" in
// name order (keras-cpp's logs are sorted; Keras's follow the order metrics were computed).
// http:// and https:// roots (cpp-httplib).

#include <map>
#include <string>

#include "keras/callbacks/callback.h"

#pragma GCC visibility push(default)
namespace keras::callbacks {

/// Arguments of keras.callbacks.RemoteMonitor.
struct RemoteMonitorOptions {
  /// The server's root URL, http:// or https://.
  std::string root = "http://localhost:9000";
  /// The path appended to `root` that the logs are POSTed to.
  std::string path = "/publish/epoch/end/";
  /// The form field holding the JSON (send_as_json=false only).
  std::string field = "data";
  /// Extra HTTP headers.
  std::map<std::string, std::string> headers;
  /// Send the logs as a JSON body (application/json) instead of a form field.
  bool send_as_json = false;
};

/// POSTs every epoch's logs to a server (keras.callbacks.RemoteMonitor).
class RemoteMonitor : public Callback {
 public:
  /// The URL is not checked here: an unreachable or invalid server warns at each epoch end.
  explicit RemoteMonitor(RemoteMonitorOptions options = {});

  void on_epoch_end(int epoch, const Logs& logs) override;

  /// The request on_epoch_end sends for these logs: its content type and body. The content
  /// type is empty when nothing can be sent (NaN or infinite values with send_as_json).
  struct Request {
    /// "application/x-www-form-urlencoded" or "application/json"; empty when nothing is sent.
    std::string content_type;
    /// The encoded form, or the JSON text.
    std::string body;
  };
  /// The request on_epoch_end would send for `epoch` (0-based) and `logs`.
  Request request(int epoch, const Logs& logs) const;

 private:
  RemoteMonitorOptions options_;
};

}  // namespace keras::callbacks

#pragma GCC visibility pop
