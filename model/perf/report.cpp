#include "perf/report.hpp"

#include <sstream>
#include <stdexcept>

#include "util/json.hpp"

namespace hifsim::perf {

const std::vector<std::pair<std::string, std::string>>& action_names() {
  static const std::vector<std::pair<std::string, std::string>> n = {
      {"pe.dot_ops", "main-GEMM dot-unit operations (one W-wide dot product each)"},
      {"pe.macs", "main-GEMM element products computed (pe.dot_ops x W, K padding included)"},
      {"pe.idle_slots", "PE-cycles inside issue cycles without a valid operation (partial passes/folds, bank stalls)"},
      {"pe.scale_ops", "block-scale operations in the dot units (hif4 1, nvfp4 4, mxfp4 2, mxfp8/fp8 1 per dot op; hif8/bf16 0)"},
      {"acc.adds", "FP32 accumulator additions (one per dot op, main and residual)"},
      {"acc.loads", "accumulator registers initialised from the accumulator buffer (K continuation)"},
      {"acc.epilogue_muls", "NVFP4 per-tensor alpha multiplies (one per output)"},
      {"acc.residual_adds", "unfused residual: one FP32 add Y_main + Y_res per output"},
      {"array.weight_loads", "WS: weight blocks written into PE registers"},
      {"buffer_a.reads", "blocks (one W-element row segment) read from buffer A"},
      {"buffer_a.read_bytes", "bytes read from buffer A"},
      {"buffer_a.writes", "blocks written into buffer A"},
      {"buffer_a.write_bytes", "bytes written into buffer A"},
      {"buffer_b.reads", "blocks read from buffer B"},
      {"buffer_b.read_bytes", "bytes read from buffer B"},
      {"buffer_b.writes", "blocks written into buffer B"},
      {"buffer_b.write_bytes", "bytes written into buffer B"},
      {"buffer_acc.reads", "FP32 words read from the accumulator buffer"},
      {"buffer_acc.writes", "FP32 words written into the accumulator buffer"},
      {"dma.descriptors", "row transfers (one tile row each) processed by the DMA"},
      {"dma.read_bytes", "bytes the DMA read from memory"},
      {"dma.write_bytes", "bytes the DMA wrote to memory"},
      {"memory.reads", "read transactions served by the memory"},
      {"memory.writes", "write transactions served by the memory"},
      {"memory.read_bytes", "bytes read from the memory"},
      {"memory.write_bytes", "bytes written to the memory"},
      {"quantizer.blocks", "W-element blocks quantized on the fly (quantizer enabled)"},
      {"quantizer.residual_blocks", "residual blocks computed and quantized on the fly"},
      {"residual.dot_ops", "residual-GEMM dot operations (shared or dedicated path, see residual.path)"},
      {"residual.products", "residual-GEMM element products (2:4: W/2 per op, else W)"},
  };
  return n;
}

Actions::Actions() {
  for (const auto& [name, help] : action_names()) {
    index_[name] = items_.size();
    items_.emplace_back(name, 0);
  }
}

uint64_t& Actions::operator[](const std::string& name) {
  auto it = index_.find(name);
  if (it == index_.end()) throw std::logic_error("unknown action name " + name);
  return items_[it->second].second;
}

uint64_t Actions::get(const std::string& name) const {
  auto it = index_.find(name);
  if (it == index_.end()) throw std::logic_error("unknown action name " + name);
  return items_[it->second].second;
}

Actions& Actions::operator+=(const Actions& o) {
  for (size_t i = 0; i < items_.size(); ++i) items_[i].second += o.items_[i].second;
  return *this;
}

Actions Actions::scaled(uint64_t times) const {
  Actions a = *this;
  for (auto& it : a.items_) it.second *= times;
  return a;
}

const std::array<Cycles::Field, 7>& Cycles::fields() {
  static const std::array<Field, 7> f = {{{"total", &Cycles::total},
                                          {"fill", &Cycles::fill},
                                          {"compute", &Cycles::compute},
                                          {"memory_stall", &Cycles::memory_stall},
                                          {"drain", &Cycles::drain},
                                          {"residual", &Cycles::residual},
                                          {"bank_stall", &Cycles::bank_stall}}};
  return f;
}

Cycles& Cycles::operator+=(const Cycles& o) {
  for (const auto& [name, f] : fields()) this->*f += o.*f;
  return *this;
}

Cycles Cycles::scaled(uint64_t k) const {
  Cycles c = *this;
  for (const auto& [name, f] : fields()) c.*f *= k;
  return c;
}

bool Cycles::operator==(const Cycles& o) const {
  for (const auto& [name, f] : fields())
    if (this->*f != o.*f) return false;
  return true;
}

double RunReport::utilization() const {
  const double d = static_cast<double>(cycles.total) * static_cast<double>(peak_macs_per_cycle);
  return d > 0 ? static_cast<double>(macs) / d : 0.0;
}
double RunReport::busy_utilization() const {
  const double d = static_cast<double>(cycles.compute) * static_cast<double>(peak_macs_per_cycle);
  return d > 0 ? static_cast<double>(macs) / d : 0.0;
}

Totals totals(const std::vector<RunReport>& reports) {
  Totals t;
  for (const auto& r : reports) {
    t.cycles += r.cycles.scaled(r.instances);
    t.actions += r.actions.scaled(r.instances);
    t.macs += static_cast<double>(r.macs) * static_cast<double>(r.instances);
    t.gemms += r.instances;
  }
  return t;
}

namespace {
void cycles_json(JsonWriter& w, const Cycles& c) {
  w.begin_object();
  for (const auto& [name, f] : Cycles::fields()) w.kv(name, c.*f);
  w.end_object();
}
}  // namespace

void write_report_json(JsonWriter& w, const RunReport& r, double clock_ghz) {
  const Actions& a = r.actions;
  w.begin_object()
      .kv("name", r.name)
      .kv("M", r.M)
      .kv("N", r.N)
      .kv("K", r.K)
      .kv("instances", r.instances)
      .kv("simulated", r.simulated)
      .kv("values", r.values)
      .kv("macs", r.macs);
  w.key("cycles");
  cycles_json(w, r.cycles);
  w.kv("seconds", static_cast<double>(r.cycles.total) / (clock_ghz * 1e9))
      .kv("utilization", r.utilization())
      .kv("busy_utilization", r.busy_utilization());
  w.key("stalls").begin_object()
      .kv("compute", r.cycles.compute)
      .kv("memory", r.cycles.memory_stall)
      .kv("fill", r.cycles.fill)
      .kv("drain", r.cycles.drain)
      .end_object();
  w.key("tiling").begin_object()
      .kv("mt", r.tiling.mt)
      .kv("nt", r.tiling.nt)
      .kv("kt", r.tiling.kt)
      .kv("tiles_m", r.tiling.tiles_m)
      .kv("tiles_n", r.tiling.tiles_n)
      .kv("tiles_k", r.tiling.tiles_k)
      .kv("steps", r.tiling.steps)
      .kv("order", r.tiling.order)
      .end_object();
  w.key("bytes").begin_object();
  w.key("memory").begin_object().kv("read", a.get("memory.read_bytes")).kv("write", a.get("memory.write_bytes")).end_object();
  w.key("buffer_a").begin_object().kv("read", a.get("buffer_a.read_bytes")).kv("write", a.get("buffer_a.write_bytes")).end_object();
  w.key("buffer_b").begin_object().kv("read", a.get("buffer_b.read_bytes")).kv("write", a.get("buffer_b.write_bytes")).end_object();
  w.key("buffer_acc").begin_object()
      .kv("read", a.get("buffer_acc.reads") * 4)
      .kv("write", a.get("buffer_acc.writes") * 4)
      .end_object();
  w.end_object();
  w.key("actions").begin_object();
  for (const auto& [k, v] : a.items()) w.kv(k, v);
  w.end_object();
  if (r.values) w.kv("checksum", r.checksum);
  else w.key("checksum").null();
  w.end_object();
}

std::string reports_csv(const std::vector<RunReport>& reports) {
  std::ostringstream o;
  o << "name,M,N,K,instances,simulated,macs";
  for (const auto& [name, f] : Cycles::fields()) o << ",cycles_" << name;
  o << ",utilization,busy_utilization,mt,nt,kt,order,checksum";
  for (const auto& [k, help] : action_names()) o << "," << k;
  o << "\n";
  for (const auto& r : reports) {
    char u[64], bu[64];
    std::snprintf(u, sizeof u, "%.6f", r.utilization());
    std::snprintf(bu, sizeof bu, "%.6f", r.busy_utilization());
    o << r.name << "," << r.M << "," << r.N << "," << r.K << "," << r.instances << "," << r.simulated << "," << r.macs;
    for (const auto& [name, f] : Cycles::fields()) o << "," << r.cycles.*f;
    o << "," << u << "," << bu << "," << r.tiling.mt << "," << r.tiling.nt << "," << r.tiling.kt << ","
      << r.tiling.order << "," << r.checksum;
    for (const auto& [k, v] : r.actions.items()) o << "," << v;
    o << "\n";
  }
  return o.str();
}

}  // namespace hifsim::perf
