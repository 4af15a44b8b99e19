// The SystemC TLM-2.0 model (model/tlm). SystemC elaborates once per process, so every TEST runs
// in its own process (gtest_discover_tests); running this binary by hand needs --gtest_filter
// with one test. Each test checks the TLM run against the plain timing core (same cycles, stalls,
// actions) and the values against dp::gemm (bit for bit).
#include <gtest/gtest.h>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "gemm/residual_gemm.hpp"
#include "perf/runner.hpp"
#include "tlm/common.hpp"
#include "tlm/matrix_unit.hpp"
#include "tlm/memory.hpp"
#include "tlm/run_tlm.hpp"
#include "tlm_test_util.hpp"
#include "util/error.hpp"

using namespace hifsim;

namespace {

struct Shape {
  uint64_t M, N, K;
  bool values;
};

// Runs the shapes through the TLM model and the plain engine; compares everything.
void tlm_matches(const cfg::UnitConfig& u, const std::vector<Shape>& shapes) {
  std::vector<std::vector<float>> store;
  std::vector<perf::Job> jobs;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const Shape& s = shapes[i];
    perf::Job j;
    j.name = "job" + std::to_string(i);
    j.M = s.M;
    j.N = s.N;
    j.K = s.K;
    j.values = j.keep_result = s.values;
    if (s.values) {
      store.push_back(test::random_values(s.M * s.K, 100 + i));
      store.push_back(test::random_values(s.N * s.K, 200 + i));
      j.A = store[store.size() - 2].data();
      j.B = store.back().data();
    }
    jobs.push_back(j);
  }
  const auto tlm = tlm_model::run_tlm(u, jobs);
  const auto plain = perf::run_plain(u, jobs);
  ASSERT_EQ(tlm.size(), jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    SCOPED_TRACE(jobs[i].name + " " + std::to_string(jobs[i].M) + "x" + std::to_string(jobs[i].N) + "x" +
                 std::to_string(jobs[i].K));
    EXPECT_EQ(tlm[i].report.cycles, plain[i].report.cycles);
    EXPECT_EQ(tlm[i].report.cycles.total, plain[i].report.cycles.total);
    EXPECT_EQ(tlm[i].report.actions, plain[i].report.actions);
    EXPECT_EQ(tlm[i].report.checksum, plain[i].report.checksum);
    EXPECT_GT(tlm[i].report.cycles.total, 0u);
    if (jobs[i].values) {
      const auto ref = dp::gemm_with_residual(jobs[i].A, jobs[i].M, jobs[i].K, jobs[i].B, jobs[i].N, u.gemm_spec(),
                                              u.residual_spec);
      EXPECT_TRUE(test::same_bits(tlm[i].C, ref)) << "TLM result differs from dp::gemm";
    }
  }
}

const std::vector<Shape> kShapes = {{5, 7, 130, true}, {33, 9, 200, true}, {16, 16, 640, true}, {64, 48, 1024, false},
                                    {5, 7, 130, false}};

}  // namespace

class TlmFormat : public ::testing::TestWithParam<const char*> {};

TEST_P(TlmFormat, OutputStationaryMatchesPlainAndGemm) { tlm_matches(test::small_unit(GetParam()), kShapes); }
TEST_P(TlmFormat, WeightStationaryMatchesPlainAndGemm) {
  tlm_matches(test::small_unit(GetParam(), {"array.dataflow=ws"}), kShapes);
}
INSTANTIATE_TEST_SUITE_P(Formats, TlmFormat, ::testing::Values("hif4", "nvfp4", "mxfp4", "hif8", "bf16"));

TEST(Tlm, ApproximatelyTimedEqualsLooselyTimed) {
  tlm_matches(test::small_unit("hif4", {"sim.mode=at", "dma.outstanding=3"}), kShapes);
}

TEST(Tlm, TinyQuantumGivesTheSameCycles) {
  tlm_matches(test::small_unit("mxfp4", {"sim.quantum_cycles=1", "array.dataflow=ws"}), kShapes);
}

TEST(Tlm, ResidualAndQuantizer) {
  tlm_matches(test::small_unit("hif4", {"residual.enabled=true", "residual.kind=2:4", "quantizer.enabled=true",
                                         "residual.path=dedicated"}),
              kShapes);
}

TEST(Tlm, SharedResidualApproximatelyTimed) {
  tlm_matches(test::small_unit("nvfp4", {"residual.enabled=true", "residual.kind=top50", "residual.mode=fused",
                                          "sim.mode=at", "sim.value_engine=unit"}),
              {{9, 10, 192, true}, {20, 6, 320, false}});
}

TEST(Tlm, HandComputedCaseThroughTheTlmModel) {
  // test_timing.cpp case A: 36 cycles (fill 11, compute 2, memory 8, drain 15).
  perf::Job j;
  j.M = j.N = 2;
  j.K = 128;
  const auto r = tlm_model::run_tlm(test::tiny({"tiling.m=2", "tiling.n=2", "tiling.k=128"}), {j});
  EXPECT_EQ(r[0].report.cycles.total, 36u);
  EXPECT_EQ(r[0].report.cycles.fill, 11u);
  EXPECT_EQ(r[0].report.cycles.memory_stall, 8u);
  EXPECT_EQ(r[0].report.cycles.drain, 15u);
}

