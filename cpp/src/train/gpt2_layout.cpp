// GPT-2's file layout (gpt2.hpp): the tensors a checkpoint holds, their names and shapes, and a file's tensors matched
// to them, with the config read from their shapes.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "attn/train/gpt2.hpp"

namespace attn::train {

namespace {

constexpr const char* kPrefix = "transformer.";
// The tensors of one block, in gpt2_tensor_specs order (Gpt2Model::load's cases follow it).
constexpr const char* kLayerTensors[] = {
    "ln_1.weight", "ln_1.bias", "attn.c_attn.weight", "attn.c_attn.bias", "attn.c_proj.weight", "attn.c_proj.bias",
    "ln_2.weight", "ln_2.bias", "mlp.c_fc.weight",    "mlp.c_fc.bias",    "mlp.c_proj.weight",  "mlp.c_proj.bias"};
static_assert(sizeof(kLayerTensors) / sizeof(kLayerTensors[0]) == kGpt2TensorsPerLayer);

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

// The names a file may hold beside the layout: the causal-mask buffers and the tied output's copy.
bool ignored(const std::string& name) {
  const auto ends = [&](const std::string& tail) {
    return name.size() >= tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
  };
  return name == "lm_head.weight" || (name.rfind("h.", 0) == 0 && (ends(".attn.bias") || ends(".attn.masked_bias")));
}

}  // namespace

void check_gpt2_config(const Gpt2Config& c) {
  const auto positive = [](std::size_t n, const char* what) {
    if (n == 0) throw std::invalid_argument(std::string("gpt2: ") + what + " must be at least 1");
  };
  positive(c.vocab_size, "vocab_size");
  positive(c.n_positions, "n_positions");
  positive(c.d_model, "d_model");
  positive(c.n_heads, "n_heads");
  positive(c.n_layers, "n_layers");
  positive(c.d_ff, "d_ff");
  if (c.d_model % c.n_heads != 0) {
    throw std::invalid_argument("gpt2: n_heads = " + std::to_string(c.n_heads) +
                                " does not divide d_model = " + std::to_string(c.d_model));
  }
  if (c.parameter_count() > kMaxGpt2Parameters) {
    throw std::invalid_argument("gpt2: " + std::to_string(c.parameter_count()) + " parameters, above the limit of " +
                                std::to_string(kMaxGpt2Parameters) +
                                " (float32 in a wasm memory of 2 GB: GPT-2 medium's 355 M fit, larger models do not)");
  }
}

std::uint64_t Gpt2Config::parameter_count() const {
  const std::uint64_t d = d_model, ff = d_ff;
  const std::uint64_t per_layer = 4 * d + 3 * d * d + 3 * d + d * d + d + d * ff + ff + ff * d + d;
  return std::uint64_t{vocab_size} * d + std::uint64_t{n_positions} * d + n_layers * per_layer + 2 * d;
}

std::vector<Gpt2TensorSpec> gpt2_tensor_specs(const Gpt2Config& c) {
  const std::size_t d = c.d_model, ff = c.d_ff;
  std::vector<Gpt2TensorSpec> specs = {{"wte.weight", {c.vocab_size, d}}, {"wpe.weight", {c.n_positions, d}}};
  const std::vector<std::vector<std::size_t>> shapes = {{d}, {d}, {d, 3 * d}, {3 * d}, {d, d},  {d},
                                                        {d}, {d}, {d, ff},    {ff},    {ff, d}, {d}};
  for (std::size_t l = 0; l < c.n_layers; ++l)
    for (std::size_t j = 0; j < kGpt2TensorsPerLayer; ++j)
      specs.push_back({"h." + std::to_string(l) + "." + kLayerTensors[j], shapes[j]});
  specs.push_back({"ln_f.weight", {d}});
  specs.push_back({"ln_f.bias", {d}});
  return specs;
}

Gpt2FileLayout gpt2_file_layout(const std::vector<std::pair<std::string, std::vector<std::size_t>>>& tensors,
                                std::size_t n_heads) {
  const bool prefixed =
      std::any_of(tensors.begin(), tensors.end(), [](const auto& t) { return t.first == "transformer.wte.weight"; });
  std::map<std::string, std::size_t> index;  // layout name → index in tensors
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    std::string name = tensors[i].first;
    const bool has_prefix = name.rfind(kPrefix, 0) == 0;
    if (has_prefix) name.erase(0, std::string(kPrefix).size());
    if (ignored(name)) continue;
    if (has_prefix != prefixed) {
      throw std::invalid_argument(
          "gpt2: tensor '" + tensors[i].first + "' is " +
          (has_prefix ? "under 'transformer.' and wte.weight is not" : "not under 'transformer.' and wte.weight is"));
    }
    index[name] = i;
  }
  const auto shape_of = [&](const std::string& name) -> const std::vector<std::size_t>* {
    const auto found = index.find(name);
    return found == index.end() ? nullptr : &tensors[found->second].second;
  };
  const auto* wte = shape_of("wte.weight");
  if (!wte) {
    std::string names;
    for (std::size_t i = 0; i < tensors.size() && i < 5; ++i) names += (i ? ", " : "") + tensors[i].first;
    throw std::invalid_argument("gpt2: no wte.weight: not a GPT-2 checkpoint in Hugging Face's layout (it holds " +
                                std::to_string(tensors.size()) + " tensors: " + names +
                                (tensors.size() > 5 ? ", …)" : ")"));
  }
  const auto* wpe = shape_of("wpe.weight");
  const auto* fc = shape_of("h.0.mlp.c_fc.weight");
  if (wte->size() != 2 || !wpe || wpe->size() != 2 || !fc || fc->size() != 2) {
    throw std::invalid_argument(std::string("gpt2: ") + (wte->size() != 2 ? "wte.weight is not a matrix"
                                                         : !wpe           ? "no wpe.weight (the learned positions)"
                                                         : !fc            ? "no h.0.mlp.c_fc.weight (the first block)"
                                                               : "wpe.weight or h.0.mlp.c_fc.weight is not a matrix"));
  }
  Gpt2Config c;
  c.vocab_size = (*wte)[0];
  c.d_model = (*wte)[1];
  c.n_positions = (*wpe)[0];
  c.d_ff = (*fc)[1];
  while (index.count("h." + std::to_string(c.n_layers) + ".ln_1.weight")) ++c.n_layers;
  c.n_heads = n_heads ? n_heads : c.d_model / kGpt2HeadDim;
  if (c.n_heads == 0 || c.d_model % c.n_heads != 0) {
    throw std::invalid_argument("gpt2: d_model = " + std::to_string(c.d_model) + " is not a multiple of " +
                                (n_heads ? "n_heads = " + std::to_string(n_heads)
                                         : "64, GPT-2's head width: give n_heads (config.json's n_head)"));
  }
  check_gpt2_config(c);
  Gpt2FileLayout layout{c, {}};
  for (const Gpt2TensorSpec& spec : gpt2_tensor_specs(c)) {
    const auto found = index.find(spec.name);
    if (found == index.end())
      throw std::invalid_argument("gpt2: tensor '" + spec.name + "' is missing (a GPT-2 of " +
                                  std::to_string(c.n_layers) + " layers needs it)");
    const auto& shape = tensors[found->second].second;
    if (shape != spec.shape) {
      throw std::invalid_argument("gpt2: tensor '" + spec.name + "' has shape " + shape_text(shape) + ", expected " +
                                  shape_text(spec.shape));
    }
    layout.tensor_of_spec.push_back(found->second);
    index.erase(found);
  }
  if (!index.empty()) {
    throw std::invalid_argument("gpt2: tensor '" + index.begin()->first +
                                "' is not part of GPT-2's layout (another architecture?)");
  }
  return layout;
}

}  // namespace attn::train
