#include "attn/train/gpt2.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "attn/core/kernels.hpp"
#include "attn/train/sampling.hpp"

namespace attn::train {

namespace {

PackedWeights<float> packed(std::size_t k, std::size_t m) { return {std::vector<float>(packed_size(k, m)), k, m}; }

// The positions asked for (each in [−T, T), as run()'s) as indices in [0, T); every position when none is listed.
std::vector<std::size_t> resolve_positions(const std::vector<std::int64_t>& positions, std::size_t T,
                                           const char* where) {
  if (positions.size() > kMaxLanguageTokens) {
    throw std::out_of_range(std::string(where) + ": at most " + std::to_string(kMaxLanguageTokens) +
                            " positions, got " + std::to_string(positions.size()));
  }
  std::vector<std::size_t> out;
  for (const std::int64_t at : positions) out.push_back(position_index(at, T, where));
  if (positions.empty())
    for (std::size_t t = 0; t < T; ++t) out.push_back(t);
  return out;
}

}  // namespace

Gpt2Model::Gpt2Model(const Gpt2Config& config) : config_(config) {
  check_gpt2_config(config_);
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
  const auto copy = [&](std::vector<float>& into) {
    std::copy(values, values + count * cols, into.begin() + first_row * cols);
  };
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
    Layer& layer = layers_[(tensor - 2) / kGpt2TensorsPerLayer];
    switch ((tensor - 2) % kGpt2TensorsPerLayer) {
      case 0:
        copy(layer.ln1_gamma);
        break;
      case 1:
        copy(layer.ln1_beta);
        break;
      case 2:
        pack(layer.w_q, 0, 3 * d), pack(layer.w_k, d, 3 * d), pack(layer.w_v, 2 * d, 3 * d);
        break;
      case 3:
        copy(layer.b_qkv);
        break;
      case 4:
        pack(layer.w_proj, 0, d);
        break;
      case 5:
        copy(layer.b_proj);
        break;
      case 6:
        copy(layer.ln2_gamma);
        break;
      case 7:
        copy(layer.ln2_beta);
        break;
      case 8:
        pack(layer.w_fc, 0, config_.d_ff);
        break;
      case 9:
        copy(layer.b_fc);
        break;
      case 10:
        pack(layer.w_fc_proj, 0, d);
        break;
      default:
        copy(layer.b_fc_proj);
        break;
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
  // The mean input row, summed in double over the V columns of wteᵀ.
  const std::size_t d = config_.d_model, V = config_.vocab_size;
  std::vector<double> sum(d, 0.0);
  std::vector<float> row(d);
  for (std::size_t id = 0; id < V; ++id) {
    unpack_panel_column(unembedding_.data.data(), d, id, row.data());
    for (std::size_t c = 0; c < d; ++c) sum[c] += row[c];
  }
  mean_embedding_.resize(d);
  for (std::size_t c = 0; c < d; ++c) mean_embedding_[c] = static_cast<float>(sum[c] / static_cast<double>(V));
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
                        LanguageRun& out, std::vector<float>& x, std::optional<HeadChoice> follow,
                        std::optional<std::size_t> occlude, std::size_t from_layer) {
  if (!loaded_) throw std::invalid_argument("gpt2: the model's tensors are not all loaded");
  const std::size_t T = ids.size(), d = config_.d_model, H = config_.n_heads, ff = config_.d_ff, dk = d / H;
  check_token_count(T, 1, std::min(kMaxLanguageTokens, config_.n_positions), "gpt2: the text");
  for (std::size_t t = 0; t < T; ++t) {
    if (ids[t] < 0 || static_cast<std::size_t>(ids[t]) >= config_.vocab_size) {
      throw std::out_of_range("gpt2: token " + std::to_string(t) + " has id " + std::to_string(ids[t]) +
                              ", outside [0, " + std::to_string(config_.vocab_size) + ")");
    }
  }
  if (from_layer == 0) {
    out.embeddings.resize(T * d);
    for (std::size_t t = 0; t < T; ++t)
      unpack_panel_column(unembedding_.data.data(), d, ids[t], out.embeddings.data() + t * d);
    if (occlude) std::copy(mean_embedding_.begin(), mean_embedding_.end(), out.embeddings.begin() + *occlude * d);
    x = out.embeddings;
    for (std::size_t i = 0; i < T * d; ++i) x[i] += wpe_[i];
    out.input = x;
  }
  out.attention.assign(config_.n_layers * H * T * T, 0.0f);
  out.hidden.clear();
  std::vector<float> a(T * d), q(T * d), k(T * d), v(T * d), z(T * d), sub(T * d), hidden(T * ff), mean(T), rstd(T);
  // Each sublayer's output goes to `sub` and is then added to x, so that a followed block (activations) shows the very
  // values of the residual stream.
  const auto add = [&]() {
    for (std::size_t i = 0; i < T * d; ++i) x[i] += sub[i];
  };
  for (std::size_t l = from_layer; l < config_.n_layers; ++l) {
    const Layer& layer = layers_[l];
    BlockActivations* b = follow && follow->layer == l ? &out.activations.emplace() : nullptr;
    if (b) {
      b->layer = l, b->head = follow->head;
      b->word_vectors = out.embeddings;
      b->positional.assign(wpe_.begin(), wpe_.begin() + T * d);
      b->input = x;
    }
    layernorm_forward(a.data(), mean.data(), rstd.data(), x.data(), layer.ln1_gamma.data(), layer.ln1_beta.data(), T,
                      d);
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
    layernorm_forward(a.data(), mean.data(), rstd.data(), x.data(), layer.ln2_gamma.data(), layer.ln2_beta.data(), T,
                      d);
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
  out.positions = resolve_positions(positions, T, "gpt2.run");
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
  out.positions = resolve_positions(positions, T, "gpt2.logitLens");
  const std::size_t P = out.positions.size();
  std::vector<float> rows(R * P * d);  // row (r, i): the residual stream after r blocks at positions[i]
  for (std::size_t r = 0; r < R; ++r) {
    const float* stream = r == 0 ? run.input.data() : run.hidden.data() + (r - 1) * T * d;
    for (std::size_t i = 0; i < P; ++i) std::copy_n(stream + out.positions[i] * d, d, rows.begin() + (r * P + i) * d);
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

double Gpt2Model::log_prob_at(const std::vector<std::int32_t>& ids, std::int64_t position, std::int32_t word,
                              const std::vector<HeadChoice>& ablate, std::optional<HeadChoice> also_off,
                              std::optional<std::size_t> occlude) {
  const char* where = "gpt2.attribute";
  const std::size_t T = ids.size(), d = config_.d_model, V = config_.vocab_size, H = config_.n_heads;
  const std::size_t at = position_index(position, T, where);
  if (word < 0 || static_cast<std::size_t>(word) >= V) {
    throw std::out_of_range(std::string(where) + ": word must be a token id in [0, " + std::to_string(V) + "), got " +
                            std::to_string(word));
  }
  if (occlude && *occlude >= T) {
    throw std::out_of_range(std::string(where) + ": the occluded token must be in [0, " + std::to_string(T) +
                            "), got " + std::to_string(*occlude));
  }
  if (also_off) check_head_choice(heads(), *also_off, "gpt2.attribute: alsoOff");
  std::vector<std::uint8_t> ablated = ablation_flags(heads(), ablate, "gpt2.attribute: ablate");
  ablated.resize(config_.n_layers * H, 0);  // empty: every head on
  LanguageRun run;
  std::vector<float> x;
  std::size_t from = 0;
  if (!occlude) {
    StreamCache& cache = stream_cache_;
    if (cache.ids != ids || cache.ablated != ablated) {  // the pass with only `ablate` off, from the first layer
      forward(ids, ablated, run, x);
      cache.ids = ids, cache.ablated = ablated;
      cache.streams = run.input;
      cache.streams.insert(cache.streams.end(), run.hidden.begin(), run.hidden.end() - T * d);
      if (!also_off) return log_prob_of_row(x.data() + at * d, word);
    }
    // The layers before the extra head's are that pass's: start from its stream there.
    from = also_off ? also_off->layer : config_.n_layers - 1;
    x.assign(cache.streams.begin() + from * T * d, cache.streams.begin() + (from + 1) * T * d);
  }
  if (also_off) ablated[also_off->layer * H + also_off->head] = 1;
  forward(ids, ablated, run, x, std::nullopt, occlude, from);
  return log_prob_of_row(x.data() + at * d, word);
}

double Gpt2Model::log_prob_of_row(const float* x, std::int32_t word) const {
  std::vector<float> logits;
  output_layer(x, 1, logits);
  return log_softmax_at(logits.data(), config_.vocab_size, word);
}

std::vector<double> Gpt2Model::next_log_probs(const std::vector<std::int32_t>& ids,
                                              const std::vector<HeadChoice>& ablate, std::vector<float>* attention) {
  check_token_count(ids.size(), 2, std::min(kMaxLanguageTokens, config_.n_positions), "gpt2.score: the text");
  const std::vector<std::uint8_t> ablated = ablation_flags(heads(), ablate, "gpt2.score: ablate");
  LanguageRun run;
  std::vector<float> x, logits;
  forward(ids, ablated, run, x);
  if (attention) *attention = run.attention;
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
