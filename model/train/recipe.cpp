#include "train/recipe.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include "formats/tensor.hpp"
#include "io/yaml_input.hpp"
#include "util/error.hpp"
#include "util/install.hpp"

namespace hifsim::train {

const char* gemm_kind_name(GemmKind k) {
  static const char* names[] = {"fprop", "dgrad", "wgrad"};
  return names[static_cast<int>(k)];
}

std::string KindRecipe::format_name() const { return format ? fmt::format_info(*format).name : "fp32"; }

bool Recipe::keeps(const std::string& layer) const {
  for (const std::string& k : keep_layers)
    if (layer == k || (layer.size() > k.size() && layer.compare(0, k.size(), k) == 0 && layer[k.size()] == '.'))
      return true;
  return false;
}

namespace {

// The reading context: file name, and the one rule for errors.
struct Reader {
  std::string file;
  [[noreturn]] void fail(const std::string& field, const YAML::Node& n, const std::string& why) const {
    const std::string line = io::yaml_line(n);
    throw Error(file, field, (line.empty() ? "" : line + ": ") + why);
  }
  void only_keys(const YAML::Node& map, const std::string& field, std::initializer_list<const char*> allowed) const {
    if (!map.IsMap()) fail(field, map, "must be a mapping");
    for (const auto& kv : map) {
      const std::string key = kv.first.as<std::string>();
      if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; })) {
        std::string list;
        for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        fail(field.empty() ? key : field + "." + key, kv.first, "unknown field (allowed: " + list + ")");
      }
    }
  }
  std::string text(const YAML::Node& n, const std::string& field) const {
    if (!n.IsScalar()) fail(field, n, "must be a string");
    return n.as<std::string>();
  }
  // `also`: another value the field takes, named in the message.
  std::optional<fmt::Format> format(const YAML::Node& n, const std::string& field, const std::string& also = "") const {
    const std::string s = text(n, field);
    if (s == "fp32") return std::nullopt;
    const auto f = fmt::parse_format(s);
    if (!f || !fmt::format_info(*f).tensor)
      fail(field, n, "'" + s + "' is not fp32" + (also.empty() ? "" : ", " + also) + " or a tensor format (" +
                         fmt::tensor_format_names() + ")");
    return f;
  }
  OperandRounding rounding(const YAML::Node& n, const std::string& field) const {
    const std::string s = text(n, field);
    if (s == "nearest") return OperandRounding::nearest;
    if (s == "stochastic") return OperandRounding::stochastic;
    fail(field, n, "'" + s + "' is not nearest or stochastic");
  }
};

