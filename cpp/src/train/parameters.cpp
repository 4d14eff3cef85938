#include "attn/train/parameters.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "attn/core/limits.hpp"
#include "attn/core/random.hpp"

namespace attn::train {

namespace {

// How a tensor starts: drawn with standard deviation sigma (a matrix), or the constant value.
struct Init {
  float sigma, constant;
};

// The one table of the parameter tensors: calls visit(name, shape, init, slot) in the flat array's
// order for every tensor the configuration has. slot is the pointer bind_parameters() fills.
template <typename Real, typename Visit>
void visit_parameters(const ModelConfig& c, Parameters<Real>& p, Visit&& visit) {
  const std::size_t d = c.d_model;
  const Init input{1.0f, 0}, fan_in_d{1.0f / std::sqrt(static_cast<float>(d)), 0}, zero{0, 0}, one{0, 1.0f};
  const Init fan_in_ff{c.d_ff ? 1.0f / std::sqrt(static_cast<float>(c.d_ff)) : 0.0f, 0};
  if (c.learned_rows()) visit("embedding", {c.learned_rows(), d}, input, p.embedding);
  if (c.positional == Positional::learned) visit("positional", {c.seq_len, d}, input, p.positional);
  p.layers.assign(c.n_layers, {});
  for (std::size_t l = 0; l < c.n_layers; ++l) {
    LayerParameters<Real>& layer = p.layers[l];
    const std::string at = "layers." + std::to_string(l) + ".";
    const std::pair<const char*, Real**> projections[4] = {
        {"q", &layer.w_q}, {"k", &layer.w_k}, {"v", &layer.w_v}, {"o", &layer.w_o}};
    Real** biases[4] = {&layer.b_q, &layer.b_k, &layer.b_v, &layer.b_o};
    for (std::size_t m = 0; m < 4; ++m) {
      visit(at + "attention.w_" + projections[m].first, {d, d}, fan_in_d, *projections[m].second);
      if (c.biases) visit(at + "attention.b_" + projections[m].first, {d}, zero, *biases[m]);
    }
    if (c.layer_norm) {
      visit(at + "norm1.gamma", {d}, one, layer.norm1_gamma);
      visit(at + "norm1.beta", {d}, zero, layer.norm1_beta);
    }
    if (c.d_ff) {
      visit(at + "feed_forward.w_1", {d, c.d_ff}, fan_in_d, layer.w_1);
      if (c.biases) visit(at + "feed_forward.b_1", {c.d_ff}, zero, layer.b_1);
      visit(at + "feed_forward.w_2", {c.d_ff, d}, fan_in_ff, layer.w_2);
      if (c.biases) visit(at + "feed_forward.b_2", {d}, zero, layer.b_2);
      if (c.layer_norm) {
        visit(at + "norm2.gamma", {d}, one, layer.norm2_gamma);
        visit(at + "norm2.beta", {d}, zero, layer.norm2_beta);
      }
    }
  }
  if (c.output_head) {
    visit("output_head.dense.w", {d, d}, fan_in_d, p.head_w);
    visit("output_head.dense.b", {d}, zero, p.head_b);
    visit("output_head.norm.gamma", {d}, one, p.head_gamma);
    visit("output_head.norm.beta", {d}, zero, p.head_beta);
  }
  if (!c.tied_output) visit("unembedding", {d, c.outputs()}, fan_in_d, p.unembedding);
  if (c.biases) visit("output_bias", {c.outputs()}, zero, p.output_bias);
}

// The number of parameters of c, counted in 64 bits from the one table (saturating at UINT64_MAX), so that
// check_config sees the true size of a configuration before anything in size_t can wrap on wasm32.
std::uint64_t parameter_cells(const ModelConfig& c) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t count = 0;
  Parameters<float> unused;
  visit_parameters(c, unused, [&](const std::string&, const std::vector<std::size_t>& shape, Init, float*&) {
    std::uint64_t size = 1;
    for (const std::size_t s : shape) size = s && size > kMax / s ? kMax : size * s;
    count = count > kMax - size ? kMax : count + size;
  });
  return count;
}

}  // namespace

std::size_t tensor_size(const std::vector<std::size_t>& shape) {
  std::size_t n = 1;
  for (const std::size_t s : shape) n *= s;
  return n;
}

void check_config(const ModelConfig& c) {
  const auto positive = [](std::size_t value, const char* name) {
    if (value == 0) throw std::out_of_range(std::string(name) + " must be at least 1");
  };
  positive(c.vocab_size, "vocabSize");
  positive(c.d_model, "dModel");
  positive(c.n_heads, "numHeads");
  positive(c.n_layers, "numLayers");
  positive(c.seq_len, "seqLen");
  if (c.d_model % c.n_heads != 0) {
    throw std::out_of_range("numHeads must divide dModel = " + std::to_string(c.d_model) + ", got " +
                            std::to_string(c.n_heads));
  }
  if (c.frozen_rows > c.vocab_size) {
    throw std::out_of_range("frozenRows must be at most vocabSize = " + std::to_string(c.vocab_size) + ", got " +
                            std::to_string(c.frozen_rows));
  }
  check_cells(parameter_cells(c), "the model's parameters");
}

std::vector<ParameterSpec> parameter_specs(const ModelConfig& c) {
  std::vector<ParameterSpec> specs;
  Parameters<float> unused;
  std::size_t offset = 0;
  visit_parameters(c, unused, [&](const std::string& name, std::vector<std::size_t> shape, Init init, float*&) {
    const std::size_t size = tensor_size(shape);
    specs.push_back({name, std::move(shape), offset, size, init.sigma, init.constant});
    offset += size;
  });
  return specs;
}

std::size_t parameter_count(const ModelConfig& c) { return static_cast<std::size_t>(parameter_cells(c)); }

template <typename Real>
Parameters<Real> bind_parameters(const ModelConfig& c, Real* flat) {
  Parameters<Real> p;
  std::size_t offset = 0;
  visit_parameters(c, p, [&](const std::string&, const std::vector<std::size_t>& shape, Init, Real*& slot) {
    slot = flat + offset;
    offset += tensor_size(shape);
  });
  return p;
}

template Parameters<float> bind_parameters<float>(const ModelConfig&, float*);
template Parameters<double> bind_parameters<double>(const ModelConfig&, double*);
template Parameters<const float> bind_parameters<const float>(const ModelConfig&, const float*);
template Parameters<const double> bind_parameters<const double>(const ModelConfig&, const double*);

std::vector<std::uint8_t> decay_mask(const ModelConfig& c) {
  std::vector<std::uint8_t> mask;
  for (const ParameterSpec& s : parameter_specs(c)) mask.insert(mask.end(), s.size, s.decay() ? 1 : 0);
  return mask;
}

std::vector<float> init_parameters(const ModelConfig& c, std::uint64_t seed) {
  check_config(c);
  std::vector<float> p(parameter_count(c));
  SplitMix64 rng(seed);
  const float sqrt3 = std::sqrt(3.0f);
  for (const ParameterSpec& s : parameter_specs(c)) {
    float* at = p.data() + s.offset;
    // Constants draw nothing, so adding biases or norms leaves every matrix's draw unchanged.
    if (!s.decay()) std::fill(at, at + s.size, s.constant);
    for (std::size_t i = 0; s.decay() && i < s.size; ++i) at[i] = (2.0f * rng.uniform() - 1.0f) * sqrt3 * s.sigma;
  }
  return p;
}

}  // namespace attn::train
