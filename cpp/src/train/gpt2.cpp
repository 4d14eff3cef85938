#include "attn/train/gpt2.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "attn/core/kernels.hpp"
#include "attn/train/sampling.hpp"

namespace attn::train {

namespace {

constexpr const char* kPrefix = "transformer.";
// The tensors of one block, in gpt2_tensor_specs order (Gpt2Model::load's cases follow it).
constexpr const char* kLayerTensors[] = {"ln_1.weight",        "ln_1.bias",        "attn.c_attn.weight", "attn.c_attn.bias",
                                         "attn.c_proj.weight", "attn.c_proj.bias", "ln_2.weight",        "ln_2.bias",
                                         "mlp.c_fc.weight",    "mlp.c_fc.bias",    "mlp.c_proj.weight",  "mlp.c_proj.bias"};
constexpr std::size_t kPerLayer = sizeof(kLayerTensors) / sizeof(kLayerTensors[0]);

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

void check_sizes(const Gpt2Config& c) {
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
    throw std::invalid_argument("gpt2: n_heads = " + std::to_string(c.n_heads) + " does not divide d_model = " +
                                std::to_string(c.d_model));
  }
  if (c.parameter_count() > kMaxGpt2Parameters) {
    throw std::invalid_argument("gpt2: " + std::to_string(c.parameter_count()) + " parameters, above the limit of " +
                                std::to_string(kMaxGpt2Parameters) +
                                " (GPT-2 medium's 355 M fit a 2 GB wasm memory; larger models do not)");
  }
}

PackedWeights<float> packed(std::size_t k, std::size_t m) { return {std::vector<float>(packed_size(k, m)), k, m}; }

}  // namespace

std::uint64_t Gpt2Config::parameter_count() const {
  const std::uint64_t d = d_model, ff = d_ff;
  const std::uint64_t per_layer = 4 * d + 3 * d * d + 3 * d + d * d + d + d * ff + ff + ff * d + d;
  return std::uint64_t{vocab_size} * d + std::uint64_t{n_positions} * d + n_layers * per_layer + 2 * d;
}

std::vector<Gpt2TensorSpec> gpt2_tensor_specs(const Gpt2Config& c) {
  const std::size_t d = c.d_model, ff = c.d_ff;
  std::vector<Gpt2TensorSpec> specs = {{"wte.weight", {c.vocab_size, d}}, {"wpe.weight", {c.n_positions, d}}};
  const std::vector<std::vector<std::size_t>> shapes = {{d},      {d}, {d, 3 * d}, {3 * d}, {d, d},  {d},
                                                        {d},      {d}, {d, ff},    {ff},    {ff, d}, {d}};
  for (std::size_t l = 0; l < c.n_layers; ++l)
    for (std::size_t j = 0; j < kPerLayer; ++j)
      specs.push_back({"h." + std::to_string(l) + "." + kLayerTensors[j], shapes[j]});
  specs.push_back({"ln_f.weight", {d}});
  specs.push_back({"ln_f.bias", {d}});
  return specs;
}