KindRecipe read_kind(const Reader& rd, const YAML::Node& n, GemmKind kind) {
  const std::string base = std::string("gemm.") + gemm_kind_name(kind);
  const bool has_grad = kind != GemmKind::fprop, has_weight = kind != GemmKind::wgrad;
  rd.only_keys(n, base, {"format", "rounding", "gradient_rounding", "rht", "rht_signs", "weight_blocks", "tensor_scale"});
  KindRecipe k;
  if (!n["format"]) rd.fail(base + ".format", n, "missing (fp32 or a tensor format)");
  k.format = rd.format(n["format"], base + ".format");
  if (n["rounding"]) k.rounding = rd.rounding(n["rounding"], base + ".rounding");
  if (n["gradient_rounding"]) {
    if (!has_grad) rd.fail(base + ".gradient_rounding", n["gradient_rounding"], "fprop has no gradient operand");
    k.gradient_rounding = rd.rounding(n["gradient_rounding"], base + ".gradient_rounding");
  }
  if (n["rht"]) {
    const auto v = io::yaml_int64(n["rht"]);
    if (!v || (*v != 0 && *v != 16 && *v != 32 && *v != 64))
      rd.fail(base + ".rht", n["rht"], "must be 0 (none), 16, 32 or 64");
    k.rht = static_cast<int>(*v);
  }
  if (n["rht_signs"]) {
    const std::string s = rd.text(n["rht_signs"], base + ".rht_signs");
    if (s != "random" && s != "fixed") rd.fail(base + ".rht_signs", n["rht_signs"], "'" + s + "' is not random or fixed");
    if (k.rht == 0) rd.fail(base + ".rht_signs", n["rht_signs"], "given without rht");
    k.rht_random_signs = s == "random";
  }
  if (n["weight_blocks"]) {
    const std::string s = rd.text(n["weight_blocks"], base + ".weight_blocks");
    if (s != "1d" && s != "16x16") rd.fail(base + ".weight_blocks", n["weight_blocks"], "'" + s + "' is not 1d or 16x16");
    if (!has_weight) rd.fail(base + ".weight_blocks", n["weight_blocks"], "wgrad has no weight operand");
    if (s == "16x16" && k.format != fmt::Format::nvfp4)
      rd.fail(base + ".weight_blocks", n["weight_blocks"], "16x16 weight blocks are an NVFP4 option (format is " +
                                                               k.format_name() + ")");
    k.weight_blocks_2d = s == "16x16";
  }
  if (n["tensor_scale"]) {
    const std::string s = rd.text(n["tensor_scale"], base + ".tensor_scale");
    if (s != "none" && s != "pow2_rms") rd.fail(base + ".tensor_scale", n["tensor_scale"], "'" + s + "' is not none or pow2_rms");
    k.pow2_tensor_scale = s == "pow2_rms";
  }
  if (!k.format && (k.pow2_tensor_scale || k.rounding != OperandRounding::nearest || k.gradient_rounding != OperandRounding::nearest || k.rht))
    rd.fail(base, n, "fp32 GEMMs take no rounding, rht or tensor_scale");
  return k;
}

}  // namespace

std::vector<std::string> shipped_recipe_names() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(data_dir() + "/configs/recipes", ec))
    if (e.path().extension() == ".yaml") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

