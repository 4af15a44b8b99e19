// hifsim train: fine-tune stories260K on the shipped text under a recipe, every linear-layer GEMM
// (fprop, dgrad, wgrad) through the recipe's bit-exact engine; loss.csv, loss.svg, manifest.
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "args.hpp"
#include "command.hpp"
#include "io/npy.hpp"
#include "train/train_run.hpp"
#include "util/error.hpp"
#include "util/files.hpp"
#include "util/install.hpp"
#include "util/manifest.hpp"

namespace {
using namespace hifsim;

int run(const std::vector<std::string>& args, const std::vector<std::string>& argv) {
  cli::ArgParser p("hifsim train --model stories260k --recipe R --steps N --seed S --out DIR [options]",
                   "Fine-tunes a llama2.c model on the shipped text (next-token loss), every linear-layer GEMM\n"
                   "(fprop, dgrad, wgrad) through the recipe's bit-exact engine, norms/RoPE/attention/SwiGLU/\n"
                   "loss in FP32, AdamW (docs/training.md). Writes DIR/loss.csv, DIR/loss.svg, DIR/manifest.json.");
  p.option("model", "M", "stories260k ($HIFSIM_DATA/stories260K.bin) or llama2c:<path>", std::string("stories260k"));
  p.option("recipe", "R", "a recipe name (configs/recipes/R.yaml) or a recipe .yaml path", std::nullopt, true);
  p.option("steps", "N", "optimizer steps", std::string("200"));
  p.option("seed", "S", "seed of the batches and of every random stream", std::string("0"));
  p.option("out", "DIR", "output folder", std::nullopt, true);
  p.option("text", "FILE", "training text (bytes -> the vocabulary's byte-fallback tokens)",
           std::string("traces/text/pride_and_prejudice_ch1.txt"));
  p.option("batch", "B", "sequences per step", std::string("4"));
  p.option("seq-len", "T", "tokens per sequence", std::string("64"));
  p.option("lr", "X", "peak learning rate (10 warm-up steps, cosine to 10 %)", std::string("0.001"));
  p.option("threads", "T", "worker threads (0 = all); results do not depend on it", std::string("0"));
  p.flag("no-shadow", "skip the FP32 shadow step and per-kind SQNR (faster; those columns read inf)");
  p.flag("gradients", "also write step 1's gradients as DIR/gradients/<param>.npy and its batch (the torch check)");
  p.flag("quiet", "print nothing on success");
  if (!p.parse(args)) return 0;

  train::TrainRequest r;
  r.checkpoint = train::checkpoint_path(p.get("model"));
  r.text = locate_data(p.get("text"));
  r.recipe = train::load_recipe(p.get("recipe"));
  r.steps = static_cast<int>(p.get_int("steps", 1, 1000000));
  r.seed = p.get_u64("seed");
  r.batch = static_cast<int>(p.get_int("batch", 1, 4096));
  r.seq_len = static_cast<int>(p.get_int("seq-len", 2, 1 << 20));
  r.lr = static_cast<float>(p.get_double("lr"));
  if (!(r.lr > 0)) throw Error("--lr", p.get("lr"), "must be positive");
  r.threads = static_cast<unsigned>(p.get_int("threads", 0, 1024));
  r.shadow = !p.is_set("no-shadow");
  r.keep_first_gradients = p.is_set("gradients");
  if (!path_exists(r.checkpoint)) throw Error(r.checkpoint, "", "checkpoint not found (set HIFSIM_DATA to the folder holding stories260K.bin)");

  const std::string out = p.get("out");
  OutputSet outs(out + "/manifest.json");
  outs.expect(out + "/loss.csv");
  outs.expect(out + "/loss.svg");
  const train::TrainOutcome res = train::run_training(r);
  outs.add(out + "/loss.csv", res.csv, "per step: loss, gradient norm, gradient SQNR vs the FP32 shadow, per-kind GEMM SQNR");
  outs.add(out + "/loss.svg", res.svg, "training loss per step");
  if (r.keep_first_gradients) {
    for (const train::Param& g : res.first_gradients) {
      const std::string path = out + "/gradients/" + g.name + ".npy";
      outs.add(path, [&g](const std::string& f) { io::write_npy(f, {g.rows, g.cols}, g.w.data()); }, "step 1 gradient");
    }
    std::ostringstream b;
    b << "# step 1 batch: input target (one token per line); loss " << std::setprecision(9) << res.first_loss << "\n";
    for (size_t i = 0; i < res.first_inputs.size(); ++i) b << res.first_inputs[i] << " " << res.first_targets[i] << "\n";
    outs.add(out + "/gradients/batch.txt", b.str(), "step 1 batch and loss");
  }
  Manifest m;
  m.command = "train";
  m.argv = argv;
  m.seed = r.seed;
  m.add_config(r.recipe.path);
  m.add_input(r.checkpoint);
  m.add_input(r.text);
  std::ostringstream fl;
  fl << std::setprecision(9) << res.final_loss;
  m.extra.emplace_back("recipe", r.recipe.name);
  m.extra.emplace_back("steps", std::to_string(r.steps));
  m.extra.emplace_back("tokens_per_step", std::to_string(r.batch * r.seq_len));
  m.extra.emplace_back("parameters", std::to_string(res.parameters));
  m.extra.emplace_back("final_loss_mean_last_10", fl.str());
  m.extra.emplace_back("seconds", std::to_string(res.seconds));
  m.extra.emplace_back("optimizer", "AdamW beta1 0.9 beta2 0.95 eps 1e-8 weight decay 0.1 (matrices), grad clip 1.0");
  if (r.recipe.rollout_resq) m.extra.emplace_back("rollout_resq", "recipe option ignored: it applies to rollout forwards only");
  outs.finish(m);
  if (!p.is_set("quiet"))
    std::cerr << "hifsim train: " << r.recipe.name << ", " << r.steps << " steps in " << res.seconds << " s; final loss "
              << fl.str() << " (mean of the last " << std::min(10, r.steps) << ")\n";
  return 0;
}
}  // namespace

HIFSIM_COMMAND("train", "train stories260K through the bit-exact GEMM engines under a recipe (loss.csv, plot)", run);
