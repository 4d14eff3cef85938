// embind glue: with convert.hpp/.cpp (every JS ⇄ C++ conversion), guarded.hpp (errors), registry.hpp
// (objects by id), exports.hpp and the other *_bindings.cpp, the only code that sees <emscripten/…>.
// It binds the core's functions; every one returns { value } on success or { error: { name, message } }
// on failure (guarded.hpp), which web/src/core/ throws as a JS error once the C++ frames have unwound.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/core/attention.hpp"
#include "attn/core/layer_norm.hpp"
#include "attn/core/limits.hpp"
#include "attn/core/multi_head.hpp"
#include "attn/core/normalizers.hpp"
#include "attn/core/pca.hpp"
#include "attn/core/positional.hpp"
#include "attn/core/positional_variants.hpp"
#include "attn/core/score_functions.hpp"
#include "attn/lessons/cross_attention.hpp"
#include "attn/lessons/designed_heads.hpp"
#include "attn/lessons/explain.hpp"
#include "attn/lessons/layer_costs.hpp"
#include "attn/lessons/positional_lab.hpp"
#include "attn/lessons/simplex.hpp"
#include "attn/lessons/soft_lookup.hpp"
#include "attn/text/embeddings.hpp"
#include "attn/text/tokenizer.hpp"
#include "convert.hpp"
#include "exports.hpp"
#include "guarded.hpp"

using emscripten::val;
using namespace bindings;

namespace {

std::unique_ptr<attn::EmbeddingTable> g_table;  // one table per module instance

std::unique_ptr<attn::ModelWeights> g_model;  // explain()'s weights, rebuilt only when projection or seed change

const attn::EmbeddingTable& table() {
  if (!g_table) throw std::logic_error("no embeddings loaded: call loadEmbeddings first");
  return *g_table;
}

}  // namespace

const attn::EmbeddingTable& bindings::loaded_table() { return table(); }

