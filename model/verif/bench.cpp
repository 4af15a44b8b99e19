#include "verif/bench.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>

#include "util/error.hpp"
#include "verif/stimulus.hpp"

namespace hifsim::verif {

std::vector<uint32_t> Bench::transaction(const Vector& v, int) const { return v.w; }

int Bench::out_words() const {
  int bits = 0;
  for (const PortField& f : outputs()) bits = std::max(bits, f.lsb + f.width);
  return (bits + 31) / 32;
}

int pick_source(SplitMix64& r, const BenchContext& ctx, const std::vector<std::string>& sources,
                std::initializer_list<int> weights, int fallback) {
  if (!ctx.only_source.empty()) {
    for (size_t i = 0; i < sources.size(); ++i)
      if (sources[i] == ctx.only_source) return (i == 0) ? fallback : static_cast<int>(i);
    return fallback;
  }
  int total = 0;
  for (int w : weights) total += w;
  int x = static_cast<int>(r.below(static_cast<uint64_t>(total)));
  int i = 0;
  for (int w : weights) {
    if (x < w) return i;
    x -= w;
    ++i;
  }
  return fallback;
}

struct ValueBlocks::Tensor {
  explicit Tensor(const std::string& npy) : blocks(npy) {}
  stim::NpyBlocks blocks;
};

ValueBlocks::ValueBlocks(const BenchContext& ctx, const std::string& npy) {
  if (ctx.only_source.empty() || ctx.only_source == "tensor") tensor_.reset(new Tensor(npy));
}
ValueBlocks::~ValueBlocks() = default;

void ValueBlocks::fill(SplitMix64& r, bool shaped, float* x, int n) const {
  if (shaped) stim::shaped_block(r, x, n);
  else tensor_->blocks.block(r, x, n);
}

std::vector<PortField> fp32_fields(const std::vector<std::string>& names) {
  std::vector<PortField> f;
  for (size_t i = 0; i < names.size(); ++i) f.push_back({names[i], 32 * static_cast<int>(i), 32, "FP32"});
  return f;
}

namespace {
template <class T>
std::string hex_list(const T* c, int n, int digits) {
  std::string s;
  char buf[16];
  for (int k = 0; k < n; ++k) {
    std::snprintf(buf, sizeof buf, " %0*x", digits, static_cast<unsigned>(c[k]));
    s += buf;
  }
  return s;
}
}  // namespace

std::string hex_codes(const uint8_t* c, int n, int digits) { return hex_list(c, n, digits); }
std::string hex_codes(const uint16_t* c, int n, int digits) { return hex_list(c, n, digits); }

std::string hex_nibbles(const uint8_t* c, int n) {
  std::string s;
  for (int k = 0; k < n; ++k) s += "0123456789abcdef"[c[k] & 0xF];
  return s;
}

void random_e2m1_codes(SplitMix64& r, uint8_t* a, uint8_t* b, int n) {
  for (int k = 0; k < n; ++k) {
    a[k] = static_cast<uint8_t>(r.below(16));
    b[k] = static_cast<uint8_t>(r.below(16));
  }
}

std::vector<PortField> e2m1_code_ports() {
  return {{"a", 0, 256, "64 E2M1 codes, element k at [4k+3:4k] (bit 3 sign)"}, {"b", 256, 256, "64 E2M1 codes"}};
}

std::string e2m1_operand_line(const char* name, const std::string& scales, const uint8_t* codes) {
  return std::string(name) + ": " + scales + "  E2M1 codes k=0..63: " + hex_nibbles(codes, 64) + "\n";
}

void check_stages_only(const std::vector<Params>& sets, const std::string& unit, int def, int max) {
  for (const Params& p : sets) {
    check_params(p, {"STAGES"}, unit);
    param(p, "STAGES", def, 0, max);
  }
}

int param(const Params& p, const std::string& name, int def, int lo, int hi) {
  int v = def;
  for (const auto& kv : p)
    if (kv.first == name) v = kv.second;
  if (v < lo || v > hi)
    throw Error("--set", name, std::to_string(v) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
  return v;
}

Params parse_params(const std::string& list) {
  Params p;
  size_t at = 0;
  while (at <= list.size()) {
    const size_t end = std::min(list.find(',', at), list.size());
    const std::string item = list.substr(at, end - at);
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw Error("--set", item, "expected NAME=VALUE (comma-separated)");
    const std::string v = item.substr(eq + 1);
    size_t used = 0;
    long long x = 0;
    try {
      x = std::stoll(v, &used, 10);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != v.size() || x < -1000000 || x > 1000000)
      throw Error("--set", item.substr(0, eq), "'" + v + "' is not an integer");
    for (const auto& kv : p)
      if (kv.first == item.substr(0, eq)) throw Error("--set", kv.first, "given twice");
    p.emplace_back(item.substr(0, eq), static_cast<int>(x));
    at = end + 1;
  }
  return p;
}

void check_params(const Params& p, const std::vector<std::string>& known, const std::string& unit) {
  for (const auto& kv : p) {
    bool ok = false;
    for (const std::string& k : known) ok = ok || k == kv.first;
    if (!ok) {
      std::string all;
      for (const std::string& k : known) all += (all.empty() ? "" : ", ") + k;
      throw Error("--set", kv.first, "not a parameter of " + unit + " (it has: " + all + ")");
    }
  }
}

}  // namespace hifsim::verif
