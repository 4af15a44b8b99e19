#include "formats/packed.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>

#include "util/error.hpp"

namespace hifsim::fmt {
namespace {
constexpr char kMagic[] = "HIFSIMQ1";

void put_nibbles(std::string& out, const uint16_t* c, size_t n) {
  for (size_t i = 0; i < n; i += 2) out += static_cast<char>((c[i] & 0xF) | ((c[i + 1] & 0xF) << 4));
}
}  // namespace

size_t packed_record_bytes(Format f) { return format_traits(f).packed_record_bytes; }

std::string pack_tensor(const QTensor& q) {
  char scale_hex[64];
  std::snprintf(scale_hex, sizeof scale_hex, "%a", static_cast<double>(q.tensor_scale));
  std::ostringstream h;
  h << "format=" << format_info(q.format).name << "\nrows=" << q.rows << "\ncols=" << q.cols
    << "\npadded_cols=" << q.padded_cols << "\nblock=" << q.block() << "\nrecord_bytes=" << packed_record_bytes(q.format)
    << "\ntensor_scale=" << scale_hex << "\n";
  const std::string header = h.str();
  std::string out(kMagic, 8);
  const uint32_t hl = static_cast<uint32_t>(header.size());
  for (int i = 0; i < 4; ++i) out += static_cast<char>((hl >> (8 * i)) & 0xFF);
  out += header;
  const size_t blk = q.block();
  if (blk == 1) {
    for (uint16_t c : q.codes) {
      out += static_cast<char>(c & 0xFF);
      if (q.format == Format::bf16) out += static_cast<char>(c >> 8);
    }
    return out;
  }
  const size_t nblk = q.blocks_per_row();
  for (size_t r = 0; r < q.rows; ++r) {
    for (size_t b = 0; b < nblk; ++b) {
      const size_t bi = r * nblk + b;
      const uint16_t* c = q.codes.data() + r * q.padded_cols + b * blk;
      out += static_cast<char>(q.scales[bi]);
      if (q.format == Format::hif4) {
        out += static_cast<char>(q.l2[bi]);
        out += static_cast<char>(q.l3[bi] & 0xFF);
        out += static_cast<char>(q.l3[bi] >> 8);
      }
      if (format_info(q.format).code_bits == 4) put_nibbles(out, c, blk);
      else
        for (size_t k = 0; k < blk; ++k) out += static_cast<char>(c[k]);
    }
  }
  return out;
}

QTensor unpack_tensor(const std::string& bytes, const std::string& where) {
  if (bytes.size() < 12 || std::memcmp(bytes.data(), kMagic, 8) != 0)
    throw Error(where, "magic", "not an hifsim packed tensor (expected HIFSIMQ1)");
  uint32_t hl = 0;
  for (int i = 0; i < 4; ++i) hl |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
  if (bytes.size() < 12 + static_cast<size_t>(hl)) throw Error(where, "header", "truncated");
  std::map<std::string, std::string> kv;
  std::istringstream hs(bytes.substr(12, hl));
  std::string line;
  while (std::getline(hs, line)) {
    const size_t eq = line.find('=');
    if (eq == std::string::npos) throw Error(where, "header", "line without '=': " + line);
    kv[line.substr(0, eq)] = line.substr(eq + 1);
  }
  auto need = [&](const std::string& k) {
    auto it = kv.find(k);
    if (it == kv.end()) throw Error(where, "header: " + k, "missing");
    return it->second;
  };
  auto num = [&](const std::string& k) {
    const std::string v = need(k);
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
      throw Error(where, "header: " + k, "'" + v + "' is not a non-negative integer");
    if (v.size() > 12) throw Error(where, "header: " + k, "'" + v + "' is too large");
    return static_cast<size_t>(std::stoull(v));
  };
  QTensor q;
  const auto f = parse_format(need("format"));
  if (!f || !format_info(*f).tensor) throw Error(where, "header: format", "unknown tensor format '" + need("format") + "'");
  q.format = *f;
  q.rows = num("rows");
  q.cols = num("cols");
  q.padded_cols = num("padded_cols");
  const size_t blk = q.block();
  if (num("block") != blk) throw Error(where, "header: block", "does not match the format");
  if (q.padded_cols % blk != 0 || q.padded_cols < q.cols || q.padded_cols - q.cols >= blk)
    throw Error(where, "header: padded_cols", "inconsistent with cols and the block size");
  if (num("record_bytes") != packed_record_bytes(q.format)) throw Error(where, "header: record_bytes", "does not match the format");
  {
    const std::string ts = need("tensor_scale");
    char* end = nullptr;
    q.tensor_scale = std::strtof(ts.c_str(), &end);
    if (ts.empty() || *end != '\0' || !std::isfinite(q.tensor_scale))
      throw Error(where, "header: tensor_scale", "'" + ts + "' is not a finite number");
  }
  if (q.rows != 0 && q.padded_cols > (size_t{1} << 40) / q.rows)
    throw Error(where, "header: rows/cols", "tensor too large");
  const size_t nblk = q.padded_cols / blk;
  const size_t nrec = blk == 1 ? q.rows * q.cols : q.rows * nblk;
  const size_t payload = bytes.size() - 12 - hl;
  if (payload != nrec * packed_record_bytes(q.format))
    throw Error(where, "payload", "size " + std::to_string(payload) + " bytes, expected " +
                                      std::to_string(nrec * packed_record_bytes(q.format)));
  const unsigned char* p = reinterpret_cast<const unsigned char*>(bytes.data()) + 12 + hl;
  q.codes.assign(q.rows * q.padded_cols, 0);
  if (blk == 1) {
    for (size_t i = 0; i < nrec; ++i)
      q.codes[i] = q.format == Format::bf16 ? static_cast<uint16_t>(p[2 * i] | (p[2 * i + 1] << 8)) : p[i];
    return q;
  }
  q.scales.assign(q.rows * nblk, 0);
  if (q.format == Format::hif4) {
    q.l2.assign(q.rows * nblk, 0);
    q.l3.assign(q.rows * nblk, 0);
  }
  const bool nib = format_info(q.format).code_bits == 4;
  for (size_t r = 0; r < q.rows; ++r) {
    for (size_t b = 0; b < nblk; ++b) {
      const size_t bi = r * nblk + b;
      uint16_t* c = q.codes.data() + r * q.padded_cols + b * blk;
      q.scales[bi] = *p++;
      if (q.format == Format::hif4) {
        q.l2[bi] = *p++;
        q.l3[bi] = static_cast<uint16_t>(p[0] | (p[1] << 8));
        p += 2;
      }
      if (nib) {
        for (size_t k = 0; k < blk; k += 2, ++p) {
          c[k] = *p & 0xF;
          c[k + 1] = *p >> 4;
        }
      } else {
        for (size_t k = 0; k < blk; ++k) c[k] = *p++;
      }
    }
  }
  return q;
}

}  // namespace hifsim::fmt