Recipe load_recipe(const std::string& name_or_path) {
  std::string path = name_or_path;
  const bool bare = name_or_path.find('/') == std::string::npos && name_or_path.find('.') == std::string::npos;
  if (bare) {
    path = locate_data("configs/recipes/" + name_or_path + ".yaml");
    if (!std::filesystem::is_regular_file(path)) {
      std::string names;
      for (const auto& n : shipped_recipe_names()) names += (names.empty() ? "" : ", ") + n;
      throw Error("--recipe", name_or_path, "no such recipe (shipped: " + names + "; or give a .yaml path)");
    }
  }
  const YAML::Node root = io::load_yaml_file(path);
  io::reject_duplicate_keys(root, path);
  Reader rd{path};
  rd.only_keys(root, "", {"recipe", "description", "gemm", "keep", "attention", "rollout_resq", "optimizer", "sources"});
  Recipe r;
  r.path = path;
  if (!root["recipe"]) rd.fail("recipe", root, "missing (the recipe's name)");
  r.name = rd.text(root["recipe"], "recipe");
  if (root["description"]) r.description = rd.text(root["description"], "description");
  if (!root["gemm"]) rd.fail("gemm", root, "missing (fprop, dgrad, wgrad)");
  rd.only_keys(root["gemm"], "gemm", {"fprop", "dgrad", "wgrad"});
  for (GemmKind k : kGemmKinds) {
    const YAML::Node n = root["gemm"][gemm_kind_name(k)];
    if (!n) rd.fail(std::string("gemm.") + gemm_kind_name(k), root["gemm"], "missing");
    r.kinds[static_cast<int>(k)] = read_kind(rd, n, k);
  }
  if (const YAML::Node keep = root["keep"]) {
    rd.only_keys(keep, "keep", {"format", "layers"});
    if (keep["format"]) r.keep_format = rd.format(keep["format"], "keep.format");
    if (keep["layers"]) {
      if (!keep["layers"].IsSequence()) rd.fail("keep.layers", keep["layers"], "must be a list of layer names");
      for (const auto& l : keep["layers"]) {
        const std::string s = rd.text(l, "keep.layers");
        const bool ok = s == "classifier" || (s.rfind("layers.", 0) == 0 && s.size() > 7 && std::isdigit(static_cast<unsigned char>(s[7])));
        if (!ok) rd.fail("keep.layers", l, "'" + s + "' is not classifier, layers.N or layers.N.<projection>");
        r.keep_layers.push_back(s);
      }
    }
  }
  if (root["attention"]) {
    const std::string s = rd.text(root["attention"], "attention");
    if (s == "fp32") r.attention = AttentionScheme::fp32;
    else if (s == "full_stack_fp4") r.attention = AttentionScheme::full_stack_fp4;
    else rd.fail("attention", root["attention"], "'" + s + "' is not fp32 or full_stack_fp4");
  }
  if (const YAML::Node rq = root["rollout_resq"]) {
    rd.only_keys(rq, "rollout_resq", {"enabled", "sparsity"});
    if (rq["enabled"]) {
      const std::string s = rd.text(rq["enabled"], "rollout_resq.enabled");
      if (s != "true" && s != "false") rd.fail("rollout_resq.enabled", rq["enabled"], "must be true or false");
      r.rollout_resq = s == "true";
    }
    if (rq["sparsity"]) {
      const std::string s = rd.text(rq["sparsity"], "rollout_resq.sparsity");
      if (s != "dense" && s != "2:4" && s != "50%" && s != "50%-32x64")
        rd.fail("rollout_resq.sparsity", rq["sparsity"], "'" + s + "' is not dense, 2:4, 50% or 50%-32x64");
      r.rollout_resq_sparsity = s;
    }
  }
  if (const YAML::Node opt = root["optimizer"]) {
    rd.only_keys(opt, "optimizer", {"second_moment", "second_moment_transform"});
    if (const YAML::Node sm = opt["second_moment"]) {
      if (sm.IsScalar() && sm.Scalar() == "linear4-rank1") r.second_moment_linear4 = true;  // not an element format
      else r.second_moment = rd.format(sm, "optimizer.second_moment", "linear4-rank1");
    }
    if (const YAML::Node t = opt["second_moment_transform"]) {
      const std::string s = rd.text(t, "optimizer.second_moment_transform");
      if (s != "none" && s != "sqrt") rd.fail("optimizer.second_moment_transform", t, "'" + s + "' is not none or sqrt");
      if (!r.second_moment && !r.second_moment_linear4)
        rd.fail("optimizer.second_moment_transform", t, "given without a second_moment format");
      if (r.second_moment_linear4 && s != "none")
        rd.fail("optimizer.second_moment_transform", t, "linear4-rank1 stores v itself (no transform)");
      r.second_moment_sqrt = s == "sqrt";
    }
  }
  if (const YAML::Node src = root["sources"]) {
    if (!src.IsSequence()) rd.fail("sources", src, "must be a list");
    for (const auto& s : src) r.sources.push_back(rd.text(s, "sources"));
  }
  return r;
}

void check_trainable(const Recipe& r) {
  for (GemmKind k : kGemmKinds) {
    const KindRecipe& kr = r.kind(k);
    const std::string base = std::string("gemm.") + gemm_kind_name(k);
    for (OperandRounding ro : {kr.rounding, kr.gradient_rounding}) {
      if (ro != OperandRounding::stochastic || !kr.format) continue;
      fmt::QuantOptions o;
      o.rounding = fmt::Rounding::stochastic;
      try {
        fmt::validate_options(*kr.format, o);
      } catch (const Error& e) {
        throw Error(r.path, base, std::string("not yet: stochastic rounding in ") + kr.format_name() +
                                      " is not in this build's quantizer (" + e.what() + ")");
      }
    }
  }
}

}  // namespace hifsim::train