TEST(Tlm, SecondElaborationIsRejected) {
  perf::Job j;
  j.M = j.N = 2;
  j.K = 64;
  tlm_model::run_tlm(test::tiny(), {j});
  try {
    tlm_model::run_tlm(test::tiny(), {j});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("runs once per process"), std::string::npos);
  }
}

TEST(Tlm, HostErrorsAreReported) {
  // Operands that do not fit the memory: the message names the config field.
  const cfg::UnitConfig u = test::tiny({"memory.size_bytes=1KiB"});
  perf::Job j;
  j.M = j.N = 64;
  j.K = 64;
  try {
    tlm_model::run_tlm(u, {j});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("tiny.yaml: memory.size_bytes: the operands and result"), std::string::npos)
        << e.what();
  }
}

// ---- the register interface, driven by a test initiator ----
namespace {
using namespace sc_core;

struct RegTester : sc_module {
  tlm_utils::simple_initiator_socket<RegTester> cfg;
  sc_in<bool> irq;
  std::vector<std::string> log;
  RegTester(sc_module_name n) : sc_module(n), cfg("cfg"), irq("irq") {
    SC_HAS_PROCESS(RegTester);
    SC_THREAD(run);
  }
  tlm::tlm_response_status access(uint64_t a, uint64_t* v, bool w, unsigned len = 8) {
    tlm::tlm_generic_payload p;
    sc_time d = SC_ZERO_TIME;
    p.set_command(w ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    p.set_address(a);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(v));
    p.set_data_length(len);
    p.set_streaming_width(len);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    cfg->b_transport(p, d);
    wait(d);
    return p.get_response_status();
  }
  void run() {
    uint64_t v = 0;
    log.push_back("bad address " + std::to_string(access(0x200, &v, false)));
    log.push_back("odd size " + std::to_string(access(0x10, &v, false, 2)));
    uint64_t m = 2, k = 64, c_addr = 1ull << 20, b_addr = 4096;
    access(tlm_model::reg::M, &m, true);
    access(tlm_model::reg::N, &m, true);
    access(tlm_model::reg::K, &k, true);
    access(tlm_model::reg::B_ADDR, &b_addr, true);
    access(tlm_model::reg::C_ADDR, &c_addr, true);
    uint64_t one = 1;
    access(tlm_model::reg::CTRL, &one, true);
    uint64_t st = 0;
    access(tlm_model::reg::STATUS, &st, false);
    log.push_back("status after start " + std::to_string(st));
    log.push_back("write while busy " + std::to_string(access(tlm_model::reg::M, &m, true)));
    log.push_back("start while busy " + std::to_string(access(tlm_model::reg::CTRL, &one, true)));
    wait(irq.posedge_event());
    access(tlm_model::reg::STATUS, &st, false);
    log.push_back("status at irq " + std::to_string(st));
    uint64_t cyc = 0;
    access(tlm_model::reg::CYCLES, &cyc, false);
    log.push_back("cycles " + std::to_string(cyc));
    uint64_t clr = 6;
    access(tlm_model::reg::STATUS, &clr, true);
    wait(SC_ZERO_TIME);
    wait(SC_ZERO_TIME);
    access(tlm_model::reg::STATUS, &st, false);
    log.push_back("status after clear " + std::to_string(st) + " irq " + std::to_string(irq.read()));
    // A command whose addresses are outside the memory: the unit reports an error.
    uint64_t far = 1ull << 40;
    access(tlm_model::reg::A_ADDR, &far, true);
    access(tlm_model::reg::CTRL, &one, true);
    wait(irq.posedge_event());
    access(tlm_model::reg::STATUS, &st, false);
    log.push_back("status bad command " + std::to_string(st));
  }
};
}  // namespace

TEST(Tlm, RegisterInterface) {
  const cfg::UnitConfig u = test::tiny({"memory.size_bytes=16MiB"});
  tlm_model::Memory mem("memory", u.mem_bytes_per_cycle, u.mem_latency, u.mem_size, false);
  tlm_model::MatrixUnit unit("unit", u);
  RegTester t("tester");
  sc_signal<bool> irq("irq");
  t.cfg.bind(unit.cfg);
  unit.mem.bind(mem.socket);
  unit.irq(irq);
  t.irq(irq);
  sc_start();
  const std::vector<std::string> want = {
      "bad address " + std::to_string(tlm::TLM_ADDRESS_ERROR_RESPONSE),
      "odd size " + std::to_string(tlm::TLM_ADDRESS_ERROR_RESPONSE),
      "status after start 1",
      "write while busy " + std::to_string(tlm::TLM_GENERIC_ERROR_RESPONSE),
      "start while busy " + std::to_string(tlm::TLM_GENERIC_ERROR_RESPONSE),
      "status at irq 2",
      // K = 64: A rows done 11, 12, B rows 13, 14; step 14..15 (one block; no earlier pass is
      // draining); tail 4 -> 19; store rows s = 19, 20 -> done 30, 31.
      "cycles 31",
      "status after clear 0 irq 0",
      "status bad command 6",
  };
  ASSERT_EQ(t.log.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(t.log[i], want[i]);
  EXPECT_NE(unit.last_error().find("memory"), std::string::npos) << unit.last_error();
}

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