namespace {

val load_embeddings(const val& bytes) {
  return guarded([&] {
    const std::vector<std::uint8_t> buffer = vector_from_js<std::uint8_t>(bytes);
    g_table = std::make_unique<attn::EmbeddingTable>(attn::EmbeddingTable::from_bytes(buffer.data(), buffer.size()));
    return object_to_js({{"vocabSize", val(g_table->vocab_size())}, {"dModel", val(g_table->dim())}});
  });
}

val tokenize(const std::string& text) {
  return guarded([&] {
    val tokens = val::array();
    for (const auto& token : attn::tokenize(text, table())) {
      val t = token_to_js(token);
      t.set("oov", table().id_of(token.key) < 0);
      tokens.call<void>("push", t);
    }
    return tokens;
  });
}

val embed(const std::string& text) {
  return guarded([&] {
    std::vector<std::int64_t> ids;
    return tensor_to_js(table().embed(attn::tokenize(text, table()), ids));
  });
}

val sinusoidal_encoding(double seq_len, double d_model, double base) {
  return guarded([&] {
    return tensor_to_js(
        attn::sinusoidal_encoding(static_cast<std::size_t>(seq_len), static_cast<std::size_t>(d_model), base));
  });
}

val attention(const val& args) {
  return guarded([&] {
    return attention_to_js(attn::scaled_dot_product_attention(
        matrix_from_js(args["queries"], "queries"), matrix_from_js(args["keys"], "keys"),
        matrix_from_js(args["values"], "values"), attention_options(args)));
  });
}

val multi_head_attention(const val& args) {
  return guarded([&] {
    const auto input = matrix_from_js(args["input"], "input");
    const attn::Projections p{matrix_from_js(args["wQ"], "wQ"), matrix_from_js(args["wK"], "wK"),
                              matrix_from_js(args["wV"], "wV"), matrix_from_js(args["wO"], "wO")};
    const auto r = attn::multi_head_attention(
        input, args["numHeads"].as<std::size_t>(), p, attention_options(args),
        enum_from_js(attn::kPositionalKindNames, args["positionalEncoding"], "positionalEncoding"),
        args["seed"].as<std::uint32_t>(), args["base"].as<double>(),
        enum_from_js(attn::kAlibiSlopesNames, args["alibiSlopes"], "alibiSlopes"));
    val out = val::object();
    set_attention_steps(out, r);
    return out;
  });
}

val explain(const std::string& text, const val& options) {
  return guarded([&] {
    const attn::ExplainOptions o = explain_options(options);
    attn::check_explain_options(o, table().dim());  // a refused call leaves the cached weights alone
    if (!g_model || g_model->d_model != table().dim() || g_model->projection != o.projection ||
        g_model->seed != o.seed) {
      g_model = std::make_unique<attn::ModelWeights>(attn::model_weights(table().dim(), o.projection, o.seed));
    }
    val trace = trace_to_js(attn::explain(text, table(), o, *g_model), o.position_checks);
    trace.set("scoring", score_options_to_js(o));
    return trace;
  });
}

val compare_contexts(const std::string& first, const std::string& second, const val& options) {
  return guarded([&] {
    const attn::ExplainOptions o = explain_options(options);
    const auto c = attn::compare_contexts(first, second, table(), o);
    return object_to_js({{"first", trace_to_js(c.first, o.position_checks)},
                         {"second", trace_to_js(c.second, o.position_checks)},
                         {"projection", pca_to_js(c.projection)},
                         {"scoring", score_options_to_js(o)}});
  });
}

val explain_cross(const std::string& source, const std::string& target, const val& options) {
  return guarded([&] {
    const attn::ExplainOptions o = explain_options(options);
    const auto r = attn::explain_cross(source, target, table(), o);
    val out = val::object();
    out.set("source", trace_to_js(r.source, false));
    out.set("target", trace_to_js(r.target, false));
    out.set("memory", tensor_to_js(r.memory));
    out.set("scoring", score_options_to_js(o));
    if (r.cross.heads.empty()) {
      out.set("queriesInput", val::null());
      out.set("cross", val::null());
    } else {
      out.set("queriesInput", tensor_to_js(r.queries_input));
      val cross = val::object();
      set_attention_steps(cross, r.cross);
      for (std::size_t h = 0; h < r.additive.size(); ++h)
        cross["heads"][h].set("additiveScorer", scorer_to_js(r.additive[h]));
      out.set("cross", cross);
    }
    return out;
  });
}

val simplex_objective(const val& args) {
  return guarded([&] {
    const std::vector<float> scores = vector_from_js<float>(args["scores"]);
    xt::xtensor<float, 1> s = xt::empty<float>({scores.size()});
    std::copy(scores.begin(), scores.end(), s.begin());
    return tensor_to_js(attn::simplex_objective(matrix_from_js(args["points"], "points"), s,
                                                normalizer_from_js(args["method"], "method"),
                                                args["temperature"].as<float>()));
  });
}

val score_cost(const val& args) {
  return guarded([&] {
    const attn::ScoreFunction f = enum_from_js(attn::kScoreFunctionNames, args["scoreFunction"], "scoreFunction");
    const auto c = attn::score_cost(f, args["queries"].as<std::size_t>(), args["keys"].as<std::size_t>(),
                                    args["dK"].as<std::size_t>(), args["hidden"].as<std::size_t>());
    return object_to_js({{"multiplyAdds", val(c.multiply_adds)},
                         {"additions", val(c.additions)},
                         {"divisions", val(c.divisions)},
                         {"tanh", val(c.tanh)},
                         {"total", val(c.total())}});
  });
}

// The positional-encoding lab (lessons/positional_lab.hpp): one core call, converted.
val positional_encoding_lab(const val& args) {
  return guarded([&] {
    const attn::PositionalLab lab = attn::positional_lab(positional_lab_options(args));
    val out = val::object();
    out.set("encoding", tensor_to_js(lab.encoding));
    out.set("wavelengths", array_to_js(std::vector<double>(lab.wavelengths.begin(), lab.wavelengths.end())));
    out.set("bits", tensor_to_js(lab.bits));
    out.set("similarity", tensor_to_js(lab.similarity));
    out.set("cosineSimilarity", tensor_to_js(lab.cosine_similarity));
    val rotation = val::object();
    rotation.set("float64Angles", rotation_to_js(lab.rotation_float64));
    rotation.set("float32Angles", rotation_to_js(lab.rotation_float32));
    out.set("rotation", rotation);
    val errors = val::object();
    errors.set("float64Angles", tensor_to_js(lab.error_float64));
    errors.set("float32Angles", tensor_to_js(lab.error_float32));
    out.set("rotationErrorByPosition", errors);
    return out;
  });
}

val layer_norm(const val& args) {
  return guarded(
      [&] { return tensor_to_js(attn::layer_norm(matrix_from_js(args["x"], "x"), args["epsilon"].as<float>())); });
}

val pca(const val& args) {
  return guarded(
      [&] { return pca_to_js(attn::pca(matrix_from_js(args["rows"], "rows"), args["k"].as<std::size_t>())); });
}

val normalize(const val& args) {
  return guarded([&] {
    return tensor_to_js(attn::normalize(matrix_from_js(args["scores"], "scores"),
                                        normalizer_from_js(args["method"], "method"), args["temperature"].as<float>()));
  });
}

// Soft key–value lookup (soft_lookup.hpp): every array of the result in one call.
val soft_lookup(const val& args) {
  return guarded([&] {
    attn::SoftLookupOptions o;
    o.similarity = enum_from_js(attn::kLookupSimilarityNames, args["similarity"], "similarity");
    o.temperature = args["temperature"].as<double>();
    o.normalizer = normalizer_from_js(args["normalizer"], "normalizer");
    const auto r = attn::soft_lookup(args["query"].as<std::string>(), vector_from_js<std::string>(args["keys"]),
                                     vector_from_js<std::string>(args["values"]), o,
                                     o.similarity == attn::LookupSimilarity::word_vectors ? &table() : nullptr);
    val out = object_to_js({{"similarities", typed_array_to_js(r.similarities)},
                            {"scores", typed_array_to_js(r.scores)},
                            {"weights", typed_array_to_js(r.weights)},
                            {"exact", typed_array_to_js(r.exact)},
                            {"mixture", typed_array_to_js(r.mixture)},
                            {"exactMixture", typed_array_to_js(r.exact_mixture)}});
    out.set("distinctValues", array_to_js(r.values));
    out.set("valueIndex", array_to_js(std::vector<double>(r.value_index.begin(), r.value_index.end())));
    val shared = val::array();
    for (const auto& list : r.shared_bigrams) shared.call<void>("push", array_to_js(list));
    out.set("sharedBigrams", shared);
    val oov = val::array();
    for (const bool flag : r.key_oov) oov.call<void>("push", flag);
    out.set("keyOov", oov);
    out.set("queryOov", r.query_oov);
    return out;
  });
}

val layer_cost_to_js(const attn::LayerCost& c) {
  return object_to_js({{"operations", val(c.operations)},
                       {"sequentialOperations", val(c.sequential)},
                       {"maxPathLength", val(c.max_path_length)}});
}

// Layer costs (lessons/layer_costs.hpp, layer_costs_lesson): the table for n, the crossings and the curves
// over curveN, from one core call.
val layer_costs(const val& args) {
  return guarded([&] {
    const attn::LayerCostsLesson lesson =
        attn::layer_costs_lesson(args["n"].as<double>(), args["dModel"].as<double>(), args["kernelSize"].as<double>(),
                                 vector_from_js<double>(args["curveN"]));
    const auto& c = lesson.table;
    const std::vector<double>& ns = lesson.curve_n;
    const auto& curves = lesson.curves;
    val out = val::object();
    out.set("convolution", layer_cost_to_js(c.convolution));
    out.set("recurrent", layer_cost_to_js(c.recurrent));
    out.set("selfAttention", layer_cost_to_js(c.self_attention));
    val crossings = val::object();
    crossings.set("selfAttentionRecurrent", lesson.crossings.self_attention_recurrent);
    crossings.set("selfAttentionConvolution", lesson.crossings.self_attention_convolution);
    out.set("crossings", crossings);
    // curves: (3, ns.size()) row-major, one row per layer type; each row a Float64Array copy.
    const auto row = [&](std::size_t r) { return typed_array_to_js(curves.data() + r * ns.size(), ns.size()); };
    val curve = val::object();
    curve.set("n", typed_array_to_js(ns));
    curve.set("convolution", row(0));
    curve.set("recurrent", row(1));
    curve.set("selfAttention", row(2));
    out.set("curves", curve);
    return out;
  });
}

// core.limits: every limit and name list the JS API checks against, from the C++ constants and name
// tables that the core functions enforce (documented in web/src/core/index.d.ts, CoreLimits).
val core_limits() {
  val out = val::object();
  out.set("positionalEncodings", names_to_js(attn::kPositionalKindNames));
  out.set("headKinds", names_to_js(attn::kHeadKindNames));
  val aliases = val::object();
  for (const auto& alias : attn::kHeadKindAliases) aliases.set(alias.name, alias.value);
  out.set("headKindAliases", aliases);
  val designed = val::array();
  for (const char* name : attn::kDesignedHeads) designed.call<void>("push", std::string(name));
  out.set("designedHeads", designed);
  out.set("projections", names_to_js(attn::kProjectionNames));
  out.set("scoreFunctions", names_to_js(attn::kScoreFunctionNames));
  out.set("normalizers", names_to_js(attn::kNormalizerNames));
  out.set("alibiSlopes", names_to_js(attn::kAlibiSlopesNames));
  out.set("lookupSimilarities", names_to_js(attn::kLookupSimilarityNames));
  set_numbers(out, {{"maxTokens", attn::kMaxTokens},
                    {"maxSeqLen", attn::kMaxSeqLen},
                    {"maxDModel", attn::kMaxDModel},
                    {"maxHeads", attn::kMaxDModel},
                    {"maxSeed", attn::kMaxSeed},
                    {"maxCells", attn::kMaxCells},
                    {"maxAdditiveHidden", attn::kMaxAdditiveHidden},
                    {"maxHeadOffset", attn::kMaxHeadOffset},
                    {"maxInputScale", attn::kMaxInputScale},
                    {"minExplorerTemperature", attn::kMinExplorerTemperature},
                    {"maxExplorerTemperature", attn::kMaxExplorerTemperature},
                    {"maxLabPositions", attn::kMaxLabPositions},
                    {"maxLabDModel", attn::kMaxLabDModel},
                    {"maxLabErrorPositions", attn::kMaxLabErrorPositions},
                    {"maxSimplexCoordinates", attn::kMaxSimplexCoordinates},
                    {"maxLookupRows", attn::kMaxLookupRows},
                    {"maxLookupText", attn::kMaxLookupText},
                    {"minLookupTemperature", attn::kMinLookupTemperature},
                    {"maxLookupTemperature", attn::kMaxLookupTemperature},
                    {"maxCostTokens", attn::kMaxCostTokens},
                    {"maxCostWidth", attn::kMaxCostWidth},
                    {"maxCostKernel", attn::kMaxCostKernel},
                    {"maxCostPoints", attn::kMaxCostPoints}});
  return out;
}

// Bytes of wasm heap in use by malloc: lets tests check that repeated calls do not leak.
double heap_in_use() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

val all_but_the_top() {
  return guarded([&] {
    const attn::AllButTheTop& fit = table().post_processing();
    return object_to_js({{"mean", typed_array_to_js(fit.mean)},
                         {"directions", tensor_to_js(fit.directions)},
                         {"spectrum", typed_array_to_js(fit.spectrum)}});
  });
}

EMSCRIPTEN_BINDINGS(attention_core) {
  bind_functions("loadEmbeddings", &load_embeddings, "tokenize", &tokenize, "embed", &embed, "allButTheTop",
                 &all_but_the_top, "sinusoidalEncoding", &sinusoidal_encoding, "attention", &attention,
                 "multiHeadAttention", &multi_head_attention, "explain", &explain, "compareContexts", &compare_contexts,
                 "explainCross", &explain_cross, "simplexObjective", &simplex_objective, "scoreCost", &score_cost,
                 "layerNorm", &layer_norm, "normalize", &normalize, "pca", &pca, "positionalEncodingLab",
                 &positional_encoding_lab, "softLookup", &soft_lookup, "layerCosts", &layer_costs, "heapInUse",
                 &heap_in_use, "coreLimits", &core_limits);
  emscripten::constant("maxTokens", attn::kMaxTokens);
  emscripten::constant("maxLookupRows", attn::kMaxLookupRows);
  emscripten::constant("maxLookupText", attn::kMaxLookupText);
}
