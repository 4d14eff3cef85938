#include "convert.hpp"

#include <iterator>

namespace bindings {

namespace {

// heads[index] = { kind, offset } by attn::kHeadKindNames (or an alias); an unknown kind throws.
attn::HeadSpec head_spec_from_js(const val& spec, std::size_t index) {
  const val offset = spec["offset"];
  return attn::head_spec_from_name(spec["kind"].as<std::string>(), offset.isUndefined() ? 0 : offset.as<int>(),
                                   "heads[" + std::to_string(index) + "].kind");
}

val head_to_js(const attn::HeadResult& head) {
  val out = attention_to_js(head.attention);
  out.set("queries", tensor_to_js(head.inputs.queries));
  out.set("keys", tensor_to_js(head.inputs.keys));
  out.set("values", tensor_to_js(head.inputs.values));
  out.set("entropy", tensor_to_js(head.entropy));
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
    val heads = val::array();
    for (const attn::RowDifference& d : r.heads) {
      val head = val::object();
      head.set("queries", d.queries);
      head.set("keys", d.keys);
      head.set("values", d.values);
      heads.call<void>("push", head);
    }
    word.set("heads", heads);
    repeated.call<void>("push", word);
  }
  out.set("repeated", repeated);
  val shuffle = val::object();
  shuffle.set("order", array_to_js(c.shuffle.order));
  shuffle.set("weights", tensor_to_js(c.shuffle.weights));
  shuffle.set("maxWeightDifference", c.shuffle.max_weight_difference);
  shuffle.set("headWeightDifferences", array_to_js(c.shuffle.head_weight_differences));
  shuffle.set("maxOutputDifference", c.shuffle.max_output_difference);
  out.set("shuffle", shuffle);
  out.set("embeddingNorms", tensor_to_js(c.embedding_norms));
  out.set("positionalNorms", tensor_to_js(c.positional_norms));
  return out;
}

}  // namespace

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

attn::AttentionOptions attention_options(const val& options) {
  attn::AttentionOptions o;
  o.causal = options["causal"].as<bool>();
  o.temperature = options["temperature"].as<float>();
  o.scale = options["scale"].as<bool>();
  if (!options["validLength"].isUndefined()) o.valid_length = options["validLength"].as<std::size_t>();
  if (!options["normalizer"].isUndefined()) o.normalizer = normalizer_from_js(options["normalizer"], "normalizer");
  return o;
}

std::string name_from_js(const val& name, const std::string& argument) {
  if (!name.isString()) throw std::invalid_argument(argument + " must be a string");
  return name.as<std::string>();
}

val token_to_js(const attn::Token& token) {
  val t = val::object();
  t.set("text", token.text);
  t.set("start", token.start);
  t.set("end", token.end);
  return t;
}

val attention_to_js(const attn::AttentionResult& r) {
  val out = val::object();
  out.set("dotProducts", tensor_to_js(r.dot_products));
  out.set("scores", tensor_to_js(r.scores));
  out.set("weights", tensor_to_js(r.weights));
  out.set("output", tensor_to_js(r.output));
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

attn::ExplainOptions explain_options(const val& options) {
  attn::ExplainOptions o;
  o.n_heads = options["numHeads"].as<std::size_t>();
  o.projection = enum_from_js(attn::kProjectionNames, options["projection"], "projection");
  o.seed = options["seed"].as<std::uint32_t>();
  o.positional = enum_from_js(attn::kPositionalKindNames, options["positionalEncoding"], "positionalEncoding");
  o.base = options["base"].as<double>();
  o.alibi_slopes = enum_from_js(attn::kAlibiSlopesNames, options["alibiSlopes"], "alibiSlopes");
  o.max_tokens = options["maxTokens"].as<std::size_t>();
  o.attention = attention_options(options);
  const val heads = options["heads"];
  for (std::size_t h = 0; h < heads["length"].as<std::size_t>(); ++h) o.heads.push_back(head_spec_from_js(heads[h], h));
  o.masked_positions = vector_from_js<std::size_t>(options["maskedPositions"]);
  o.encoder_block = options["encoderBlock"].as<bool>();
  o.project_2d = options["project2d"].as<bool>();
  o.embedding_scale = options["embeddingScale"].as<float>();
  o.positional_scale = options["positionalScale"].as<float>();
  o.position_checks = options["positionChecks"].as<bool>();
  o.shuffle_seed = options["shuffleSeed"].as<std::uint32_t>();
  o.additive_hidden = options["additiveHidden"].as<std::size_t>();
  // scoreFunction, when given, decides the scale and whether additiveHidden applies (as the JS wrapper
  // documents): 'dot' is Q Kᵀ, 'scaledDot' Q Kᵀ / √d_k, 'additive' vᵀ tanh(W_q q + W_k k).
  if (!options["scoreFunction"].isUndefined()) {
    const attn::ScoreFunction f = enum_from_js(attn::kScoreFunctionNames, options["scoreFunction"], "scoreFunction");
    o.attention.scale = f == attn::ScoreFunction::scaled_dot;
    if (f != attn::ScoreFunction::additive) o.additive_hidden = 0;
  }
  return o;
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
    head.set("kind", attn::name_of(attn::kHeadKindNames, trace.heads[h].kind));
    head.set("offset", trace.heads[h].offset);
    head.set("positionalByConstruction", attn::positional_by_construction(trace.heads[h].kind));
    // Whether the head hides each query's own key (the semantic head): the figures then say which rows
    // attend to themselves because nothing else is left (scaled_dot_product_attention's mask_diagonal).
    head.set("masksOwnPosition", attn::head_options(trace.heads[h], attn::AttentionOptions{}).mask_diagonal);
    const bool additive = !trace.additive.empty() && trace.heads[h].kind == attn::HeadKind::projected;
    head.set("additiveScorer", additive ? scorer_to_js(trace.additive[h]) : val::null());
  }
  out.set("block", block_to_js(trace.block));
  out.set("projection", pca_to_js(trace.projection));
  out.set("positionChecks", with_checks ? checks_to_js(trace.checks) : val::null());
  return out;
}

val scorer_to_js(const attn::AdditiveScorer& s) {
  val out = val::object();
  out.set("wQ", tensor_to_js(s.w_q));
  out.set("wK", tensor_to_js(s.w_k));
  out.set("v", tensor_to_js(s.v));
  return out;
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

val pca_to_js(const attn::Pca& p) {
  if (p.coordinates.size() == 0) return val::null();
  val out = val::object();
  out.set("mean", tensor_to_js(p.mean));
  out.set("components", tensor_to_js(p.components));
  out.set("variance", tensor_to_js(p.variance));
  out.set("coordinates", tensor_to_js(p.coordinates));
  return out;
}

}  // namespace bindings
