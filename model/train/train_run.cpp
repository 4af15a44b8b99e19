#include "train/train_run.hpp"

#include <chrono>
#include <cstdlib>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>

#include "train/adamw.hpp"
#include "train/llama_step.hpp"
#include "util/error.hpp"
#include "util/files.hpp"
#include "util/install.hpp"

namespace hifsim::train {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(path, "", "cannot read the training text");
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

double sqnr_db(const Gradients& g, const Gradients& ref) {
  double sig = 0, err = 0;
  for (size_t i = 0; i < g.size(); ++i)
    for (size_t j = 0; j < g[i].size(); ++j) {
      const double r = ref[i][j], e = static_cast<double>(g[i][j]) - r;
      sig += r * r;
      err += e * e;
    }
  return err == 0 ? std::numeric_limits<double>::infinity() : 10.0 * std::log10(sig / err);
}

std::string num(double v, int prec = 6) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::ostringstream s;
  s << std::setprecision(prec) << v;
  return s.str();
}

}  // namespace

std::string checkpoint_path(const std::string& model) {
  if (model.rfind("llama2c:", 0) == 0) return model.substr(8);
  if (model != "stories260k") throw Error("--model", model, "use stories260k or llama2c:<checkpoint path>");
  if (const char* d = std::getenv("HIFSIM_DATA"); d && *d) return std::string(d) + "/stories260K.bin";
  // The shared data folder beside the checkout (or installed data), else this workplace's
  // /work/shared/data: the same search as scripts/capture/ensure_traces.sh and the trace tests,
  // so a clone anywhere finds the checkpoint the trace step used. The first is named when none exists.
  const std::string beside = parent_dir(data_dir()) + "/shared/data/stories260K.bin";
  for (const std::string& c : {beside, std::string("/work/shared/data/stories260K.bin")})
    if (path_exists(c)) return c;
  return beside;
}

float learning_rate(const TrainRequest& r, int step) {
  if (step <= r.warmup) return r.lr * static_cast<float>(step) / static_cast<float>(r.warmup);
  const double span = std::max(1, r.steps - r.warmup), t = std::min(1.0, (step - r.warmup) / span);
  const double floor = r.lr * r.min_lr_fraction;
  return static_cast<float>(floor + 0.5 * (r.lr - floor) * (1.0 + std::cos(M_PI * t)));
}

TrainOutcome run_training(const TrainRequest& r) {
  const auto t0 = std::chrono::steady_clock::now();
  check_trainable(r.recipe);
  LlamaWeights w = read_llama2c(r.checkpoint);
  if (r.seq_len > w.cfg.max_seq)
    throw Error("--seq-len", std::to_string(r.seq_len), "exceeds the model context " + std::to_string(w.cfg.max_seq));
  const std::vector<int> tokens = byte_fallback_tokens(read_text(r.text));
  for (int t : tokens)
    if (t >= w.cfg.vocab) throw Error(r.text, "tokens", "token id " + std::to_string(t) + " outside the vocabulary");
  Recipe fp32;  // the shadow: every GEMM FP32
  fp32.name = "fp32-shadow";
  const bool is_fp32 = [&] {
    for (GemmKind k : kGemmKinds)
      if (r.recipe.kind(k).format) return false;
    return (r.recipe.keep_layers.empty() || !r.recipe.keep_format) && r.recipe.attention == AttentionScheme::fp32;
  }();
  const bool shadow = r.shadow && !is_fp32;
  LinearGemms gemms(r.recipe, r.seed, r.threads, shadow);
  LinearGemms ref_gemms(fp32, r.seed, r.threads, false);
  AdamWConfig oc;
  oc.v_format = r.recipe.second_moment;
  oc.v_sqrt = r.recipe.second_moment_sqrt;
  oc.v_linear4_rank1 = r.recipe.second_moment_linear4;
  oc.threads = r.threads;
  AdamW opt(w, oc);
  TrainOutcome out;
  for (const Param& p : w.params) out.parameters += p.size();
  out.checkpoint_hash = w.file_hash;
  out.csv = "step,loss,grad_norm,grad_sqnr_db,fprop_sqnr_db,dgrad_sqnr_db,wgrad_sqnr_db,shadow_loss,lr,seconds\n";
  Gradients g, gref;
  for (int step = 1; step <= r.steps; ++step) {
    const auto ts = std::chrono::steady_clock::now();
    const Batch b = make_batch(tokens, r.batch, r.seq_len, r.seed, static_cast<uint64_t>(step));
    TrainRow row;
    row.step = step;
    gemms.begin_step(static_cast<uint64_t>(step));
    row.loss = loss_and_gradients(w, b, gemms, g);
    if (!std::isfinite(row.loss))
      throw Error("hifsim train", "step " + std::to_string(step), "the loss is not finite under recipe " + r.recipe.name);
    for (GemmKind k : kGemmKinds) row.kind_sqnr_db[static_cast<int>(k)] = gemms.sqnr_db(k);
    if (shadow) {
      ref_gemms.begin_step(static_cast<uint64_t>(step));
      row.shadow_loss = loss_and_gradients(w, b, ref_gemms, gref);
      row.grad_sqnr_db = sqnr_db(g, gref);
    } else {
      row.shadow_loss = row.loss;
      row.grad_sqnr_db = std::numeric_limits<double>::infinity();
    }
    if (step == 1 && r.keep_first_gradients) {
      for (size_t i = 0; i < w.params.size(); ++i)
        out.first_gradients.push_back(Param{w.params[i].name, w.params[i].rows, w.params[i].cols, g[i]});
      out.first_inputs = b.inputs, out.first_targets = b.targets, out.first_loss = row.loss;
    }
    double ss = 0;
    for (const auto& t : g)
      for (float v : t) ss += static_cast<double>(v) * v;
    row.grad_norm = std::sqrt(ss);
    if (row.grad_norm > r.grad_clip) {
      const float s = static_cast<float>(r.grad_clip / row.grad_norm);
      for (auto& t : g)
        for (float& v : t) v *= s;
    }
    row.lr = learning_rate(r, step);
    opt.update(w, g, static_cast<float>(row.lr), step);
    row.seconds = seconds_since(ts);
    out.csv += std::to_string(step) + "," + num(row.loss, 9) + "," + num(row.grad_norm) + "," + num(row.grad_sqnr_db, 4) +
               "," + num(row.kind_sqnr_db[0], 4) + "," + num(row.kind_sqnr_db[1], 4) + "," + num(row.kind_sqnr_db[2], 4) +
               "," + num(row.shadow_loss, 9) + "," + num(row.lr) + "," + num(row.seconds, 4) + "\n";
    out.rows.push_back(row);
  }
  const size_t tail = std::min<size_t>(10, out.rows.size());
  for (size_t i = out.rows.size() - tail; i < out.rows.size(); ++i) out.final_loss += out.rows[i].loss / tail;
  std::vector<double> losses;
  for (const auto& row : out.rows) losses.push_back(row.loss);
  out.svg = loss_svg({{r.recipe.name, losses}}, "stories260K, recipe " + r.recipe.name + ", seed " + std::to_string(r.seed));
  out.seconds = seconds_since(t0);
  return out;
}