Gpt2FileLayout gpt2_file_layout(const std::vector<std::pair<std::string, std::vector<std::size_t>>>& tensors,
                                std::size_t n_heads) {
  const bool prefixed = std::any_of(tensors.begin(), tensors.end(), [](const auto& t) { return t.first == "transformer.wte.weight"; });
  std::map<std::string, std::size_t> index;  // layout name → index in tensors
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    std::string name = tensors[i].first;
    const bool has_prefix = name.rfind(kPrefix, 0) == 0;
    if (has_prefix) name.erase(0, std::string(kPrefix).size());
    if (ignored(name)) continue;
    if (has_prefix != prefixed) {
      throw std::invalid_argument("gpt2: tensor '" + tensors[i].first + "' is " +
                                  (has_prefix ? "under 'transformer.' and wte.weight is not"
                                              : "not under 'transformer.' and wte.weight is"));
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
    throw std::invalid_argument(std::string("gpt2: ") +
                                (wte->size() != 2 ? "wte.weight is not a matrix"
                                                  : !wpe ? "no wpe.weight (the learned positions)"
                                                         : !fc ? "no h.0.mlp.c_fc.weight (the first block)"
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
  check_sizes(c);
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

Gpt2Model::Gpt2Model(const Gpt2Config& config) : config_(config) {
  check_sizes(config_);
  const std::size_t d = config_.d_model, ff = config_.d_ff;
  unembedding_ = packed(d, config_.vocab_size);
  wpe_.assign(config_.n_positions * d, 0.0f);
  layers_.resize(config_.n_layers);
  for (Layer& layer : layers_) {
    layer.ln1_gamma.assign(d, 0.0f), layer.ln1_beta.assign(d, 0.0f);
    layer.ln2_gamma.assign(d, 0.0f), layer.ln2_beta.assign(d, 0.0f);
    layer.w_q = packed(d, d), layer.w_k = packed(d, d), layer.w_v = packed(d, d), layer.w_proj = packed(d, d);
    layer.b_qkv.assign(3 * d, 0.0f), layer.b_proj.assign(d, 0.0f);
    layer.w_fc = packed(d, ff), layer.w_fc_proj = packed(ff, d);
    layer.b_fc.assign(ff, 0.0f), layer.b_fc_proj.assign(d, 0.0f);
  }
  lnf_gamma_.assign(d, 0.0f), lnf_beta_.assign(d, 0.0f);
  specs_ = gpt2_tensor_specs(config_);
  rows_loaded_.assign(specs_.size(), 0);
}

std::size_t Gpt2Model::stored_floats() const {
  std::size_t n = unembedding_.data.size() + wpe_.size() + 2 * lnf_gamma_.size();
  for (const Layer& l : layers_) {
    n += 4 * l.ln1_gamma.size() + l.w_q.data.size() * 4 + l.b_qkv.size() + l.b_proj.size() + l.w_fc.data.size() +
         l.w_fc_proj.data.size() + l.b_fc.size() + l.b_fc_proj.size();
  }
  return n;
}

void Gpt2Model::load(std::size_t tensor, std::size_t first_row, const float* values, std::size_t count) {
  if (tensor >= specs_.size()) {
    throw std::out_of_range("gpt2.load: tensor must be in [0, " + std::to_string(specs_.size()) + "), got " +
                            std::to_string(tensor));
  }
  const Gpt2TensorSpec& spec = specs_[tensor];
  const std::size_t rows = spec.shape.size() == 1 ? 1 : spec.shape[0], cols = spec.shape.back();
  if (first_row > rows || count > rows - first_row) {
    throw std::out_of_range("gpt2.load: " + spec.name + " has " + std::to_string(rows) + " rows, asked for rows " +
                            std::to_string(first_row) + " … " + std::to_string(first_row + count));
  }
  for (std::size_t i = 0; i < count * cols; ++i) {
    if (!std::isfinite(values[i])) {
      throw std::invalid_argument("gpt2: tensor '" + spec.name + "' holds a value that is not finite (row " +
                                  std::to_string(first_row + i / cols) + ")");
    }
  }
  const std::size_t d = config_.d_model;
  const auto copy = [&](std::vector<float>& into) { std::copy(values, values + count * cols, into.begin() + first_row * cols); };
  const auto pack = [&](PackedWeights<float>& into, std::size_t column, std::size_t ld) {
    pack_panel_rows(values + column, ld, first_row, count, into.k, into.m, into.data.data());
  };
  if (tensor == 0) {
    pack_panel_rows(values, d, first_row, count, d, config_.vocab_size, unembedding_.data.data(), true);
  } else if (tensor == 1) {
    copy(wpe_);
  } else if (tensor >= specs_.size() - 2) {
    copy(tensor == specs_.size() - 2 ? lnf_gamma_ : lnf_beta_);
  } else {
    Layer& layer = layers_[(tensor - 2) / kPerLayer];
    switch ((tensor - 2) % kPerLayer) {
      case 0: copy(layer.ln1_gamma); break;
      case 1: copy(layer.ln1_beta); break;
      case 2: pack(layer.w_q, 0, 3 * d), pack(layer.w_k, d, 3 * d), pack(layer.w_v, 2 * d, 3 * d); break;
      case 3: copy(layer.b_qkv); break;
      case 4: pack(layer.w_proj, 0, d); break;
      case 5: copy(layer.b_proj); break;
      case 6: copy(layer.ln2_gamma); break;
      case 7: copy(layer.ln2_beta); break;
      case 8: pack(layer.w_fc, 0, config_.d_ff); break;
      case 9: copy(layer.b_fc); break;
      case 10: pack(layer.w_fc_proj, 0, d); break;
      default: copy(layer.b_fc_proj); break;
    }
  }
  rows_loaded_[tensor] += count;
}

void Gpt2Model::finish_loading() {
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const std::size_t rows = specs_[i].shape.size() == 1 ? 1 : specs_[i].shape[0];
    if (rows_loaded_[i] != rows) {
      throw std::invalid_argument("gpt2: tensor '" + specs_[i].name + "' was not loaded whole (" +
                                  std::to_string(rows_loaded_[i]) + " of " + std::to_string(rows) + " rows)");
    }
  }
  loaded_ = true;
}

ModelConfig Gpt2Model::heads() const {
  ModelConfig c;
  c.n_layers = config_.n_layers;
  c.n_heads = config_.n_heads;
  c.d_model = config_.d_model;
  return c;
}

void Gpt2Model::forward(const std::vector<std::int32_t>& ids, const std::vector<std::uint8_t>& ablated,
                        LanguageRun& out, std::vector<float>& x, std::optional<HeadChoice> follow) {
  if (!loaded_) throw std::invalid_argument("gpt2: the model's tensors are not all loaded");
  const std::size_t T = ids.size(), d = config_.d_model, H = config_.n_heads, ff = config_.d_ff, dk = d / H;
  check_token_count(T, 1, std::min(kMaxLanguageTokens, config_.n_positions), "gpt2: the text");
  for (std::size_t t = 0; t < T; ++t) {
    if (ids[t] < 0 || static_cast<std::size_t>(ids[t]) >= config_.vocab_size) {
      throw std::out_of_range("gpt2: token " + std::to_string(t) + " has id " + std::to_string(ids[t]) +
                              ", outside [0, " + std::to_string(config_.vocab_size) + ")");
    }
  }
  out.embeddings.resize(T * d);
  for (std::size_t t = 0; t < T; ++t)
    unpack_panel_column(unembedding_.data.data(), d, config_.vocab_size, ids[t], out.embeddings.data() + t * d);
  x = out.embeddings;
  for (std::size_t i = 0; i < T * d; ++i) x[i] += wpe_[i];
  out.input = x;
  out.attention.assign(config_.n_layers * H * T * T, 0.0f);
  out.hidden.clear();
  std::vector<float> a(T * d), q(T * d), k(T * d), v(T * d), z(T * d), sub(T * d), hidden(T * ff), mean(T), rstd(T);
  // Each sublayer's output goes to `sub` and is then added to x, so that a followed block (activations) shows the very
  // values of the residual stream.
  const auto add = [&]() {
    for (std::size_t i = 0; i < T * d; ++i) x[i] += sub[i];
  };
  for (std::size_t l = 0; l < config_.n_layers; ++l) {
    const Layer& layer = layers_[l];
    BlockActivations* b = follow && follow->layer == l ? &out.activations.emplace() : nullptr;
    if (b) {
      *b = BlockActivations{};
      b->layer = l, b->head = follow->head;
      b->word_vectors = out.embeddings;
      b->positional.assign(wpe_.begin(), wpe_.begin() + T * d);
      b->input = x;
    }
    layernorm_forward(a.data(), mean.data(), rstd.data(), x.data(), layer.ln1_gamma.data(), layer.ln1_beta.data(), T, d);
    matmul_forward(q.data(), a.data(), layer.w_q, layer.b_qkv.data(), T);
    matmul_forward(k.data(), a.data(), layer.w_k, layer.b_qkv.data() + d, T);
    matmul_forward(v.data(), a.data(), layer.w_v, layer.b_qkv.data() + 2 * d, T);
    float* weights = out.attention.data() + l * H * T * T;
    attention_forward(z.data(), weights, q.data(), k.data(), v.data(), 1, T, d, H, true,
                      ablated.empty() ? nullptr : ablated.data() + l * H, head_);
    matmul_forward(sub.data(), z.data(), layer.w_proj, layer.b_proj.data(), T);
    if (b) {
      const std::size_t h = b->head;
      const auto columns = [&](const std::vector<float>& m) {
        std::vector<float> c(T * dk);
        for (std::size_t t = 0; t < T; ++t) std::copy_n(m.begin() + t * d + h * dk, dk, c.begin() + t * dk);
        return c;
      };
      b->norm1 = a;
      b->queries = columns(q), b->keys = columns(k), b->values = columns(v);
      b->scores.assign(T * T, -std::numeric_limits<float>::infinity());
      const float scale = 1.0f / std::sqrt(static_cast<float>(dk));
      for (std::size_t i = 0; i < T; ++i) {
        for (std::size_t j = 0; j <= i; ++j) {
          float s = 0;
          for (std::size_t c = 0; c < dk; ++c) s += b->queries[i * dk + c] * b->keys[j * dk + c];
          b->scores[i * T + j] = s * scale;
        }
      }
      b->weights.assign(weights + h * T * T, weights + (h + 1) * T * T);
      b->head_output = columns(z);
      b->concat = z;
      b->attention_output = sub;
    }
    add();
    layernorm_forward(a.data(), mean.data(), rstd.data(), x.data(), layer.ln2_gamma.data(), layer.ln2_beta.data(), T, d);
    matmul_forward(hidden.data(), a.data(), layer.w_fc, layer.b_fc.data(), T);
    gelu_tanh_forward(hidden.data(), hidden.data(), T * ff);
    matmul_forward(sub.data(), hidden.data(), layer.w_fc_proj, layer.b_fc_proj.data(), T);
    if (b) b->residual1 = x, b->norm2 = a, b->ff_hidden = hidden, b->ff_output = sub;
    add();
    if (b) b->residual2 = x, b->output = x;
    out.hidden.insert(out.hidden.end(), x.begin(), x.end());
  }
}

std::vector<float> Gpt2Model::output_layer(const float* x, std::size_t n, std::vector<float>& logits) const {
  const std::size_t d = config_.d_model;
  std::vector<float> normed(n * d), mean(n), rstd(n);
  layernorm_forward(normed.data(), mean.data(), rstd.data(), x, lnf_gamma_.data(), lnf_beta_.data(), n, d);
  logits.resize(n * config_.vocab_size);
  matmul_forward(logits.data(), normed.data(), unembedding_, static_cast<const float*>(nullptr), n);
  return normed;
}

LanguageRun Gpt2Model::run(const std::vector<std::int32_t>& ids, std::size_t k,
                           const std::vector<std::int64_t>& positions, const std::vector<HeadChoice>& ablate,
                           std::optional<HeadChoice> activations) {
  if (k < 1 || k > kMaxTopK)
    throw std::out_of_range("gpt2.run: k must be in [1, " + std::to_string(kMaxTopK) + "], got " + std::to_string(k));
  if (activations) check_head_choice(heads(), *activations, "gpt2.run: activations");
  const std::vector<std::uint8_t> ablated = ablation_flags(heads(), ablate, "gpt2.run: ablate");
  LanguageRun out;
  std::vector<float> x;
  forward(ids, ablated, out, x, activations);
  const std::size_t T = ids.size(), d = config_.d_model, V = config_.vocab_size;
  if (positions.size() > kMaxLanguageTokens) {
    throw std::out_of_range("gpt2.run: at most " + std::to_string(kMaxLanguageTokens) + " positions, got " +
                            std::to_string(positions.size()));
  }
  for (const std::int64_t at : positions) out.positions.push_back(position_index(at, T, "gpt2.run"));
  if (positions.empty())
    for (std::size_t t = 0; t < T; ++t) out.positions.push_back(t);
  const std::size_t P = out.positions.size();
  std::vector<float> rows(P * d);
  for (std::size_t i = 0; i < P; ++i)
    std::copy(x.begin() + out.positions[i] * d, x.begin() + (out.positions[i] + 1) * d, rows.begin() + i * d);
  out.output_input = output_layer(rows.data(), P, out.logits);
  std::vector<float> p(V);
  for (std::size_t i = 0; i < P; ++i) {
    const float* row = out.logits.data() + i * V;
    std::copy(row, row + V, p.data());
    softmax_prefix(p.data(), V, V);
    std::vector<WordProbability> top;
    for (const std::int32_t id : top_ids(row, V, k, -1)) top.push_back({id, p[static_cast<std::size_t>(id)]});
    out.top.push_back(std::move(top));
  }
  return out;
}

Gpt2Model::LogitLens Gpt2Model::logit_lens(const std::vector<std::int32_t>& ids, std::size_t k,
                                            const std::vector<std::int64_t>& positions) {
  if (k < 1 || k > kMaxTopK)
    throw std::out_of_range("gpt2.logitLens: k must be in [1, " + std::to_string(kMaxTopK) + "], got " +
                            std::to_string(k));
  LanguageRun run;
  std::vector<float> x;
  forward(ids, {}, run, x);
  const std::size_t T = ids.size(), d = config_.d_model, V = config_.vocab_size, R = config_.n_layers + 1;
  LogitLens out;
  if (positions.size() > kMaxLanguageTokens) {
    throw std::out_of_range("gpt2.logitLens: at most " + std::to_string(kMaxLanguageTokens) + " positions, got " +
                            std::to_string(positions.size()));
  }
  for (const std::int64_t at : positions) out.positions.push_back(position_index(at, T, "gpt2.logitLens"));
  if (positions.empty())
    for (std::size_t t = 0; t < T; ++t) out.positions.push_back(t);
  const std::size_t P = out.positions.size();
  std::vector<float> rows(R * P * d);  // row (r, i): the residual stream after r blocks at positions[i]
  for (std::size_t r = 0; r < R; ++r) {
    const float* stream = r == 0 ? run.input.data() : run.hidden.data() + (r - 1) * T * d;
    for (std::size_t i = 0; i < P; ++i)
      std::copy_n(stream + out.positions[i] * d, d, rows.begin() + (r * P + i) * d);
  }
  std::vector<float> logits, p(V);
  const std::size_t block = 16;  // V floats of logits a row: a block of rows at a time
  for (std::size_t n0 = 0; n0 < R * P; n0 += block) {
    const std::size_t n = std::min(block, R * P - n0);
    output_layer(rows.data() + n0 * d, n, logits);
    for (std::size_t i = 0; i < n; ++i) {
      const float* row = logits.data() + i * V;
      std::copy(row, row + V, p.begin());
      softmax_prefix(p.data(), V, V);
      for (const std::int32_t id : top_ids(row, V, k, -1)) out.ids.push_back(id), out.p.push_back(p[id]);
      const std::size_t t = out.positions[(n0 + i) % P];
      out.next_p.push_back(t + 1 < T ? p[static_cast<std::size_t>(ids[t + 1])] : std::nanf(""));
    }
  }
  return out;
}

std::vector<double> Gpt2Model::next_log_probs(const std::vector<std::int32_t>& ids,
                                              const std::vector<HeadChoice>& ablate) {
  check_token_count(ids.size(), 2, std::min(kMaxLanguageTokens, config_.n_positions), "gpt2.score: the text");
  const std::vector<std::uint8_t> ablated = ablation_flags(heads(), ablate, "gpt2.score: ablate");
  LanguageRun run;
  std::vector<float> x, logits;
  forward(ids, ablated, run, x);
  const std::size_t T = ids.size(), d = config_.d_model, V = config_.vocab_size, block = 16;
  std::vector<double> out;
  for (std::size_t t0 = 0; t0 + 1 < T; t0 += block) {  // the logits a block of rows at a time: V floats a row
    const std::size_t n = std::min(block, T - 1 - t0);
    output_layer(x.data() + t0 * d, n, logits);
    for (std::size_t i = 0; i < n; ++i) out.push_back(log_softmax_at(logits.data() + i * V, V, ids[t0 + i + 1]));
  }
  return out;
}

}  // namespace attn::train
