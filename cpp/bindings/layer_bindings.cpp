// embind glue for the fast paths through wasm memory: core.multiHeadLayer() (layers prepared once,
// weights checked and packed, then forward calls) and the one head of core.attention(). The calls take
// and return plain numbers (byte addresses, ids); 0 means an error, which lastLayerError() returns as
// { error } (guarded.hpp).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "attn/core/attention_head.hpp"
#include "attn/core/attention_layer.hpp"
#include "attn/core/limits.hpp"
#include "attn/core/multi_head.hpp"
#include "convert.hpp"
#include "exports.hpp"
#include "guarded.hpp"
#include "registry.hpp"

using emscripten::val;
using namespace bindings;

namespace {

// Prepared layers by id. The JS wrapper releases an id when its layer object is garbage-collected.
Registry<attn::MultiHeadLayer> g_layers("multiHeadLayer: this layer was released");
std::vector<float> g_input, g_output, g_weights;  // reused across forward calls: no allocation per call

// multiHeadLayer().forward, the fast path: JS copies the input straight into wasm memory at the
// address layerInput() returns, calls forwardLayer() with plain numbers, and copies the output (and
// the weights) out of memory at the addresses returned. No JS object crosses per call: embind's val
// conversions cost more than the arithmetic at 8 tokens. An address of 0 means an error, which
// lastLayerError() returns as { error }.
std::pair<const char*, std::string> g_layer_error;

template <typename F>
double address_or_error(F&& body) {
  try {
    return static_cast<double>(reinterpret_cast<std::uintptr_t>(body()));
  } catch (const std::exception&) {
    g_layer_error = current_error();
    return 0;
  }
}

// A reused buffer resized; its address is never 0 (capacity ≥ 1), since 0 means an error.
float* buffer(std::vector<float>& v, std::size_t size) {
  v.reserve(1);
  v.resize(size);
  return v.data();
}

// Layers are prepared through memory too (embind's val conversions of four matrices cost more than
// packing them at d_model = 64): JS writes W_Q, W_K, W_V, W_O [d_model, d_model] one after the other at
// the address layerWeightsInput() returns, then prepareLayer() returns the new layer's id (0: error).
std::vector<float> g_layer_weights;

double layer_weights_input(double d_model) {
  return address_or_error([&] {
    attn::check_cells(std::uint64_t{4} * static_cast<std::uint64_t>(d_model) * static_cast<std::uint64_t>(d_model),
                      "multiHeadLayer: the weights");
    return buffer(g_layer_weights, 4 * static_cast<std::size_t>(d_model) * static_cast<std::size_t>(d_model));
  });
}

// A layer packed from the weights at layerWeightsInput(); throws as MultiHeadLayer's constructor.
std::unique_ptr<attn::MultiHeadLayer> layer_from_memory(double n_heads, double d_model) {
  const auto d = static_cast<std::size_t>(d_model), cells = d * d;
  if (g_layer_weights.size() != 4 * cells)
    throw std::logic_error("prepareLayer: call layerWeightsInput(d_model) first");
  const float* w = g_layer_weights.data();
  return std::make_unique<attn::MultiHeadLayer>(static_cast<std::size_t>(n_heads), d, w, w + cells, w + 2 * cells,
                                                w + 3 * cells);
}

double prepare_layer(double n_heads, double d_model) {
  try {
    return g_layers.add(layer_from_memory(n_heads, d_model));
  } catch (const std::exception&) {
    g_layer_error = current_error();
    return 0;
  }
}

// multiHeadAttention() passes its weights on every call, usually the same ones. Its layer is kept with the
// weights it was packed from, and reused while the weights written by layerWeightsInput() are the same
// (comparing reads them once; packing costs more). Any other weights replace it. The layer lives in
// g_layers under kCachedLayer and is never released by JS. The weights it was packed from are a snapshot:
// a result's lazy trace (web/src/core/fast-paths.js) holds the snapshot's id and computes from it when
// first read, so no JS copy is made per call; JS releases an id when no result holds it.
constexpr int kCachedLayer = -1;
std::unordered_map<int, std::shared_ptr<const std::vector<float>>> g_snapshots;
std::shared_ptr<const std::vector<float>> g_cached_weights;
std::size_t g_cached_heads = 0;
int g_cached_snapshot = 0, g_next_snapshot = 1;

// a == b element by element, without an early exit inside a block so the loop vectorizes.
bool same_values(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  constexpr std::size_t kBlock = 256;
  for (std::size_t i = 0; i < a.size(); i += kBlock) {
    bool differ = false;
    for (std::size_t j = i, end = std::min(a.size(), i + kBlock); j < end; ++j) differ |= a[j] != b[j];
    if (differ) return false;
  }
  return true;
}

// The cached layer for the weights at layerWeightsInput() (returns kCachedLayer, 0 for an error); its
// snapshot's id is then at cachedSnapshot().
double prepare_cached_layer(double n_heads, double d_model) {
  const auto heads = static_cast<std::size_t>(n_heads);
  if (heads == g_cached_heads && g_cached_weights && same_values(g_layer_weights, *g_cached_weights))
    return kCachedLayer;
  g_layers.release(kCachedLayer);
  g_cached_heads = 0;
  g_cached_weights.reset();
  try {
    g_layers.put(kCachedLayer, layer_from_memory(n_heads, d_model));
  } catch (const std::exception&) {
    g_layer_error = current_error();
    return 0;
  }
  g_cached_weights = std::make_shared<const std::vector<float>>(g_layer_weights);
  g_cached_heads = heads;
  g_cached_snapshot = g_next_snapshot++;
  g_snapshots.emplace(g_cached_snapshot, g_cached_weights);
  return kCachedLayer;
}

int cached_snapshot() { return g_cached_snapshot; }

void release_snapshot(int id) { g_snapshots.erase(id); }

// multiHeadAttention's full result (bindings.cpp's multiHeadAttention, no position information) for
// args.input and the weights of snapshot args.snapshot.
val multi_head_attention_snapshot(const val& args) {
  return guarded([&] {
    const auto found = g_snapshots.find(args["snapshot"].as<int>());
    if (found == g_snapshots.end()) throw std::logic_error("multiHeadAttention: the weights' snapshot was released");
    const std::vector<float>& w = *found->second;
    const std::size_t d = static_cast<std::size_t>(std::lround(std::sqrt(static_cast<double>(w.size() / 4)))),
                      cells = d * d;
    auto weights = [&](std::size_t k) {
      xt::xtensor<float, 2> m = xt::empty<float>({d, d});
      std::copy_n(w.data() + k * cells, cells, m.data());
      return m;
    };
    const attn::Projections p{weights(0), weights(1), weights(2), weights(3)};
    val out = val::object();
    set_attention_steps(
        out, attn::multi_head_attention(matrix_from_js(args["input"], "input"), args["numHeads"].as<std::size_t>(), p,
                                        attention_options(args)));
    return out;
  });
}

// The input buffer [seq_len, d_model] of layer id, to be filled before forwardLayer.
double layer_input(int id, double seq_len) {
  return address_or_error([&] {
    const attn::MultiHeadLayer& layer = g_layers.get(id);
    attn::check_cells(static_cast<std::uint64_t>(seq_len) * layer.d_model(), "multiHeadLayer: the input");
    return buffer(g_input, static_cast<std::size_t>(seq_len) * layer.d_model());
  });
}

// Runs layer id on the input buffer; valid_length < 0 means none. Returns the output's address; the
// weights [n_heads, seq_len, seq_len], when asked for, are at layerWeights().
double forward_layer(int id, double seq_len, bool causal, double valid_length, double temperature, bool scale,
                     bool return_weights) {
  return address_or_error([&] {
    attn::MultiHeadLayer& layer = g_layers.get(id);
    const std::size_t n = static_cast<std::size_t>(seq_len);
    if (g_input.size() != n * layer.d_model())
      throw std::logic_error("forwardLayer: call layerInput(id, seq_len) first");
    attn::AttentionOptions o;
    o.causal = causal;
    o.temperature = static_cast<float>(temperature);
    o.scale = scale;
    if (valid_length >= 0) o.valid_length = static_cast<std::size_t>(valid_length);
    float* output = buffer(g_output, n * layer.d_model());
    float* weights = return_weights ? buffer(g_weights, layer.n_heads() * n * n) : nullptr;
    layer.forward(g_input.data(), n, output, o, weights);
    return output;
  });
}

// attention()'s fast path, one head: JS copies queries [n, d_k], keys [m, d_k] and values [m, d_v], one
// after the other, to the address headInput() returns, then attentionHead() returns the output's
// [n, d_v]. The JS wrapper falls back to the reference attention() on any error (it names the argument).
attn::HeadWorkspace g_head;

double head_input(double n, double m, double d_k, double d_v) {
  return address_or_error([&] {
    const auto cells = static_cast<std::uint64_t>(n) * d_k + static_cast<std::uint64_t>(m) * (d_k + d_v);
    attn::check_cells(cells, "attention: queries, keys and values");
    attn::check_cells(static_cast<std::uint64_t>(n) * m, "attention: the scores");
    return buffer(g_input, static_cast<std::size_t>(cells));
  });
}

double attention_head(double n_, double m_, double d_k_, double d_v_, bool causal, double valid_length,
                      double temperature, bool scale) {
  return address_or_error([&] {
    const auto n = static_cast<std::size_t>(n_), m = static_cast<std::size_t>(m_), d_k = static_cast<std::size_t>(d_k_),
               d_v = static_cast<std::size_t>(d_v_);
    if (g_input.size() != n * d_k + m * (d_k + d_v)) throw std::logic_error("attentionHead: call headInput() first");
    const double factor = 1.0 / ((scale ? std::sqrt(static_cast<double>(d_k)) : 1.0) * temperature);
    if (!(std::isfinite(factor) && factor > 0 && std::isfinite(static_cast<float>(factor)) &&
          static_cast<float>(factor) > 0)) {
      throw std::out_of_range("attention: the score scale 1/(√d_k·τ) is outside float32");
    }
    if (valid_length > static_cast<double>(m)) throw std::out_of_range("attention: valid_length must be 0 … m");
    const attn::PrefixMask mask{causal, valid_length >= 0 ? static_cast<std::size_t>(valid_length) : m};
    const float* q = g_input.data();
    if (!std::all_of(q, q + g_input.size(), [](float x) { return std::isfinite(x); })) {
      throw std::invalid_argument("attention: inputs must be finite");
    }
    float* output = buffer(g_output, n * d_v);
    if (!attn::attend_head(q, d_k, q + n * d_k, d_k, q + n * d_k + m * d_k, d_v, n, m, d_k, d_v,
                           static_cast<float>(factor), mask, output, d_v, g_head)) {
      throw std::invalid_argument("attention: scores hold NaN");
    }
    return output;
  });
}

// The results of attention() and multiHeadAttention() compute their trace when first read, from the
// caller's arrays (copying them at every call into fresh JS memory cost more than the attention in
// Chromium 156: new memory page-faults, ~60 µs for 16 KB, headless, this machine). A hash of the inputs
// taken at the call, and again at the read, tells whether the caller changed them in between.
// inputHash(): FNV-1a over the float bits of the input buffer, in 4 interleaved lanes (independent
// multiply-xor chains the compiler vectorizes), then the lanes and the length folded together.
double input_hash() {
  constexpr std::uint32_t kPrime = 16777619u, kBasis = 2166136261u;
  std::uint32_t lane[4] = {kBasis, kBasis ^ 1u, kBasis ^ 2u, kBasis ^ 3u};
  const std::size_t size = g_input.size(), whole = size / 4 * 4;
  for (std::size_t i = 0; i < whole; i += 4) {
    for (std::size_t l = 0; l < 4; ++l) {
      std::uint32_t bits;
      std::memcpy(&bits, &g_input[i + l], sizeof bits);
      lane[l] = (lane[l] ^ bits) * kPrime;
    }
  }
  std::uint32_t hash = kBasis;
  for (std::size_t i = whole; i < size; ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, &g_input[i], sizeof bits);
    hash = (hash ^ bits) * kPrime;
  }
  for (std::uint32_t l : lane) hash = (hash ^ l) * kPrime;
  return static_cast<double>((hash ^ static_cast<std::uint32_t>(size)) * kPrime);
}

