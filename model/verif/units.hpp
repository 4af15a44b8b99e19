// The bench factories of the units (one model/verif/<unit>_bench.cpp each); use make_bench()
// (verif/conformance.hpp) rather than these.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "verif/bench.hpp"

namespace hifsim::verif {

// `sets`: the parameter sets the bench checks (RTL parameter names; a missing one takes the RTL
// default); throws hifsim::Error naming a parameter that is unknown or out of range.
using BenchFactory = std::unique_ptr<Bench> (*)(const std::vector<Params>& sets, const BenchContext& ctx,
                                               const std::string& npy);
std::unique_ptr<Bench> make_hif4_dot64_bench(const std::vector<Params>&, const BenchContext&, const std::string&);
std::unique_ptr<Bench> make_fp32_acc_bench(const std::vector<Params>&, const BenchContext&, const std::string&);
std::unique_ptr<Bench> make_nvfp4_dot64_bench(const std::vector<Params>&, const BenchContext&, const std::string&);
std::unique_ptr<Bench> make_mxfp4_dot64_bench(const std::vector<Params>&, const BenchContext&, const std::string&);
std::unique_ptr<Bench> make_mxfp8_dot32_bench(const std::vector<Params>&, const BenchContext&, const std::string&);
std::unique_ptr<Bench> make_hif8_dot_bench(const std::vector<Params>&, const BenchContext&, const std::string&);
std::unique_ptr<Bench> make_bf16_dot64_bench(const std::vector<Params>&, const BenchContext&, const std::string&);
std::unique_ptr<Bench> make_sparse_residual_add_bench(const std::vector<Params>&, const BenchContext&, const std::string&);
std::unique_ptr<Bench> make_hif4_quantizer_bench(const std::vector<Params>&, const BenchContext&, const std::string&);
std::unique_ptr<Bench> make_hadamard16_bench(const std::vector<Params>&, const BenchContext&, const std::string&);
std::unique_ptr<Bench> make_transpose_buffer_bench(const std::vector<Params>&, const BenchContext&, const std::string&);
std::unique_ptr<Bench> make_sr_quantizer_bench(const std::vector<Params>&, const BenchContext&, const std::string&);

// The protocol of every valid/ready unit (README of the conformance vectors).
extern const char* const kDotProtocol;

}  // namespace hifsim::verif
