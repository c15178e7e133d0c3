#pragma once
// A backend that looks to the front end as a GPU backend does, on a machine without a GPU: its
// memory is not host memory (is_host() is false) and its addresses fault when the host reads
// them, so any code above the backend contract that reads a tensor's memory directly instead of
// through copy_to_host crashes at that read. Its kernels are cpu's, called on the real
// addresses, so its results are cpu's bit for bit. Tests run models, training, saving and the
// conformance suite on it to keep the front end device-agnostic (issue 22) where no GPU runs.
// It records calls as CUDA stream capture does (backend/capture.h), so compiled steps run on it
// as on the cuda backend: one launch of a recording per replay.

#include <string>

namespace keras::testing {

/// The emulator's backend name ("device_emulator"); its device is "emulated:0".
inline const std::string kDeviceEmulator = "device_emulator";

/// Registers the emulator under kDeviceEmulator (the first call; later calls do nothing).
void register_device_emulator();

/// Makes the emulator's next end_capture() throw, as a recording the device cannot launch
/// would: for tests of what callers do then (backend/capture.h).
void fail_next_recording();

}  // namespace keras::testing