std::string loss_svg(const std::vector<std::pair<std::string, std::vector<double>>>& curves, const std::string& title) {
  const double W = 640, H = 400, l = 60, rt = 130, top = 40, bot = 50;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  size_t n = 1;
  for (const auto& c : curves) {
    n = std::max(n, c.second.size());
    for (double v : c.second) lo = std::min(lo, v), hi = std::max(hi, v);
  }
  if (!(hi > lo)) hi = lo + 1;
  const double pad = 0.05 * (hi - lo);
  lo -= pad, hi += pad;
  auto X = [&](double i) { return l + (W - l - rt) * (n > 1 ? i / static_cast<double>(n - 1) : 0.0); };
  auto Y = [&](double v) { return top + (H - top - bot) * (hi - v) / (hi - lo); };
  static const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2"};
  std::ostringstream s;
  s << std::fixed << std::setprecision(1);
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s << "<text x=\"" << W / 2 << "\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">" << title << "</text>\n";
  s << "<rect x=\"" << l << "\" y=\"" << top << "\" width=\"" << W - l - rt << "\" height=\"" << H - top - bot
    << "\" fill=\"none\" stroke=\"black\"/>\n";
  for (int t = 0; t <= 4; ++t) {
    const double v = lo + (hi - lo) * t / 4.0, step = 1 + (static_cast<double>(n) - 1) * t / 4.0;
    s << "<text x=\"" << l - 6 << "\" y=\"" << Y(v) + 4 << "\" text-anchor=\"end\">" << std::setprecision(2) << v
      << std::setprecision(1) << "</text>\n";
    s << "<text x=\"" << X(step - 1) << "\" y=\"" << H - bot + 16 << "\" text-anchor=\"middle\">"
      << static_cast<long>(std::lround(step)) << "</text>\n";
  }
  s << "<text x=\"" << (l + W - rt) / 2 << "\" y=\"" << H - 12 << "\" text-anchor=\"middle\">step</text>\n";
  s << "<text x=\"16\" y=\"" << (top + H - bot) / 2 << "\" transform=\"rotate(-90 16 " << (top + H - bot) / 2
    << ")\" text-anchor=\"middle\">training loss (nats/token)</text>\n";
  for (size_t c = 0; c < curves.size(); ++c) {
    const char* col = colours[c % 7];
    s << "<polyline fill=\"none\" stroke=\"" << col << "\" stroke-width=\"1.2\" points=\"";
    for (size_t i = 0; i < curves[c].second.size(); ++i) s << X(static_cast<double>(i)) << "," << Y(curves[c].second[i]) << " ";
    s << "\"/>\n";
    s << "<text x=\"" << W - rt + 10 << "\" y=\"" << top + 16 * (c + 1) << "\" fill=\"" << col << "\">" << curves[c].first
      << "</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace hifsim::train
