// The transpose buffer's bench (rtl/transpose_buffer.sv, hifsim::dp::TransposeBuffer): generator,
// checker, coverage and declared handshake (model/verif/bench.hpp).
//
// Vector: one tile, a sequence of T write beats (steps); beat i is row i, T elements of W bits
// packed from bit 0 (element e at [W*e +: W]) in ceil(T*W / 32) words. Output: T read beats, beat
// k = column k (element i = element k of row i), in the same packing. A tile's beats are written
// back to back with the stream's bubbles and read under its back-pressure; the next vector's tile
// follows in the other bank.
// Sources: corner (directed: zeros, ones, a walking one, a checkerboard, every element its own
// (row, column) index), random (uniform bits), index (each element holds its row and column and
// a random tag: any permutation, dropped or repeated row or column shows).
// Handshake: the model itself (dp::TransposeBuffer without data) is the declared timing; it
// counts the tile bins (banks, boundaries, full-buffer stalls, a write and a read in one cycle).
#include <cstdio>
#include <stdexcept>
#include <string>

#include "datapath/transpose_buffer.hpp"
#include "verif/bench.hpp"
#include "verif/units.hpp"

namespace hifsim::verif {
namespace {

enum Source { kCorner, kRandom, kIndex };
const std::vector<std::string> kSources = {"corner", "random", "index"};

struct Shape {
  int t = 16, w = 32, stages = 1;
  int beat_words() const { return (t * w + 31) / 32; }
  uint32_t mask() const { return dp::TransposeBuffer::element_mask(w); }
};

// Packs T elements (element e at [W*e +: W]) into `words` words.
void pack(const uint32_t* e, const Shape& s, uint32_t* words) {
  for (int k = 0; k < s.beat_words(); ++k) words[k] = 0;
  for (int i = 0; i < s.t; ++i) {
    const uint64_t v = static_cast<uint64_t>(e[i] & s.mask());
    const int bit = s.w * i;
    words[bit / 32] |= static_cast<uint32_t>(v << (bit % 32));
    if (bit % 32 + s.w > 32) words[bit / 32 + 1] |= static_cast<uint32_t>(v >> (32 - bit % 32));
  }
}
void unpack(const uint32_t* words, const Shape& s, uint32_t* e) {
  for (int i = 0; i < s.t; ++i) {
    const int bit = s.w * i;
    uint64_t v = words[bit / 32] >> (bit % 32);
    if (bit % 32 + s.w > 32) v |= static_cast<uint64_t>(words[bit / 32 + 1]) << (32 - bit % 32);
    e[i] = static_cast<uint32_t>(v) & s.mask();
  }
}

// The declared handshake: the buffer's cycle model without its data, and the tile bins.
class TileHandshake : public Handshake {
 public:
  TileHandshake(const Shape& s, Coverage& c, int bins) : m_(s.t, s.w, s.stages), c_(c), bins_(bins) {}
  bool in_ready(bool) const override { return m_.in_ready(); }
  bool out_valid(bool) const override { return m_.out_valid(); }
  void edge(bool in_valid, bool out_ready) override {
    const bool fire_in = in_valid && m_.in_ready(), fire_out = m_.out_valid() && out_ready;
    const int t = m_.tile();
    if (fire_in) {
      c_.hit(bins_ + 0 + m_.write_bank());                                   // tile.write_bank0/1
      if (m_.write_row() == t - 1) c_.hit(bins_ + 2);                        // tile.last_row
      if (m_.write_row() == 0 && last_row_edge_ == cycle_ - 1) c_.hit(bins_ + 3);  // tile.back_to_back
      if (m_.write_row() == t - 1) last_row_edge_ = cycle_;
    }
    if (m_.stages() == 0 ? fire_out : (m_.bank_full(m_.read_bank()) && (!m_.out_valid() || out_ready))) {
      c_.hit(bins_ + 4 + m_.read_bank());                                    // tile.read_bank0/1
      if (m_.read_column() == t - 1) c_.hit(bins_ + 6);                      // tile.last_column
    }
    if (in_valid && !m_.in_ready()) c_.hit(bins_ + 7);                       // tile.in_blocked_both_full
    if (m_.out_valid() && !out_ready && m_.read_column() > 0 && m_.read_column() < t - 1) c_.hit(bins_ + 8);
    if (fire_in && fire_out) c_.hit(bins_ + 9);                              // tile.write_and_read
    if (m_.stages() && m_.out_valid() && !m_.bank_full(0) && !m_.bank_full(1)) c_.hit(bins_ + 12);  // tile.rank_only
    accepted_ += fire_in ? 1 : 0;
    delivered_ += fire_out ? 1 : 0;
    m_.edge(in_valid, nullptr, out_ready);
    ++cycle_;
  }
  void reset() override {
    if (m_.write_row() != 0) c_.hit(bins_ + 10);                       // tile.reset_mid_tile
    if (m_.bank_full(m_.read_bank()) && m_.read_column() != 0) c_.hit(bins_ + 11);  // tile.reset_mid_read
    m_.reset();
    accepted_ = delivered_ = 0;
  }
  int occupancy() const override { return static_cast<int>(accepted_ - delivered_); }
  std::string what() const override {
    return "transpose buffer T=" + std::to_string(m_.tile()) + " STAGES=" + std::to_string(m_.stages()) +
           " (dp::TransposeBuffer: in_ready = write bank not full, a tile's columns from the edge after its last row" +
           std::string(m_.stages() ? " + 1 rank" : "") + ")";
  }