// The input buffer resized to `cells` floats, for inputHash() of arrays written there.
double scratch_input(double cells) {
  return address_or_error([&] {
    attn::check_cells(static_cast<std::uint64_t>(cells), "the inputs");
    return buffer(g_input, static_cast<std::size_t>(cells));
  });
}

double layer_weights() { return static_cast<double>(reinterpret_cast<std::uintptr_t>(g_weights.data())); }

val last_layer_error() { return error_object(g_layer_error.first, g_layer_error.second); }

void release_layer(int id) { g_layers.release(id); }

}  // namespace

EMSCRIPTEN_BINDINGS(multi_head_layer) {
  bind_functions("layerWeightsInput", &layer_weights_input, "prepareLayer", &prepare_layer, "prepareCachedLayer",
                 &prepare_cached_layer, "cachedSnapshot", &cached_snapshot, "releaseSnapshot", &release_snapshot,
                 "multiHeadAttentionSnapshot", &multi_head_attention_snapshot, "layerInput", &layer_input,
                 "forwardLayer", &forward_layer, "layerWeights", &layer_weights, "lastLayerError", &last_layer_error,
                 "releaseLayer", &release_layer, "headInput", &head_input, "attentionHead", &attention_head,
                 "inputHash", &input_hash, "scratchInput", &scratch_input);
}
