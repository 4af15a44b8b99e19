// Recipes as files (model/train/recipe.*): every shipped recipe loads with the rules its
// documentation states; unknown fields and bad values are rejected naming file, field, reason;
// what the trainer cannot run yet is refused with "not yet".
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "train/recipe.hpp"
#include "util/error.hpp"

using namespace hifsim;
using namespace hifsim::train;

namespace {
const std::string kRecipes = std::string(HIFSIM_SOURCE_DIR) + "/configs/recipes/";

std::string write_tmp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

std::string load_error(const std::string& text) {
  const std::string path = write_tmp("bad_recipe.yaml", text);
  try {
    load_recipe(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const char* kGood = "recipe: t\ngemm:\n  fprop: {format: hif4}\n  dgrad: {format: hif4}\n  wgrad: {format: hif4}\n";
}  // namespace

TEST(Recipes, ShippedRecipesSayWhatTheirSourcesSay) {
  const Recipe fp32 = load_recipe(kRecipes + "fp32.yaml");
  for (GemmKind k : kGemmKinds) EXPECT_FALSE(fp32.kind(k).format) << gemm_kind_name(k);

  const Recipe bf16 = load_recipe(kRecipes + "bf16.yaml");
  for (GemmKind k : kGemmKinds) EXPECT_EQ(bf16.kind(k).format, fmt::Format::bf16);

  const Recipe nv = load_recipe(kRecipes + "nvfp4.yaml");  // arXiv 2509.25149
  EXPECT_EQ(nv.kind(GemmKind::fprop).format, fmt::Format::nvfp4);
  EXPECT_TRUE(nv.kind(GemmKind::fprop).weight_blocks_2d);
  EXPECT_EQ(nv.kind(GemmKind::fprop).rounding, OperandRounding::nearest);
  EXPECT_EQ(nv.kind(GemmKind::dgrad).gradient_rounding, OperandRounding::stochastic);
  EXPECT_EQ(nv.kind(GemmKind::dgrad).rounding, OperandRounding::nearest);
  EXPECT_EQ(nv.kind(GemmKind::dgrad).rht, 0);
  EXPECT_EQ(nv.kind(GemmKind::wgrad).rht, 16);
  EXPECT_EQ(nv.kind(GemmKind::wgrad).gradient_rounding, OperandRounding::stochastic);
  EXPECT_TRUE(nv.keeps("classifier"));
  EXPECT_TRUE(nv.keeps("layers.4.wq"));
  EXPECT_FALSE(nv.keeps("layers.40.wq"));
  EXPECT_FALSE(nv.keeps("layers.0.wq"));
  EXPECT_EQ(nv.keep_format, fmt::Format::bf16);

  const Recipe mx = load_recipe(kRecipes + "mxfp4.yaml");  // arXiv 2502.20586: BF16 forward
  EXPECT_EQ(mx.kind(GemmKind::fprop).format, fmt::Format::bf16);
  EXPECT_EQ(mx.kind(GemmKind::wgrad).format, fmt::Format::mxfp4);
  EXPECT_EQ(mx.kind(GemmKind::wgrad).gradient_rounding, OperandRounding::stochastic);
  EXPECT_GT(mx.kind(GemmKind::dgrad).rht, 0);

  for (const char* n : {"hif4", "hif8"}) {
    const Recipe r = load_recipe(kRecipes + n + ".yaml");
    for (GemmKind k : kGemmKinds) EXPECT_EQ(r.kind(k).format, fmt::parse_format(n)) << n;
  }
  const Recipe h8 = load_recipe(kRecipes + "hif8.yaml");
  EXPECT_FALSE(h8.kind(GemmKind::fprop).pow2_tensor_scale);
  EXPECT_TRUE(h8.kind(GemmKind::dgrad).pow2_tensor_scale);
  EXPECT_TRUE(h8.kind(GemmKind::wgrad).pow2_tensor_scale);
  for (const std::string& n : {"fp32", "bf16", "nvfp4", "mxfp4", "hif4", "hif8"}) {
    const Recipe r = load_recipe(kRecipes + n + ".yaml");
    EXPECT_EQ(r.name, n);
    if (n != "fp32") EXPECT_FALSE(r.sources.empty()) << n << ": every rule needs its source";
  }
}

TEST(Recipes, UnknownFieldsAndBadValuesNameFileFieldReason) {
  EXPECT_EQ(load_error(kGood), "");
  std::string e = load_error(std::string(kGood) + "optimiser: {second_moment: fp32}\n");
  EXPECT_NE(e.find("bad_recipe.yaml"), std::string::npos) << e;
  EXPECT_NE(e.find("optimiser"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown field"), std::string::npos) << e;
  e = load_error("recipe: t\ngemm:\n  fprop: {format: hif4, rht: 8}\n  dgrad: {format: hif4}\n  wgrad: {format: hif4}\n");
  EXPECT_NE(e.find("gemm.fprop.rht"), std::string::npos) << e;
  e = load_error("recipe: t\ngemm:\n  fprop: {format: hif4, roundng: nearest}\n  dgrad: {format: hif4}\n  wgrad: {format: hif4}\n");
  EXPECT_NE(e.find("gemm.fprop.roundng: line 3"), std::string::npos) << e;
  e = load_error("recipe: t\ngemm:\n  fprop: {format: fp4}\n  dgrad: {format: hif4}\n  wgrad: {format: hif4}\n");
  EXPECT_NE(e.find("gemm.fprop.format"), std::string::npos) << e;
  e = load_error("recipe: t\ngemm:\n  fprop: {format: hif4, gradient_rounding: stochastic}\n  dgrad: {format: hif4}\n  wgrad: {format: hif4}\n");
  EXPECT_NE(e.find("fprop has no gradient operand"), std::string::npos) << e;
  e = load_error("recipe: t\ngemm:\n  fprop: {format: hif4, weight_blocks: 16x16}\n  dgrad: {format: hif4}\n  wgrad: {format: hif4}\n");
  EXPECT_NE(e.find("NVFP4 option"), std::string::npos) << e;
  e = load_error("recipe: t\ngemm:\n  fprop: {format: hif4}\n  dgrad: {format: hif4}\n");
  EXPECT_NE(e.find("gemm.wgrad: line 3: missing"), std::string::npos) << e;
  e = load_error(std::string(kGood) + "keep: {layers: [lm_head]}\n");
  EXPECT_NE(e.find("keep.layers"), std::string::npos) << e;
  e = load_error(std::string(kGood) + "optimizer: {second_moment_transform: sqrt}\n");
  EXPECT_NE(e.find("without a second_moment format"), std::string::npos) << e;
  const Recipe v = load_recipe(kRecipes + "bf16-v-nvfp4.yaml");
  EXPECT_EQ(v.second_moment, fmt::Format::nvfp4);
  EXPECT_TRUE(v.second_moment_sqrt);
  const Recipe l = load_recipe(kRecipes + "bf16-v-linear4.yaml");
  EXPECT_TRUE(l.second_moment_linear4);
  EXPECT_FALSE(l.second_moment);
  e = load_error(std::string(kGood) + "optimizer: {second_moment: linear4-rank1, second_moment_transform: sqrt}\n");
  EXPECT_NE(e.find("stores v itself"), std::string::npos) << e;
  e = load_error(std::string(kGood) + "recipe: u\n");
  EXPECT_NE(e.find("given twice"), std::string::npos) << e;
  try {
    load_recipe("no-such-recipe");
    ADD_FAILURE() << "no error";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("no such recipe"), std::string::npos) << err.what();
  }
}

TEST(Recipes, TrainerRefusesWhatItCannotRunYet) {
  Recipe r = load_recipe(write_tmp("ok.yaml", kGood));
  EXPECT_NO_THROW(check_trainable(r));
  r.attention = AttentionScheme::full_stack_fp4;  // runs since the attention GEMMs go through the engine
  EXPECT_NO_THROW(check_trainable(r));
}