 private:
  dp::TransposeBuffer m_;
  Coverage& c_;
  int bins_;
  uint64_t accepted_ = 0, delivered_ = 0, cycle_ = 0;
  uint64_t last_row_edge_ = ~0ull - 1;
};

class TransposeBufferBench : public BenchBase {
 public:
  TransposeBufferBench(const BenchContext& ctx, std::vector<Shape> shapes)
      : BenchBase(ctx, kSources), shapes_(std::move(shapes)) {
    Coverage& c = cov();
    cov_elem_ = c.declare_group("elem.", {"zero", "all_ones", "top_bit"});
    cov_src_ = c.declare_group("source.", kSources, false);
  }

  const Shape& s() const { return shapes_[first_]; }
  void set_active(size_t first, size_t n) override {
    if (n != 1) throw std::runtime_error("transpose_buffer: one instance per group (tiles of another T do not run in lockstep)");
    BenchBase::set_active(first, n);
  }

  int steps(const Vector&) const override { return s().t; }
  bool sequential() const override { return true; }

  void golden(const Vector& v, uint32_t* out) override {
    const Shape& sh = s();
    const int t = sh.t, bw = sh.beat_words();
    std::vector<uint32_t> rows(static_cast<size_t>(t * t)), cols(rows.size());
    for (int i = 0; i < t; ++i) unpack(v.w.data() + static_cast<size_t>(i * bw), sh, rows.data() + i * t);
    dp::TransposeBuffer::transpose(rows.data(), t, sh.w, cols.data());
    for (int k = 0; k < t; ++k) pack(cols.data() + k * t, sh, out + static_cast<size_t>(k * bw));
    Coverage& c = cov();
    c.hit(cov_src_ + v.source);
    for (uint32_t e : rows) {
      if (e == 0) c.hit(cov_elem_ + 0);
      if (e == sh.mask()) c.hit(cov_elem_ + 1);
      if (e >> (sh.w - 1)) c.hit(cov_elem_ + 2);
    }
  }

  std::vector<Vector> corners() override {
    const Shape& sh = s();
    const int t = sh.t;
    std::vector<Vector> c;
    std::vector<uint32_t> e(static_cast<size_t>(t * t));
    auto add = [&](int src) { c.push_back(make(e, src)); };
    for (uint32_t fill : {0u, sh.mask()}) {
      e.assign(e.size(), fill);
      add(kCorner);
    }
    for (size_t j = 0; j < e.size(); ++j) e[j] = (j / t + j % t) % 2 ? sh.mask() : 0u;  // checkerboard
    add(kCorner);
    for (size_t one = 0; one < e.size(); one += static_cast<size_t>(t + 1)) {  // a walking one on the diagonal and off it
      e.assign(e.size(), 0);
      e[one] = 1u << (one % static_cast<size_t>(sh.w));
      add(kCorner);
      e.assign(e.size(), 0);
      e[(one + 1) % e.size()] = sh.mask();
      add(kCorner);
    }
    index_tile(e, 0);
    add(kCorner);
    return c;
  }

  Vector random(SplitMix64& r) override {
    const Shape& sh = s();
    const int src = pick_source(r, ctx_, kSources, {0, 2, 1}, kRandom);
    std::vector<uint32_t> e(static_cast<size_t>(sh.t * sh.t));
    if (src == kIndex) {
      index_tile(e, r.next32());
    } else {
      for (uint32_t& x : e) x = r.next32() & sh.mask();
    }
    return make(e, src);
  }

