#include "perf/runner.hpp"

#include "perf/engine.hpp"
#include "util/error.hpp"

namespace hifsim::perf {
JobLayout layout_job(const cfg::UnitConfig& u, uint64_t M, uint64_t N, uint64_t K) {
  // In 128 bits, so that absurd shapes cannot wrap around the check.
  using U = unsigned __int128;
  auto a4k = [](U x) { return (x + 4095) / 4096 * 4096; };
  const uint64_t W = u.dot_width(), Kp = ceil_div(K, W) * W;
  const U row = u.row_bytes(Kp);
  const U a_bytes = u.quantizer ? U{M} * Kp * u.quant_input_bytes() : U{M} * row;
  const U b = a4k(a_bytes);
  const U r = a4k(b + U{N} * row);
  const U r_bytes = u.residual && !u.quantizer ? U{M} * row : 0;
  const U c = a4k(r + r_bytes);
  const U end = c + U{M} * N * 4;
  if (end > u.mem_size)
    throw Error(u.source.empty() ? "config" : u.source, "memory.size_bytes",
                "the operands and result of a " + std::to_string(M) + " x " + std::to_string(N) + " x " +
                    std::to_string(K) + " GEMM need " +
                    (end > U{UINT64_MAX} ? std::string("more than 2^64") : std::to_string(static_cast<uint64_t>(end))) +
                    " bytes, the memory has " + std::to_string(u.mem_size));
  JobLayout l;
  l.a = 0;
  l.b = static_cast<uint64_t>(b);
  l.r = static_cast<uint64_t>(r);
  l.c = static_cast<uint64_t>(c);
  l.end = static_cast<uint64_t>(end);
  return l;
}

GemmCommand make_command(const Job& j, const JobLayout& l, const HostOperands* ops) {
  GemmCommand c;
  c.M = j.M;
  c.N = j.N;
  c.K = j.K;
  c.a_addr = l.a;
  c.b_addr = l.b;
  c.r_addr = l.r;
  c.c_addr = l.c;
  c.values = j.values;
  if (ops) {
    c.a_scale = ops->a_scale;
    c.b_scale = ops->b_scale;
    c.r_scale = ops->r_scale;
    c.a_encode = ops->a_encode;
  }
  return c;
}

std::vector<JobResult> run_plain(const cfg::UnitConfig& u, const std::vector<Job>& jobs, const RunOptions& o) {
  bool any_values = false;
  for (const auto& j : jobs) any_values |= j.values;
  PlainMemory mem(u.mem_bytes_per_cycle, u.mem_latency, u.mem_size, any_values);
  Engine eng(u, o.threads);
  eng.progress = o.step_progress;
  std::vector<JobResult> out;
  uint64_t now = 0;
  for (size_t ji = 0; ji < jobs.size(); ++ji) {
    const Job& j = jobs[ji];
    if (o.progress) o.progress("[" + std::to_string(ji + 1) + "/" + std::to_string(jobs.size()) + "] " + j.name);
    const JobLayout l = layout_job(u, j.M, j.N, j.K);
    HostOperands ops;
    if (j.values) {
      if (!j.A || !j.B) throw Error("run", j.name, "values requested without operands");
      ops = prepare_operands(u, j.A, j.B, j.M, j.N, j.K, o.threads);
      mem.store().write(l.a, reinterpret_cast<const uint8_t*>(ops.a_image.data()), ops.a_image.size());
      mem.store().write(l.b, reinterpret_cast<const uint8_t*>(ops.b_image.data()), ops.b_image.size());
      if (!ops.r_image.empty())
        mem.store().write(l.r, reinterpret_cast<const uint8_t*>(ops.r_image.data()), ops.r_image.size());
    }
    const GemmCommand c = make_command(j, l, j.values ? &ops : nullptr);
    uint64_t end = 0;
    JobResult r;
    r.report = eng.run(c, mem, now, &end);
    now = end;
    r.report.name = j.name;
    r.report.instances = j.instances;
    r.report.simulated = 1;
    if (j.values) {
      std::vector<float> C(j.M * j.N);
      mem.store().read(l.c, reinterpret_cast<uint8_t*>(C.data()), C.size() * 4);
      r.report.checksum = float_checksum(C.data(), C.size());
      if (j.keep_result) r.C = std::move(C);
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace hifsim::perf
