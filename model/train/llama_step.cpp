#include "train/llama_step.hpp"

#include <cmath>
#include <string>

#include "gemm/train_gemm.hpp"
#include "train/attention_gemms.hpp"
#include "util/parallel.hpp"

namespace hifsim::train {
namespace {

using Vec = std::vector<float>;

// x (rows x D) -> y = x * r * g with r = 1/sqrt(mean(x^2) + eps) per row; r kept for backward.
void rmsnorm(const Vec& x, const float* g, size_t rows, size_t D, float eps, Vec& y, Vec& r) {
  y.resize(rows * D);
  r.resize(rows);
  for (size_t i = 0; i < rows; ++i) {
    const float* xi = &x[i * D];
    float ss = 0;
    for (size_t j = 0; j < D; ++j) ss += xi[j] * xi[j];
    r[i] = 1.0f / std::sqrt(ss / static_cast<float>(D) + eps);
    for (size_t j = 0; j < D; ++j) y[i * D + j] = xi[j] * r[i] * g[j];
  }
}

// dx += d(rmsnorm)/dx . dy, dg += sum over rows of dy * x * r.
void rmsnorm_backward(const Vec& x, const float* g, const Vec& r, const Vec& dy, size_t rows, size_t D, Vec& dx,
                      float* dg) {
  for (size_t i = 0; i < rows; ++i) {
    const float* xi = &x[i * D];
    const float* dyi = &dy[i * D];
    float dot = 0;
    for (size_t j = 0; j < D; ++j) dot += dyi[j] * g[j] * xi[j];
    const float ri = r[i], c = ri * ri * ri * dot / static_cast<float>(D);
    for (size_t j = 0; j < D; ++j) {
      dx[i * D + j] += ri * g[j] * dyi[j] - xi[j] * c;
      dg[j] += dyi[j] * xi[j] * ri;
    }
  }
}

// RoPE on interleaved pairs (2i, 2i+1) of every head, position = index within the sequence.
// sign = +1 rotates (forward), -1 rotates back (the backward of a rotation is its transpose).
void rope(Vec& x, size_t rows, size_t width, int head_dim, int seq_len, const Vec& cosv, const Vec& sinv, float sign) {
  const int half = head_dim / 2;
  for (size_t i = 0; i < rows; ++i) {
    const size_t t = i % static_cast<size_t>(seq_len);
    for (size_t h0 = 0; h0 < width; h0 += static_cast<size_t>(head_dim))
      for (int p = 0; p < half; ++p) {
        float* v = &x[i * width + h0 + 2 * p];
        const float c = cosv[t * half + p], s = sign * sinv[t * half + p];
        const float a = v[0], b = v[1];
        v[0] = a * c - b * s;
        v[1] = a * s + b * c;
      }
  }
}

struct LayerCache {
  Vec x_in, h1, r1, q, k, v, P, o, x_mid, h2, r2, gate, up, m;
};

struct Ctx {
  const LlamaWeights& w;
  LinearGemms& gemms;
  size_t N, T, B, D, KV, H, V;
  int hd, nh, nkv;
  Vec cosv, sinv;
};

// Y (rows x out) = X (rows x in) * W^T
Vec linear(Ctx& c, const std::string& name, const Vec& X, size_t rows, size_t in, const Param& W) {
  Vec Y(rows * W.rows);
  c.gemms.run(GemmKind::fprop, name, X.data(), rows, W.w.data(), W.rows, in, Y.data());
  return Y;
}

// dX += dY * W (dgrad, K = out), dW += dY^T * X (wgrad, K = tokens).
void linear_backward(Ctx& c, const std::string& name, const Vec& X, const Vec& dY, size_t rows, const Param& W,
                     Vec& dX, Vec& dW) {
  const size_t out = W.rows, in = W.cols;
  const Vec Wt = dp::transpose(W.w.data(), out, in);
  Vec tmp(rows * in);
  c.gemms.run(GemmKind::dgrad, name, dY.data(), rows, Wt.data(), in, out, tmp.data());
  for (size_t i = 0; i < tmp.size(); ++i) dX[i] += tmp[i];
  const Vec dYt = dp::transpose(dY.data(), rows, out), Xt = dp::transpose(X.data(), rows, in);
  Vec g(out * in);
  c.gemms.run(GemmKind::wgrad, name, dYt.data(), out, Xt.data(), in, rows, g.data());
  for (size_t i = 0; i < g.size(); ++i) dW[i] += g[i];
}

// Head h's Q, K or V of sequence b as a dense T x hd matrix (rows of width `width`, head offset col).
Vec head_rows(const Vec& x, size_t b, size_t T, size_t width, size_t col, size_t hd) {
  Vec y(T * hd);
  for (size_t i = 0; i < T; ++i)
    for (size_t d = 0; d < hd; ++d) y[i * hd + d] = x[(b * T + i) * width + col + d];
  return y;
}

// Attention with its six GEMMs through train::attention_gemm (the recipe's attention scheme,
// e.g. Full-Stack FP4: S = Q*K^T, dQ = dS*K, dK = dS^T*Q in NVFP4; O = P*V, dP = dO*V^T,
// dV = P^T*dO in BF16). The same maths as the FP32 loops below, GEMM by GEMM per (sequence,
// head): the scale, causal mask and softmax (and its backward) stay FP32 (row sums in double).
void attention_forward_gemms(Ctx& c, LayerCache& L) {
  const size_t T = c.T, hd = static_cast<size_t>(c.hd), rep = static_cast<size_t>(c.nh / c.nkv);
  const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
  const Recipe& r = c.gemms.recipe();
  L.P.assign(c.B * c.nh * T * T, 0.0f);
  L.o.assign(c.N * c.D, 0.0f);
  parallel_for(c.B * static_cast<size_t>(c.nh), c.gemms.threads(), [&](size_t u0, size_t u1) {
    for (size_t u = u0; u < u1; ++u) {
      const size_t b = u / c.nh, h = u % c.nh, kvh = h / rep;
      const Vec q = head_rows(L.q, b, T, c.D, h * hd, hd), k = head_rows(L.k, b, T, c.KV, kvh * hd, hd);
      const Vec v = head_rows(L.v, b, T, c.KV, kvh * hd, hd);
      float* P = &L.P[u * T * T];
      attention_gemm(r, AttentionGemm::qk, 1, q.data(), T, k.data(), T, hd, P);
      for (size_t i = 0; i < T; ++i) {
        float mx = -INFINITY;
        for (size_t j = 0; j <= i; ++j) mx = std::max(mx, P[i * T + j] *= scale);
        float sum = 0;
        for (size_t j = 0; j <= i; ++j) sum += (P[i * T + j] = std::exp(P[i * T + j] - mx));
        for (size_t j = 0; j <= i; ++j) P[i * T + j] /= sum;
        for (size_t j = i + 1; j < T; ++j) P[i * T + j] = 0.0f;
      }
      const Vec vt = dp::transpose(v.data(), T, hd);
      Vec o(T * hd);
      attention_gemm(r, AttentionGemm::pv, 1, P, T, vt.data(), hd, T, o.data());
      for (size_t i = 0; i < T; ++i)
        for (size_t d = 0; d < hd; ++d) L.o[(b * T + i) * c.D + h * hd + d] = o[i * hd + d];
    }
  });
}

// The backward of attention_forward_gemms; one task per (sequence, kv head), its heads in order.
void attention_backward_gemms(Ctx& c, const LayerCache& L, const Vec& dO, Vec& dQ, Vec& dK, Vec& dV) {
  const size_t T = c.T, hd = static_cast<size_t>(c.hd), rep = static_cast<size_t>(c.nh / c.nkv);
  const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
  const Recipe& r = c.gemms.recipe();
  dQ.assign(c.N * c.D, 0.0f);
  dK.assign(c.N * c.KV, 0.0f);
  dV.assign(c.N * c.KV, 0.0f);
  parallel_for(c.B * static_cast<size_t>(c.nkv), c.gemms.threads(), [&](size_t u0, size_t u1) {
    for (size_t u = u0; u < u1; ++u) {
      const size_t b = u / c.nkv, kvh = u % c.nkv;
      const Vec k = head_rows(L.k, b, T, c.KV, kvh * hd, hd), v = head_rows(L.v, b, T, c.KV, kvh * hd, hd);
      const Vec kt = dp::transpose(k.data(), T, hd);
      for (size_t h = kvh * rep; h < (kvh + 1) * rep; ++h) {
        const float* P = &L.P[(b * c.nh + h) * T * T];
        const Vec q = head_rows(L.q, b, T, c.D, h * hd, hd), dOh = head_rows(dO, b, T, c.D, h * hd, hd);
        Vec dP(T * T), dS(T * T, 0.0f);
        attention_gemm(r, AttentionGemm::dp, 1, dOh.data(), T, v.data(), T, hd, dP.data());
        for (size_t i = 0; i < T; ++i) {
          double rowsum = 0;
          for (size_t j = 0; j <= i; ++j) rowsum += static_cast<double>(P[i * T + j]) * dP[i * T + j];
          for (size_t j = 0; j <= i; ++j)
            dS[i * T + j] = static_cast<float>(P[i * T + j] * (dP[i * T + j] - rowsum)) * scale;
        }
        Vec dq(T * hd), dk(T * hd), dv(T * hd);
        attention_gemm(r, AttentionGemm::dq, 1, dS.data(), T, kt.data(), hd, T, dq.data());
        const Vec dSt = dp::transpose(dS.data(), T, T), qt = dp::transpose(q.data(), T, hd);
        attention_gemm(r, AttentionGemm::dk, 1, dSt.data(), T, qt.data(), hd, T, dk.data());
        const Vec Pt = dp::transpose(P, T, T), dOt = dp::transpose(dOh.data(), T, hd);
        attention_gemm(r, AttentionGemm::dv, 1, Pt.data(), T, dOt.data(), hd, T, dv.data());
        for (size_t i = 0; i < T; ++i)
          for (size_t d = 0; d < hd; ++d) {
            dQ[(b * T + i) * c.D + h * hd + d] = dq[i * hd + d];
            dK[(b * T + i) * c.KV + kvh * hd + d] += dk[i * hd + d];
            dV[(b * T + i) * c.KV + kvh * hd + d] += dv[i * hd + d];
          }
      }
    }
  });
}

void attention_forward(Ctx& c, LayerCache& L) {
  if (c.gemms.recipe().attention != AttentionScheme::fp32) return attention_forward_gemms(c, L);
  const size_t T = c.T, hd = static_cast<size_t>(c.hd), rep = static_cast<size_t>(c.nh / c.nkv);
  const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
  L.P.assign(c.B * c.nh * T * T, 0.0f);
  L.o.assign(c.N * c.D, 0.0f);
  parallel_for(c.B * static_cast<size_t>(c.nh), c.gemms.threads(), [&](size_t u0, size_t u1) {
    for (size_t u = u0; u < u1; ++u) {
      const size_t b = u / c.nh, h = u % c.nh, kvh = h / rep;
      float* P = &L.P[u * T * T];
      for (size_t i = 0; i < T; ++i) {
        const float* q = &L.q[(b * T + i) * c.D + h * hd];
        float mx = -INFINITY;
        for (size_t j = 0; j <= i; ++j) {
          const float* k = &L.k[(b * T + j) * c.KV + kvh * hd];
          float s = 0;
          for (size_t d = 0; d < hd; ++d) s += q[d] * k[d];
          P[i * T + j] = s * scale;
          mx = std::max(mx, P[i * T + j]);
        }
        float sum = 0;
        for (size_t j = 0; j <= i; ++j) sum += (P[i * T + j] = std::exp(P[i * T + j] - mx));
        float* o = &L.o[(b * T + i) * c.D + h * hd];
        for (size_t j = 0; j <= i; ++j) {
          P[i * T + j] /= sum;
          const float* v = &L.v[(b * T + j) * c.KV + kvh * hd];
          for (size_t d = 0; d < hd; ++d) o[d] += P[i * T + j] * v[d];
        }
      }
    }
  });
}

// From dO: dQ, dK, dV (before the RoPE backward). One task per (sequence, kv head): the heads
// sharing a kv head accumulate into dK/dV in one thread, in head order.
void attention_backward(Ctx& c, const LayerCache& L, const Vec& dO, Vec& dQ, Vec& dK, Vec& dV) {
  if (c.gemms.recipe().attention != AttentionScheme::fp32) return attention_backward_gemms(c, L, dO, dQ, dK, dV);
  const size_t T = c.T, hd = static_cast<size_t>(c.hd), rep = static_cast<size_t>(c.nh / c.nkv);
  const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
  dQ.assign(c.N * c.D, 0.0f);
  dK.assign(c.N * c.KV, 0.0f);
  dV.assign(c.N * c.KV, 0.0f);
  parallel_for(c.B * static_cast<size_t>(c.nkv), c.gemms.threads(), [&](size_t u0, size_t u1) {
    std::vector<double> dp(T);
    for (size_t u = u0; u < u1; ++u) {
      const size_t b = u / c.nkv, kvh = u % c.nkv;
      for (size_t h = kvh * rep; h < (kvh + 1) * rep; ++h) {
        const float* P = &L.P[(b * c.nh + h) * T * T];
        for (size_t i = 0; i < T; ++i) {
          const float* dOi = &dO[(b * T + i) * c.D + h * hd];
          double rowsum = 0;
          for (size_t j = 0; j <= i; ++j) {
            const float* v = &L.v[(b * T + j) * c.KV + kvh * hd];
            double s = 0;
            for (size_t d = 0; d < hd; ++d) s += static_cast<double>(dOi[d]) * v[d];
            dp[j] = s;
            rowsum += P[i * T + j] * s;
          }
          const float* q = &L.q[(b * T + i) * c.D + h * hd];
          float* dq = &dQ[(b * T + i) * c.D + h * hd];
          for (size_t j = 0; j <= i; ++j) {
            const float p = P[i * T + j], ds = static_cast<float>(p * (dp[j] - rowsum)) * scale;
            const float* k = &L.k[(b * T + j) * c.KV + kvh * hd];
            float* dk = &dK[(b * T + j) * c.KV + kvh * hd];
            float* dv = &dV[(b * T + j) * c.KV + kvh * hd];
            for (size_t d = 0; d < hd; ++d) {
              dq[d] += ds * k[d];
              dk[d] += ds * q[d];
              dv[d] += p * dOi[d];
            }
          }
        }
      }
    }
  });
}

}  // namespace

double loss_and_gradients(const LlamaWeights& w, const Batch& batch, LinearGemms& gemms, Gradients& grads) {
  const LlamaConfig& cfg = w.cfg;
  Ctx c{w, gemms, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, {}, {}};
  c.B = static_cast<size_t>(batch.batch), c.T = static_cast<size_t>(batch.seq_len), c.N = c.B * c.T;
  c.D = cfg.dim, c.KV = cfg.kv_dim(), c.H = cfg.hidden, c.V = cfg.vocab;
  c.hd = cfg.head_dim(), c.nh = cfg.n_heads, c.nkv = cfg.n_kv_heads;
  const int half = c.hd / 2;
  c.cosv.resize(c.T * half), c.sinv.resize(c.T * half);
  for (size_t t = 0; t < c.T; ++t)
    for (int p = 0; p < half; ++p) {
      const double freq = std::pow(static_cast<double>(cfg.rope_theta), -2.0 * p / c.hd), ang = t * freq;
      c.cosv[t * half + p] = static_cast<float>(std::cos(ang));
      c.sinv[t * half + p] = static_cast<float>(std::sin(ang));
    }
  const size_t N = c.N, D = c.D;
  auto P = [&](size_t i) -> const Param& { return w.params[i]; };
  grads.resize(w.params.size());
  for (size_t i = 0; i < w.params.size(); ++i) grads[i].assign(w.params[i].size(), 0.0f);

  // ---- forward
  Vec x(N * D);
  for (size_t i = 0; i < N; ++i)
    for (size_t j = 0; j < D; ++j) x[i * D + j] = P(w.tok).w[static_cast<size_t>(batch.inputs[i]) * D + j];
  std::vector<LayerCache> cache(w.layers.size());
  for (size_t l = 0; l < w.layers.size(); ++l) {
    const auto& ly = w.layers[l];
    LayerCache& L = cache[l];
    const std::string pre = "layers." + std::to_string(l) + ".";
    L.x_in = x;
    rmsnorm(x, P(ly.attn_norm).w.data(), N, D, cfg.norm_eps, L.h1, L.r1);
    L.q = linear(c, pre + "wq", L.h1, N, D, P(ly.wq));
    L.k = linear(c, pre + "wk", L.h1, N, D, P(ly.wk));
    L.v = linear(c, pre + "wv", L.h1, N, D, P(ly.wv));
    rope(L.q, N, D, c.hd, static_cast<int>(c.T), c.cosv, c.sinv, 1.0f);
    rope(L.k, N, c.KV, c.hd, static_cast<int>(c.T), c.cosv, c.sinv, 1.0f);
    attention_forward(c, L);
    const Vec att = linear(c, pre + "wo", L.o, N, D, P(ly.wo));
    for (size_t i = 0; i < N * D; ++i) x[i] += att[i];
    L.x_mid = x;
    rmsnorm(x, P(ly.ffn_norm).w.data(), N, D, cfg.norm_eps, L.h2, L.r2);
    L.gate = linear(c, pre + "w_gate", L.h2, N, D, P(ly.w_gate));
    L.up = linear(c, pre + "w_up", L.h2, N, D, P(ly.w_up));
    L.m.resize(N * c.H);
    for (size_t i = 0; i < N * c.H; ++i) {
      const float g = L.gate[i];
      L.m[i] = g / (1.0f + std::exp(-g)) * L.up[i];
    }
    const Vec down = linear(c, pre + "w_down", L.m, N, c.H, P(ly.w_down));
    for (size_t i = 0; i < N * D; ++i) x[i] += down[i];
  }
  Vec hf, rf;
  rmsnorm(x, P(w.final_norm).w.data(), N, D, cfg.norm_eps, hf, rf);
  Vec logits = linear(c, "classifier", hf, N, D, P(w.tok));

  // ---- loss and its gradient: dlogits = (softmax - onehot) / N
  double loss = 0;
  for (size_t i = 0; i < N; ++i) {
    float* z = &logits[i * c.V];
    float mx = -INFINITY;
    for (size_t j = 0; j < c.V; ++j) mx = std::max(mx, z[j]);
    double sum = 0;
    for (size_t j = 0; j < c.V; ++j) sum += std::exp(static_cast<double>(z[j] - mx));
    const size_t tgt = static_cast<size_t>(batch.targets[i]);
    loss += std::log(sum) - static_cast<double>(z[tgt] - mx);
    for (size_t j = 0; j < c.V; ++j)
      z[j] = static_cast<float>(std::exp(static_cast<double>(z[j] - mx)) / sum / static_cast<double>(N));
    z[tgt] -= 1.0f / static_cast<float>(N);
  }
  loss /= static_cast<double>(N);

  // ---- backward
  Vec dhf(N * D, 0.0f), dx(N * D, 0.0f);
  linear_backward(c, "classifier", hf, logits, N, P(w.tok), dhf, grads[w.tok]);
  rmsnorm_backward(x, P(w.final_norm).w.data(), rf, dhf, N, D, dx, grads[w.final_norm].data());
  for (size_t l = w.layers.size(); l-- > 0;) {
    const auto& ly = w.layers[l];
    const LayerCache& L = cache[l];
    const std::string pre = "layers." + std::to_string(l) + ".";
    // x_out = x_mid + down(m): dx flows through unchanged and into the FFN.
    Vec dm(N * c.H, 0.0f);
    linear_backward(c, pre + "w_down", L.m, dx, N, P(ly.w_down), dm, grads[ly.w_down]);
    Vec dgate(N * c.H), dup(N * c.H);
    for (size_t i = 0; i < N * c.H; ++i) {
      const float g = L.gate[i], s = 1.0f / (1.0f + std::exp(-g)), silu = g * s;
      dup[i] = dm[i] * silu;
      dgate[i] = dm[i] * L.up[i] * s * (1.0f + g * (1.0f - s));
    }
    Vec dh2(N * D, 0.0f);
    linear_backward(c, pre + "w_gate", L.h2, dgate, N, P(ly.w_gate), dh2, grads[ly.w_gate]);
    linear_backward(c, pre + "w_up", L.h2, dup, N, P(ly.w_up), dh2, grads[ly.w_up]);
    rmsnorm_backward(L.x_mid, P(ly.ffn_norm).w.data(), L.r2, dh2, N, D, dx, grads[ly.ffn_norm].data());
    // x_mid = x_in + wo(o)
    Vec dO(N * D, 0.0f);
    linear_backward(c, pre + "wo", L.o, dx, N, P(ly.wo), dO, grads[ly.wo]);
    Vec dQ, dK, dV;
    attention_backward(c, L, dO, dQ, dK, dV);
    rope(dQ, N, D, c.hd, static_cast<int>(c.T), c.cosv, c.sinv, -1.0f);
    rope(dK, N, c.KV, c.hd, static_cast<int>(c.T), c.cosv, c.sinv, -1.0f);
    Vec dh1(N * D, 0.0f);
    linear_backward(c, pre + "wq", L.h1, dQ, N, P(ly.wq), dh1, grads[ly.wq]);
    linear_backward(c, pre + "wk", L.h1, dK, N, P(ly.wk), dh1, grads[ly.wk]);
    linear_backward(c, pre + "wv", L.h1, dV, N, P(ly.wv), dh1, grads[ly.wv]);
    rmsnorm_backward(L.x_in, P(ly.attn_norm).w.data(), L.r1, dh1, N, D, dx, grads[ly.attn_norm].data());
  }
  for (size_t i = 0; i < N; ++i)
    for (size_t j = 0; j < D; ++j) grads[w.tok][static_cast<size_t>(batch.inputs[i]) * D + j] += dx[i * D + j];
  return loss;
}

}  // namespace hifsim::train
