// embind glue: the only file that sees <emscripten/…>. It converts typed arrays ⇄ xtensor and turns
// C++ exceptions into returned error objects; web/src/core/ throws them as JS errors once the C++
// frames have unwound (a C++ throw that unwinds into JS leaks wasm stack, TOOLCHAIN.md).
//
// Every function returns { value } on success or { error: { name, message } } on failure, where
// name is "RangeError" for invalid arguments and "Error" otherwise.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "attn/attention.hpp"
#include "attn/attention_layer.hpp"
#include "attn/designed_heads.hpp"
#include "attn/embeddings.hpp"
#include "attn/explain.hpp"
#include "attn/layer_norm.hpp"
#include "attn/multi_head.hpp"
#include "attn/positional.hpp"
#include "attn/positional_lab.hpp"
#include "attn/positional_variants.hpp"
#include "attn/tokenizer.hpp"

using emscripten::val;

namespace {

std::unique_ptr<attn::EmbeddingTable> g_table;  // one table per module instance

// Prepared layers by id. The JS wrapper releases an id when its layer object is garbage-collected.
std::unordered_map<int, std::unique_ptr<attn::MultiHeadLayer>> g_layers;
int g_next_layer = 1;
std::vector<float> g_input, g_output, g_weights;  // reused across forward calls: no allocation per call
std::unique_ptr<attn::ModelWeights> g_model;  // explain()'s weights, rebuilt only when projection or seed change

val error_object(const char* name, const std::string& message) {
  val error = val::object();
  error.set("name", name);
  error.set("message", message);
  val result = val::object();
  result.set("error", error);
  return result;
}

template <typename F>
val guarded(F&& body) {
  try {
    val result = val::object();
    result.set("value", body());
    return result;
  } catch (const std::out_of_range& e) {
    return error_object("RangeError", e.what());
  } catch (const std::invalid_argument& e) {
    return error_object("RangeError", e.what());
  } catch (const std::bad_alloc&) {
    return error_object("RangeError", "not enough memory for this request");
  } catch (const std::exception& e) {
    return error_object("Error", e.what());
  }
}

const attn::EmbeddingTable& table() {
  if (!g_table) throw std::logic_error("no embeddings loaded: call loadEmbeddings first");
  return *g_table;
}

// Copies a JS { data: Float32Array, shape: [rows, cols] } (already type-checked in JS) into xtensor.
xt::xtensor<float, 2> matrix_from_js(const val& tensor, const std::string& name) {
  const std::size_t rows = tensor["shape"][0].as<std::size_t>(), cols = tensor["shape"][1].as<std::size_t>();
  const std::size_t length = tensor["data"]["length"].as<std::size_t>();
  if (cols != 0 && rows > length / cols) {
    throw std::invalid_argument(name + ".data has " + std::to_string(length) + " numbers, shape needs " +
                                std::to_string(rows) + " × " + std::to_string(cols));
  }
  if (rows * cols != length) {
    throw std::invalid_argument(name + ".data has " + std::to_string(length) + " numbers, shape needs " +
                                std::to_string(rows * cols));
  }
  xt::xtensor<float, 2> m = xt::empty<float>({rows, cols});
  val(emscripten::typed_memory_view(m.size(), m.data())).call<void>("set", tensor["data"]);
  return m;
}

// A copy (never a view into wasm memory, which is invalidated when memory grows).
template <std::size_t N>
val tensor_to_js(const xt::xtensor<float, N>& t) {
  val shape = val::array();
  for (std::size_t d = 0; d < N; ++d) shape.call<void>("push", t.shape(d));
  val result = val::object();
  result.set("data", val::global("Float32Array").new_(emscripten::typed_memory_view(t.size(), t.data())));
  result.set("shape", shape);
  return result;
}

attn::AttentionOptions attention_options(const val& options) {
  attn::AttentionOptions o;
  o.causal = options["causal"].as<bool>();
  o.temperature = options["temperature"].as<float>();
  o.scale = options["scale"].as<bool>();
  if (!options["validLength"].isUndefined()) o.valid_length = options["validLength"].as<std::size_t>();
  return o;
}

template <typename T>
std::vector<T> vector_from_js(const val& array) {
  std::vector<T> out;
  const std::size_t length = array["length"].as<std::size_t>();
  for (std::size_t i = 0; i < length; ++i) out.push_back(array[i].as<T>());
  return out;
}

// Head kinds as JS names them; the JS wrapper has already checked the names.
attn::HeadSpec head_spec_from_js(const val& spec) {
  const std::string kind = spec["kind"].as<std::string>();
  attn::HeadSpec out;
  if (kind == "semantic") out.kind = attn::HeadKind::semantic;
  else if (kind == "offset") out.kind = attn::HeadKind::offset;
  else if (kind == "first") out.kind = attn::HeadKind::first_token;
  else if (kind == "uniform") out.kind = attn::HeadKind::uniform;
  out.offset = spec["offset"].as<int>();
  return out;
}

// Positional-encoding names as JS spells them (checked there).
attn::PositionalKind positional_kind_from_js(const std::string& name) {
  if (name == "none") return attn::PositionalKind::none;
  if (name == "learned") return attn::PositionalKind::learned;
  if (name == "rope") return attn::PositionalKind::rope;
  if (name == "alibi") return attn::PositionalKind::alibi;
  if (name == "t5") return attn::PositionalKind::t5;
  return attn::PositionalKind::sinusoidal;
}

const char* head_kind_name(attn::HeadKind kind) {
  switch (kind) {
    case attn::HeadKind::semantic: return "semantic";
    case attn::HeadKind::offset: return "offset";
    case attn::HeadKind::first_token: return "first";
    case attn::HeadKind::uniform: return "uniform";
    default: return "projected";
  }
}

val token_to_js(const attn::Token& token) {
  val t = val::object();
  t.set("text", token.text);
  t.set("start", token.start);
  t.set("end", token.end);
  return t;
}

val load_embeddings(const val& bytes) {
  return guarded([&] {
    std::vector<std::uint8_t> buffer(bytes["length"].as<std::size_t>());
    val(emscripten::typed_memory_view(buffer.size(), buffer.data())).call<void>("set", bytes);
    g_table = std::make_unique<attn::EmbeddingTable>(attn::EmbeddingTable::from_bytes(buffer.data(), buffer.size()));
    val info = val::object();
    info.set("vocabSize", g_table->vocab_size());
    info.set("dModel", g_table->dim());
    return info;
  });
}

val tokenize(const std::string& text) {
  return guarded([&] {
    val tokens = val::array();
    for (const auto& token : attn::tokenize(text)) {
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
    return tensor_to_js(table().embed(attn::tokenize(text), ids));
  });
}

val sinusoidal_encoding(double seq_len, double d_model, double base) {
  return guarded([&] {
    return tensor_to_js(attn::sinusoidal_encoding(static_cast<std::size_t>(seq_len), static_cast<std::size_t>(d_model), base));
  });
}

val attention_to_js(const attn::AttentionResult& r) {
  val out = val::object();
  out.set("dotProducts", tensor_to_js(r.dot_products));
  out.set("scores", tensor_to_js(r.scores));
  out.set("weights", tensor_to_js(r.weights));
  out.set("output", tensor_to_js(r.output));
  return out;
}

val attention(const val& args) {
  return guarded([&] {
    return attention_to_js(attn::scaled_dot_product_attention(matrix_from_js(args["queries"], "queries"),
                                                              matrix_from_js(args["keys"], "keys"),
                                                              matrix_from_js(args["values"], "values"),
                                                              attention_options(args)));
  });
}

val head_to_js(const attn::HeadResult& head) {
  val out = attention_to_js(head.attention);
  out.set("queries", tensor_to_js(head.inputs.queries));
  out.set("keys", tensor_to_js(head.inputs.keys));
  out.set("values", tensor_to_js(head.inputs.values));
  out.set("entropy", tensor_to_js(head.entropy));
  return out;
}

void set_attention_steps(val& out, const attn::MultiHeadResult& r) {
  val heads = val::array();
  for (const auto& head : r.heads) heads.call<void>("push", head_to_js(head));
  out.set("heads", heads);
  out.set("scores", tensor_to_js(r.scores));
  out.set("weights", tensor_to_js(r.weights));
  out.set("concat", tensor_to_js(r.concat));
  out.set("output", tensor_to_js(r.output));
}

val multi_head_attention(const val& args) {
  return guarded([&] {
    const auto input = matrix_from_js(args["input"], "input");
    const attn::Projections p{matrix_from_js(args["wQ"], "wQ"), matrix_from_js(args["wK"], "wK"),
                              matrix_from_js(args["wV"], "wV"), matrix_from_js(args["wO"], "wO")};
    const auto r = attn::multi_head_attention(input, args["numHeads"].as<std::size_t>(), p, attention_options(args),
                                              positional_kind_from_js(args["positionalEncoding"].as<std::string>()),
                                              args["seed"].as<std::uint32_t>(), args["base"].as<double>());
    val out = val::object();
    set_attention_steps(out, r);
    return out;
  });
}

attn::ExplainOptions explain_options(const val& options) {
  attn::ExplainOptions o;
  o.n_heads = options["numHeads"].as<std::size_t>();
  o.projection = options["projection"].as<std::string>() == "random" ? attn::Projection::random : attn::Projection::identity;
  o.seed = options["seed"].as<std::uint32_t>();
  o.positional = positional_kind_from_js(options["positionalEncoding"].as<std::string>());
  o.base = options["base"].as<double>();
  o.max_tokens = options["maxTokens"].as<std::size_t>();
  o.attention = attention_options(options);
  const val heads = options["heads"];
  for (std::size_t h = 0; h < heads["length"].as<std::size_t>(); ++h) o.heads.push_back(head_spec_from_js(heads[h]));
  o.masked_positions = vector_from_js<std::size_t>(options["maskedPositions"]);
  o.encoder_block = options["encoderBlock"].as<bool>();
  o.project_2d = options["project2d"].as<bool>();
  o.embedding_scale = options["embeddingScale"].as<float>();
  o.positional_scale = options["positionalScale"].as<float>();
  o.position_checks = options["positionChecks"].as<bool>();
  o.shuffle_seed = options["shuffleSeed"].as<std::uint32_t>();
  return o;
}

val pca_to_js(const attn::Pca& p) {
  if (p.coordinates.size() == 0) return val::null();
  val out = val::object();
  out.set("mean", tensor_to_js(p.mean));
  out.set("components", tensor_to_js(p.components));
  out.set("variance", tensor_to_js(p.variance));
  out.set("coordinates", tensor_to_js(p.coordinates));
  return out;
}

val block_to_js(const attn::EncoderBlockResult& b) {
  if (b.output.size() == 0 && b.residual1.size() == 0) return val::null();
  val out = val::object();
  out.set("residual1", tensor_to_js(b.residual1));
  out.set("norm1", tensor_to_js(b.norm1));
  out.set("hidden", tensor_to_js(b.hidden));
  out.set("ffnOutput", tensor_to_js(b.ffn_output));
  out.set("residual2", tensor_to_js(b.residual2));
  out.set("output", tensor_to_js(b.output));
  return out;
}

template <typename T>
val array_to_js(const std::vector<T>& items) {
  val out = val::array();
  for (const T& item : items) out.call<void>("push", item);
  return out;
}

val score_terms_to_js(const attn::ScoreTerms& t) {
  if (t.content_content.size() == 0 && t.content_position.size() == 0) return val::null();
  val out = val::object();
  out.set("contentContent", tensor_to_js(t.content_content));
  out.set("contentPosition", tensor_to_js(t.content_position));
  out.set("positionContent", tensor_to_js(t.position_content));
  out.set("positionPosition", tensor_to_js(t.position_position));
  return out;
}

val checks_to_js(const attn::PositionChecks& c) {
  val out = val::object();
  val terms = val::array();
  for (const auto& t : c.score_terms) terms.call<void>("push", score_terms_to_js(t));
  out.set("scoreTerms", terms);
  val repeated = val::array();
  for (const auto& r : c.repeated) {
    val word = val::object();
    word.set("key", r.key);
    word.set("first", r.first);
    word.set("second", r.second);
    val difference = val::object();
    difference.set("queries", r.queries);
    difference.set("keys", r.keys);
    difference.set("values", r.values);
    word.set("maxDifference", difference);
    repeated.call<void>("push", word);
  }
  out.set("repeated", repeated);
  val shuffle = val::object();
  shuffle.set("order", array_to_js(c.shuffle.order));
  shuffle.set("weights", tensor_to_js(c.shuffle.weights));
  shuffle.set("maxWeightDifference", c.shuffle.max_weight_difference);
  shuffle.set("maxOutputDifference", c.shuffle.max_output_difference);
  out.set("shuffle", shuffle);
  out.set("embeddingNorms", tensor_to_js(c.embedding_norms));
  out.set("positionalNorms", tensor_to_js(c.positional_norms));
  return out;
}

val trace_to_js(const attn::Trace& trace, bool with_checks) {
  val tokens = val::array();
  for (const auto& t : trace.tokens) {
    val token = token_to_js(t.token);
    token.set("id", static_cast<double>(t.id));
    token.set("oov", t.oov);
    token.set("masked", t.masked);
    tokens.call<void>("push", token);
  }
  val out = val::object();
  out.set("tokens", tokens);
  out.set("totalTokens", trace.total_tokens);
  out.set("truncated", trace.truncated);
  out.set("validLength", trace.valid_length);
  out.set("embeddings", tensor_to_js(trace.embeddings));
  out.set("positional", tensor_to_js(trace.positional));
  out.set("input", tensor_to_js(trace.input));
  set_attention_steps(out, trace.attention);
  for (std::size_t h = 0; h < trace.heads.size(); ++h) {
    val head = out["heads"][h];
    head.set("kind", head_kind_name(trace.heads[h].kind));
    head.set("offset", trace.heads[h].offset);
  }
  out.set("block", block_to_js(trace.block));
  out.set("projection", pca_to_js(trace.projection));
  out.set("positionChecks", with_checks ? checks_to_js(trace.checks) : val::null());
  return out;
}

val explain(const std::string& text, const val& options) {
  return guarded([&] {
    const attn::ExplainOptions o = explain_options(options);
    if (!g_model || g_model->d_model != table().dim() || g_model->projection != o.projection || g_model->seed != o.seed) {
      g_model = std::make_unique<attn::ModelWeights>(attn::model_weights(table().dim(), o.projection, o.seed));
    }
    return trace_to_js(attn::explain(text, table(), o, *g_model), o.position_checks);
  });
}

val compare_contexts(const std::string& first, const std::string& second, const val& options) {
  return guarded([&] {
    const attn::ExplainOptions o = explain_options(options);
    const auto c = attn::compare_contexts(first, second, table(), o);
    val out = val::object();
    out.set("first", trace_to_js(c.first, o.position_checks));
    out.set("second", trace_to_js(c.second, o.position_checks));
    out.set("projection", pca_to_js(c.projection));
    return out;
  });
}

val rotation_to_js(const attn::RotationCheck& r) {
  val out = val::object();
  out.set("angles", tensor_to_js(r.angles));
  out.set("cosines", tensor_to_js(r.cosines));
  out.set("sines", tensor_to_js(r.sines));
  out.set("from", tensor_to_js(r.from));
  out.set("rotated", tensor_to_js(r.rotated));
  out.set("target", tensor_to_js(r.target));
  out.set("maxError", r.max_error);
  return out;
}

val positional_encoding_lab(const val& args) {
  return guarded([&] {
    const std::size_t n = args["positions"].as<std::size_t>(), d = args["dModel"].as<std::size_t>();
    const std::size_t position = args["position"].as<std::size_t>(), error_positions = args["errorPositions"].as<std::size_t>();
    const double base = args["base"].as<double>();
    const long delta = args["delta"].as<long>();
    const auto p = attn::sinusoidal_encoding(n, d, base);
    const auto w = attn::wavelengths(d, base);
    val out = val::object();
    out.set("encoding", tensor_to_js(p));
    out.set("wavelengths", array_to_js(std::vector<double>(w.begin(), w.end())));
    out.set("bits", tensor_to_js(attn::binary_positions(n)));
    out.set("similarity", tensor_to_js(attn::position_similarity(p)));
    out.set("cosineSimilarity", tensor_to_js(attn::position_similarity(p, true)));
    val rotation = val::object();
    rotation.set("float64Angles", rotation_to_js(attn::rotation_check(position, delta, d, base, attn::AnglePrecision::float64)));
    rotation.set("float32Angles", rotation_to_js(attn::rotation_check(position, delta, d, base, attn::AnglePrecision::float32)));
    out.set("rotation", rotation);
    val errors = val::object();
    errors.set("float64Angles", tensor_to_js(attn::rotation_error_by_position(error_positions, delta, d, base, attn::AnglePrecision::float64)));
    errors.set("float32Angles", tensor_to_js(attn::rotation_error_by_position(error_positions, delta, d, base, attn::AnglePrecision::float32)));
    out.set("rotationErrorByPosition", errors);
    return out;
  });
}

val layer_norm(const val& args) {
  return guarded([&] {
    return tensor_to_js(attn::layer_norm(matrix_from_js(args["x"], "x"), args["epsilon"].as<float>()));
  });
}

val prepare_layer(const val& args) {
  return guarded([&] {
    const attn::Projections p{matrix_from_js(args["wQ"], "wQ"), matrix_from_js(args["wK"], "wK"),
                              matrix_from_js(args["wV"], "wV"), matrix_from_js(args["wO"], "wO")};
    auto layer = std::make_unique<attn::MultiHeadLayer>(args["numHeads"].as<std::size_t>(), p);
    g_layers.emplace(g_next_layer, std::move(layer));
    return val(g_next_layer++);
  });
}

// One copy in (input), one copy out (output, and the weights when asked for).
val forward_layer(int id, const val& input, double seq_len, const val& options, bool return_weights) {
  return guarded([&] {
    const auto found = g_layers.find(id);
    if (found == g_layers.end()) throw std::invalid_argument("multiHeadLayer: this layer was released");
    attn::MultiHeadLayer& layer = *found->second;
    const std::size_t n = static_cast<std::size_t>(seq_len), d = layer.d_model();
    g_input.resize(n * d);
    val(emscripten::typed_memory_view(g_input.size(), g_input.data())).call<void>("set", input);
    g_output.resize(n * d);
    if (return_weights) g_weights.resize(layer.n_heads() * n * n);
    layer.forward(g_input.data(), n, g_output.data(), attention_options(options), return_weights ? g_weights.data() : nullptr);
    val out = val::object();
    out.set("output", val::global("Float32Array").new_(emscripten::typed_memory_view(g_output.size(), g_output.data())));
    if (return_weights) {
      out.set("weights", val::global("Float32Array").new_(emscripten::typed_memory_view(g_weights.size(), g_weights.data())));
    }
    return out;
  });
}

void release_layer(int id) { g_layers.erase(id); }

// Bytes of wasm heap in use by malloc: lets tests check that repeated calls do not leak.
double heap_in_use() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(attention_core) {
  emscripten::function("loadEmbeddings", &load_embeddings);
  emscripten::function("tokenize", &tokenize);
  emscripten::function("embed", &embed);
  emscripten::function("sinusoidalEncoding", &sinusoidal_encoding);
  emscripten::function("attention", &attention);
  emscripten::function("multiHeadAttention", &multi_head_attention);
  emscripten::function("explain", &explain);
  emscripten::function("compareContexts", &compare_contexts);
  emscripten::function("layerNorm", &layer_norm);
  emscripten::function("positionalEncodingLab", &positional_encoding_lab);
  emscripten::function("prepareLayer", &prepare_layer);
  emscripten::function("forwardLayer", &forward_layer);
  emscripten::function("releaseLayer", &release_layer);
  emscripten::function("heapInUse", &heap_in_use);
  emscripten::constant("maxTokens", attn::kMaxTokens);
}
