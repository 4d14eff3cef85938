// embind glue for GPT-2 checkpoints (cpp/include/attn/train/gpt2.hpp): web/src/core/gpt2.js reads the safetensors
// header, asks gpt2Layout which tensor is which, creates the model and streams each tensor in, a block of rows at a
// time, through a scratch buffer in wasm memory (decoded from F32, F16 or BF16 by JS straight into it), so the weights
// are never held twice in wasm memory.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "attn/train/gpt2.hpp"
#include "attn/train/head_statistics.hpp"
#include "attn/train/sampling.hpp"
#include "convert.hpp"
#include "exports.hpp"
#include "guarded.hpp"
#include "registry.hpp"

using emscripten::val;
using namespace bindings;
namespace train = attn::train;

namespace {

Registry<train::Gpt2Model> g_gpt2("gpt2: this model was released");
// Per model being loaded, one block of rows on its way into it (two files may load at once, each between its yields to
// the page).
std::unordered_map<int, std::vector<float>> g_scratch;

val config_to_js(const train::Gpt2Config& c) {
  val out = val::object();
  set_numbers(out, {{"vocabSize", c.vocab_size},
                    {"nPositions", c.n_positions},
                    {"dModel", c.d_model},
                    {"numHeads", c.n_heads},
                    {"numLayers", c.n_layers},
                    {"dFF", c.d_ff},
                    {"parameters", static_cast<double>(c.parameter_count())}});
  return out;
}

train::Gpt2Config config_from_js(const val& c) {
  const auto n = [&](const char* key) { return c[key].as<std::size_t>(); };
  return {n("vocabSize"), n("nPositions"), n("dModel"), n("numHeads"), n("numLayers"), n("dFF")};
}

// tensors: [{ name, shape }] as in the file; nHeads: 0 for d / 64. { config, tensorOfSpec, specs: [{ name, shape }] }.
val gpt2_layout(const val& tensors, double n_heads) {
  return guarded([&] {
    std::vector<std::pair<std::string, std::vector<std::size_t>>> list;
    const auto count = tensors["length"].as<std::size_t>();
    for (std::size_t i = 0; i < count; ++i) {
      std::vector<std::size_t> shape;
      for (const double n : vector_from_js<double>(tensors[i]["shape"])) shape.push_back(static_cast<std::size_t>(n));
      list.emplace_back(tensors[i]["name"].as<std::string>(), std::move(shape));
    }
    const train::Gpt2FileLayout layout = train::gpt2_file_layout(list, static_cast<std::size_t>(n_heads));
    val specs = val::array();
    for (const train::Gpt2TensorSpec& s : train::gpt2_tensor_specs(layout.config))
      specs.call<void>("push", object_to_js({{"name", val(s.name)}, {"shape", array_to_js(s.shape)}}));
    const std::vector<std::int32_t> index(layout.tensor_of_spec.begin(), layout.tensor_of_spec.end());
    return object_to_js(
        {{"config", config_to_js(layout.config)}, {"tensorOfSpec", typed_array_to_js(index)}, {"specs", specs}});
  });
}

val gpt2_create(const val& config) {
  return guarded([&] {
    auto model = std::make_unique<train::Gpt2Model>(config_from_js(config));
    const double bytes = 4.0 * static_cast<double>(model->stored_floats());
    return object_to_js({{"id", val(g_gpt2.add(std::move(model)))}, {"bytes", val(bytes)}});
  });
}

// The byte address of model `id`'s scratch buffer of `floats` values, which gpt2Load reads (stable until gpt2Finish or
// gpt2Release: wasm memory grows without moving it).
val gpt2_scratch(int id, double floats) {
  return guarded([&] {
    g_gpt2.get(id);  // a released model has none
    std::vector<float>& scratch = g_scratch[id];
    scratch.resize(static_cast<std::size_t>(floats));
    return val(static_cast<double>(reinterpret_cast<std::uintptr_t>(scratch.data())));
  });
}

// Rows [firstRow, firstRow + count) of spec `tensor`, from the scratch buffer.
val gpt2_load(int id, double tensor, double first_row, double count) {
  return guarded([&] {
    g_gpt2.get(id).load(static_cast<std::size_t>(tensor), static_cast<std::size_t>(first_row), g_scratch.at(id).data(),
                        static_cast<std::size_t>(count));
    return val::undefined();
  });
}

val gpt2_finish(int id) {
  return guarded([&] {
    g_scratch.erase(id);
    g_gpt2.get(id).finish_loading();
    return val::undefined();
  });
}

val gpt2_release(int id) {
  g_scratch.erase(id);
  g_gpt2.release(id);
  return val::undefined();
}

// run()'s result (convert.hpp language_run_to_js); positions: integers (empty: every token); sampling: null, or
// { temperature, topK }; activations: null, or { layer, head }: that head's block step by step (gpt2.hpp run).
val gpt2_run(int id, const val& ids, int k, const val& positions, const val& ablate, const val& sampling,
             const val& activations) {
  return guarded([&] {
    train::Gpt2Model& m = g_gpt2.get(id);
    std::vector<std::int64_t> at;
    for (const double p : vector_from_js<double>(positions)) at.push_back(static_cast<std::int64_t>(p));
    std::optional<train::HeadChoice> follow;
    if (!activations.isNull())
      follow = train::HeadChoice{activations["layer"].as<std::size_t>(), activations["head"].as<std::size_t>()};
    const train::LanguageRun r =
        m.run(vector_from_js<std::int32_t>(ids), static_cast<std::size_t>(k), at, heads_from_js(ablate), follow);
    const train::Gpt2Config& c = m.config();
    return language_run_to_js(r, r.embeddings.size() / c.d_model, c.vocab_size, -1, sampling,
                              static_cast<std::size_t>(k), c.d_model / c.n_heads, c.d_ff);
  });
}

// ln p(token t + 1 | tokens 0 … t), t = 0 … T − 2, as a Float64Array.
val gpt2_score(int id, const val& ids, const val& ablate) {
  return guarded([&] {
    return typed_array_to_js(g_gpt2.get(id).next_log_probs(vector_from_js<std::int32_t>(ids), heads_from_js(ablate)));
  });
}

// ln p(word) at `position` with the heads of `ablate` off, and alsoOff ({ layer, head }, or null) too, and, unless
// occlude is −1, that token's input row the mean embedding (gpt2.hpp log_prob_at): one forward pass of "Why this
// word?" (gpt2-attribution.js).
val gpt2_log_prob_at(int id, const val& ids, double position, double word, const val& ablate, const val& also_off,
                     double occlude) {
  return guarded([&] {
    std::optional<train::HeadChoice> extra;
    if (!also_off.isNull())
      extra = train::HeadChoice{also_off["layer"].as<std::size_t>(), also_off["head"].as<std::size_t>()};
    std::optional<std::size_t> occluded;
    if (occlude >= 0) occluded = static_cast<std::size_t>(occlude);
    return val(g_gpt2.get(id).log_prob_at(vector_from_js<std::int32_t>(ids), static_cast<std::int64_t>(position),
                                          static_cast<std::int32_t>(word), heads_from_js(ablate), extra, occluded));
  });
}

// One token drawn after the last (sampling.hpp, as languageModel.sample draws): { id, q, position }.
val gpt2_sample(int id, const val& ids, double temperature, double top_k, double seed, const val& ablate) {
  return guarded([&] {
    train::Gpt2Model& m = g_gpt2.get(id);
    const train::LanguageRun r = m.run(vector_from_js<std::int32_t>(ids), 1, {-1}, heads_from_js(ablate));
    const train::SampledWord w = train::draw(train::sampling_distribution(r.logits.data(), r.logits.size(), -1,
                                                                          temperature, static_cast<std::size_t>(top_k)),
                                             static_cast<std::uint64_t>(seed));
    return object_to_js({{"id", val(w.id)}, {"q", val(w.q)}, {"position", val(r.positions[0])}});
  });
}

// { positions, ids (L + 1)·P·k, p, nextP (L + 1)·P } (gpt2.hpp logit_lens); the JS side shapes them.
val gpt2_logit_lens(int id, const val& ids, int k, const val& positions) {
  return guarded([&] {
    std::vector<std::int64_t> at;
    for (const double p : vector_from_js<double>(positions)) at.push_back(static_cast<std::int64_t>(p));
    const train::Gpt2Model::LogitLens lens =
        g_gpt2.get(id).logit_lens(vector_from_js<std::int32_t>(ids), static_cast<std::size_t>(k), at);
    const std::vector<std::int32_t> computed(lens.positions.begin(), lens.positions.end());
    return object_to_js({{"positions", typed_array_to_js(computed)},
                         {"ids", typed_array_to_js(lens.ids)},
                         {"p", typed_array_to_js(lens.p)},
                         {"nextP", typed_array_to_js(lens.next_p)}});
  });
}

// wpe as { data, shape: [n_positions, d] }.
val gpt2_position_embeddings(int id) {
  return guarded([&] {
    const train::Gpt2Model& m = g_gpt2.get(id);
    return tensor_to_js(m.position_embeddings().data(), {m.config().n_positions, m.config().d_model});
  });
}

// The repeated-tokens probe (head_statistics.hpp), its example as token ids (gpt2.js names them).
val gpt2_repeated_words(int id, double repeat, double sequences, double seed) {
  return guarded([&] {
    train::Gpt2Model& m = g_gpt2.get(id);
    const train::RepeatedWordsScores r = train::repeated_words_probe(
        m, static_cast<std::size_t>(repeat), static_cast<std::size_t>(sequences), static_cast<std::uint64_t>(seed));
    return repeated_words_to_js(r, m.config().n_heads, true, typed_array_to_js(r.example));
  });
}

val gpt2_limits() {
  val out = val::object();
  set_numbers(out, {{"maxParameters", static_cast<double>(train::kMaxGpt2Parameters)},
                    {"headDim", train::kGpt2HeadDim},
                    {"maxTokens", train::kMaxLanguageTokens}});
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_gpt2) {
  bind_functions("gpt2Layout", &gpt2_layout, "gpt2Create", &gpt2_create, "gpt2Scratch", &gpt2_scratch, "gpt2Load",
                 &gpt2_load, "gpt2Finish", &gpt2_finish, "gpt2Release", &gpt2_release, "gpt2Run", &gpt2_run,
                 "gpt2Score", &gpt2_score, "gpt2Sample", &gpt2_sample, "gpt2Limits", &gpt2_limits);
  bind_functions("gpt2LogitLens", &gpt2_logit_lens, "gpt2PositionEmbeddings", &gpt2_position_embeddings,
                 "gpt2RepeatedWords", &gpt2_repeated_words, "gpt2LogProbAt", &gpt2_log_prob_at);
}