  std::string describe(const Vector& v) const override {
    const Shape& sh = s();
    std::string out = "tile T=" + std::to_string(sh.t) + " W=" + std::to_string(sh.w) + ", rows (element 0 first):\n";
    std::vector<uint32_t> e(static_cast<size_t>(sh.t));
    char buf[16];
    for (int i = 0; i < sh.t; ++i) {
      unpack(v.w.data() + static_cast<size_t>(i * sh.beat_words()), sh, e.data());
      out += "  row " + std::to_string(i) + ":";
      for (uint32_t x : e) {
        std::snprintf(buf, sizeof buf, " %0*x", (sh.w + 3) / 4, x);
        out += buf;
      }
      out += "\n";
    }
    return out;
  }

  std::vector<PortField> inputs() const override {
    const Shape& sh = s();
    return {{"row", 0, sh.t * sh.w,
             std::to_string(sh.t) + " elements of " + std::to_string(sh.w) + " bits, element e at [W*e +: W]; beat i of a "
             "vector is row i of its tile"}};
  }
  std::vector<PortField> outputs() const override {
    const Shape& sh = s();
    std::vector<PortField> f;
    for (int i = 0; i < sh.t; ++i)
      f.push_back({"col" + std::to_string(i), sh.w * i, sh.w, "element i of read beat k = element k of row i"});
    return f;
  }
  std::string protocol() const override {
    return "Valid/ready on both sides; a vector is one T x T tile: T write beats (rows) in, T read beats "
           "(columns) out, read beat k = column k. Two banks: in_ready is low only while both hold a whole "
           "tile; a tile's first column is offered 1 + STAGES cycles after the edge that writes its last row "
           "(out_valid does not depend on in_valid, in_ready not on out_ready); with both sides always "
           "ready a stream moves one row in and one column out per cycle. Line i of expected.hex is read beat "
           "i of the stream, the column (i mod T) of the tile of stimulus lines i - (i mod T) ... + T - 1.";
  }
  std::string active_names() const override {
    return "T=" + std::to_string(s().t) + ";W=" + std::to_string(s().w);
  }
  // The tile bins are declared with the first handshake (a cycle-level run: the cosim), so the
  // conformance vectors' README does not list bins its transactions cannot reach.
  std::unique_ptr<Handshake> handshake() const override {
    if (cov_tile_ < 0) {
      // rank_only (a column in the output rank, both banks empty) exists only with the rank.
      bool rank = false;
      for (const Shape& sh : shapes_) rank = rank || sh.stages == 1;
      std::vector<std::string> tile = {"write_bank0", "write_bank1", "last_row", "back_to_back", "read_bank0", "read_bank1",
                                       "last_column", "in_blocked_both_full", "read_stall_mid_tile", "write_and_read",
                                       "reset_mid_tile", "reset_mid_read"};
      if (rank) tile.push_back("rank_only");
      cov_tile_ = cov().declare_group("tile.", tile);
    }
    return std::unique_ptr<Handshake>(new TileHandshake(s(), cov(), cov_tile_));
  }

 private:
  Vector make(const std::vector<uint32_t>& e, int src) const {
    const Shape& sh = s();
    Vector v;
    v.w.assign(static_cast<size_t>(sh.t * sh.beat_words()), 0);
    for (int i = 0; i < sh.t; ++i) pack(e.data() + i * sh.t, sh, v.w.data() + static_cast<size_t>(i * sh.beat_words()));
    v.source = src;
    return v;
  }
  // Element (i, k) = its row and column (and a tag above them), as many bits as W holds.
  void index_tile(std::vector<uint32_t>& e, uint32_t tag) const {
    const Shape& sh = s();
    for (int i = 0; i < sh.t; ++i)
      for (int k = 0; k < sh.t; ++k)
        e[static_cast<size_t>(i * sh.t + k)] = (static_cast<uint32_t>(i) | static_cast<uint32_t>(k) << 6 | tag << 12) & sh.mask();
  }

  std::vector<Shape> shapes_;
  mutable int cov_tile_ = -1;
  int cov_elem_ = 0, cov_src_ = 0;
};

}  // namespace

std::unique_ptr<Bench> make_transpose_buffer_bench(const std::vector<Params>& sets, const BenchContext& ctx,
                                                   const std::string&) {
  std::vector<Shape> shapes;
  for (const Params& p : sets) {
    Shape sh;
    for (const auto& [k, v] : p) {
      if (k == "T") sh.t = v;
      else if (k == "W") sh.w = v;
      else if (k == "STAGES") sh.stages = v;
      else throw std::runtime_error("transpose_buffer: unknown parameter " + k);
    }
    dp::TransposeBuffer check(sh.t, sh.w, sh.stages);  // the range, one message naming the parameter
    shapes.push_back(sh);
  }
  if (shapes.empty()) shapes.push_back(Shape{});
  return std::unique_ptr<Bench>(new TransposeBufferBench(ctx, std::move(shapes)));
}

}  // namespace hifsim::verif
