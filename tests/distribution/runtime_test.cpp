// The runtime's checks of a job's settings (in this process, no job needed), a job whose
// processes disagree on its size, and the per-replica random streams.

#include <gtest/gtest.h>

#include <chrono>

#include "device_emulator.h"
#include "job_runner.h"
#include "keras/distribution/distribution.h"
#include "keras/keras.h"
#include "random/replica_streams.h"

namespace keras {
namespace {

namespace dist = keras::distribution;

void expect_error(const std::function<void()>& f, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one containing: " << fragment;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(DistributionRuntime, RefusesBadSettingsBeforeConnecting) {
  expect_error([] { dist::initialize("127.0.0.1:1234", 2, 2); }, "process_id must be in 0..1");
  expect_error([] { dist::initialize("127.0.0.1:1234", 0, 0); }, "num_processes must be >= 1");
  expect_error([] { dist::initialize("", 2, 1); }, "needs the coordinator's address");
  expect_error([] { dist::initialize("127.0.0.1", 2, 1); }, "is not of the form host:port");
  expect_error([] { dist::initialize("127.0.0.1:99999", 2, 1); }, "must be a number in 1..65535");
  expect_error([] { dist::initialize("a:1,b:2,c:3", 2, 1); }, "lists 3 addresses for 2 processes");
  EXPECT_EQ(dist::num_processes(), 1);  // none of these joined anything
}

TEST(DistributionRuntime, AnUnreachableCoordinatorTimesOut) {
  const auto start = std::chrono::steady_clock::now();
  // Port 1 on loopback: nothing listens there; process 1 never serves the rendezvous itself.
  expect_error([] { dist::initialize("127.0.0.1:1", 2, 1, {.timeout = std::chrono::milliseconds(600)}); },
               "could not reach the coordinator at 127.0.0.1:1");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_FALSE(dist::is_multi_process());
}

// The job's devices are named after the kind of device the backend computes on: virtual cpu
// devices on a host backend, one device per process on a device backend (the emulator stands
// for a GPU here: its device is "emulated:0", a cuda backend's "cuda:N").
TEST(DistributionRuntime, DevicesAreNamedAfterTheBackendsDevice) {
  {
    backend::BackendScope scope("cpu");
    EXPECT_EQ(dist::list_devices(), std::vector<std::string>{"cpu:0"});
    EXPECT_EQ(dist::list_devices("CPU"), std::vector<std::string>{"cpu:0"});
    EXPECT_TRUE(dist::list_devices("gpu").empty());
    EXPECT_EQ(dist::process_of_device("cpu:0"), 0);
  }
  testing::register_device_emulator();
  backend::BackendScope scope(testing::kDeviceEmulator);
  EXPECT_EQ(dist::list_devices(), std::vector<std::string>{"emulated:0"});
  EXPECT_EQ(dist::list_devices("emulated"), std::vector<std::string>{"emulated:0"});
  EXPECT_TRUE(dist::list_devices("cpu").empty());
  EXPECT_EQ(dist::get_device_count(), 1);
  EXPECT_EQ(dist::local_device_count(), 1);
  EXPECT_EQ(dist::process_of_device("emulated:0"), 0);
  expect_error([] { dist::process_of_device("cpu:0"); },
               "'cpu:0' is not a device of this job; its devices are emulated:0 ... emulated:0");
  // The default mesh of DataParallel is over those devices.
  EXPECT_EQ(dist::DataParallel().device_mesh()->devices(), std::vector<std::string>{"emulated:0"});
}

TEST(DistributionRuntime, ReplicaStreamsDifferAndReplicaZeroKeepsTheSingleProcessStream) {
  auto draw = [](int replica) {
    random::SeedGenerator g(42);
    random::detail::ReplicaStreamScope scope(replica);
    return random::uniform({16}, 0.0, 1.0, DType::Float32, random::Seed(g)).to_vector<float>();
  };
  random::SeedGenerator plain(42);
  const auto single = random::uniform({16}, 0.0, 1.0, DType::Float32, random::Seed(plain)).to_vector<float>();
  EXPECT_EQ(draw(0), single);
  EXPECT_NE(draw(1), single);
  EXPECT_NE(draw(2), draw(1));
  EXPECT_EQ(draw(1), draw(1));  // reproducible
}

// Process 1 claims a job of 3: both fail, process 1 naming the mismatch.
TEST(DISABLED_Job, DisagreeOnTheSize) {
  const int rank = std::atoi(std::getenv("KERAS_DISTRIBUTION_PROCESS_ID"));
  try {
    dist::initialize(std::nullopt, rank == 1 ? 3 : 2, std::nullopt);
    ADD_FAILURE() << "joined a job whose processes disagree on its size";
  } catch (const Error& e) {
    if (rank == 1) {
      EXPECT_NE(std::string(e.what()).find("was started with num_processes=3 but the coordinator "
                                           "(process 0) with 2"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(DistributionRuntime, ProcessesThatDisagreeOnTheJobSizeFail) {
  test::JobResult job = test::run_job(2, "DisagreeOnTheSize", {{"KERAS_DISTRIBUTION_TIMEOUT", "3"}});
  EXPECT_EQ(job.code, 0) << job.output;
}

}  // namespace
}  // namespace keras
