#include "convert.hpp"

#include <iterator>
#include <stdexcept>
#include <string>

namespace bindings {

namespace {

template <typename T>
void set_fields(val& object, std::initializer_list<std::pair<const char*, T>> fields) {
  for (const auto& [name, value] : fields) object.set(name, value);
}

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
  return object_to_js({{"residual1", tensor_to_js(b.residual1)},
                       {"norm1", tensor_to_js(b.norm1)},
                       {"hidden", tensor_to_js(b.hidden)},
                       {"ffnOutput", tensor_to_js(b.ffn_output)},
                       {"residual2", tensor_to_js(b.residual2)},
                       {"output", tensor_to_js(b.output)}});
}

val score_terms_to_js(const attn::ScoreTerms& t) {
  if (t.content_content.size() == 0 && t.content_position.size() == 0) return val::null();
  return object_to_js({{"contentContent", tensor_to_js(t.content_content)},
                       {"contentPosition", tensor_to_js(t.content_position)},
                       {"positionContent", tensor_to_js(t.position_content)},
                       {"positionPosition", tensor_to_js(t.position_position)}});
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

val object_to_js(std::initializer_list<std::pair<const char*, val>> fields) {
  val out = val::object();
  set_fields(out, fields);
  return out;
}

void set_numbers(val& object, std::initializer_list<std::pair<const char*, double>> fields) {
  set_fields(object, fields);
}

val tensor_to_js(const float* data, const std::vector<std::size_t>& shape) {
  return object_to_js(
      {{"data", typed_array_to_js(data, attn::train::tensor_size(shape))}, {"shape", array_to_js(shape)}});
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
  copy_from_js(tensor["data"], m.data(), m.size());
  return m;
}

void matrix_into(const val& tensor, const std::string& where, const std::string& name, std::size_t rows,
                 std::size_t cols, float* to) {
  if (tensor.isUndefined() || tensor.isNull()) throw std::invalid_argument(where + ": " + name + " is missing");
  const val shape = tensor["shape"];
  if (shape["length"].as<std::size_t>() != 2 || shape[0].as<std::size_t>() != rows ||
      shape[1].as<std::size_t>() != cols || tensor["data"]["length"].as<std::size_t>() != rows * cols) {
    throw std::invalid_argument(where + ": " + name + " must be [" + std::to_string(rows) + ", " +
                                std::to_string(cols) + "] with " + std::to_string(rows * cols) + " numbers");
  }
  copy_from_js(tensor["data"], to, rows * cols);
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
  return object_to_js({{"text", val(token.text)}, {"start", val(token.start)}, {"end", val(token.end)}});
}

val attention_to_js(const attn::AttentionResult& r) {
  return object_to_js({{"dotProducts", tensor_to_js(r.dot_products)},
                       {"scores", tensor_to_js(r.scores)},
                       {"weights", tensor_to_js(r.weights)},
                       {"output", tensor_to_js(r.output)}});
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
  // The one place the score function's rule lives: it decides the scaling and whether additiveHidden applies
  // ('dot' is Q Kᵀ, 'scaledDot' Q Kᵀ / √d_k, 'additive' vᵀ tanh(W_q q + W_k k), Bahdanau et al. 2014); without
  // one, `scale` chooses between 'scaledDot' and 'dot'. The JS wrapper reads the outcome back (score_options_to_js).
  const attn::ScoreFunction f =
      options["scoreFunction"].isUndefined()
          ? (o.attention.scale ? attn::ScoreFunction::scaled_dot : attn::ScoreFunction::dot)
          : enum_from_js(attn::kScoreFunctionNames, options["scoreFunction"], "scoreFunction");
  o.attention.scale = f == attn::ScoreFunction::scaled_dot;
  if (f != attn::ScoreFunction::additive) o.additive_hidden = 0;
  return o;
}

val score_options_to_js(const attn::ExplainOptions& o) {
  const attn::ScoreFunction f = o.additive_hidden > 0 ? attn::ScoreFunction::additive
                                : o.attention.scale   ? attn::ScoreFunction::scaled_dot
                                                      : attn::ScoreFunction::dot;
  return object_to_js({{"scoreFunction", val(std::string(attn::name_of(attn::kScoreFunctionNames, f)))},
                       {"scale", val(o.attention.scale)},
                       {"additiveHidden", val(o.additive_hidden)}});
}

attn::PositionalLabOptions positional_lab_options(const val& args) {
  attn::PositionalLabOptions o;
  o.positions = args["positions"].as<std::size_t>();
  o.d_model = args["dModel"].as<std::size_t>();
  o.position = args["position"].as<std::size_t>();
  o.error_positions = args["errorPositions"].as<std::size_t>();
  o.base = args["base"].as<double>();
  o.delta = args["delta"].as<long>();
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
  return object_to_js({{"wQ", tensor_to_js(s.w_q)}, {"wK", tensor_to_js(s.w_k)}, {"v", tensor_to_js(s.v)}});
}

val rotation_to_js(const attn::RotationCheck& r) {
  return object_to_js({{"angles", tensor_to_js(r.angles)},
                       {"cosines", tensor_to_js(r.cosines)},
                       {"sines", tensor_to_js(r.sines)},
                       {"from", tensor_to_js(r.from)},
                       {"rotated", tensor_to_js(r.rotated)},
                       {"target", tensor_to_js(r.target)},
                       {"maxError", val(r.max_error)}});
}

val pca_to_js(const attn::Pca& p) {
  if (p.coordinates.size() == 0) return val::null();
  return object_to_js({{"mean", tensor_to_js(p.mean)},
                       {"components", tensor_to_js(p.components)},
                       {"variance", tensor_to_js(p.variance)},
                       {"coordinates", tensor_to_js(p.coordinates)}});
}

attn::train::LanguageTrainerOptions language_model_options(const val& recipe) {
  attn::train::LanguageTrainerOptions o;
  o.objective = enum_from_js(attn::train::kObjectiveNames, recipe["objective"], "recipe.objective");
  o.n_layers = recipe["numLayers"].as<std::size_t>();
  o.n_heads = recipe["numHeads"].as<std::size_t>();
  o.d_ff = recipe["dFF"].as<std::size_t>();
  o.seq_len = recipe["seqLen"].as<std::size_t>();
  o.batch_size = recipe["batchSize"].as<std::size_t>();
  o.output_words = recipe["outputWords"].as<std::size_t>();
  o.tied_output = recipe["tiedOutput"].as<bool>();
  o.output_head = !recipe["outputHead"].isUndefined() && recipe["outputHead"].as<bool>();  // files before it: none
  o.layer_norm = recipe["layerNorm"].as<bool>();
  return o;
}

val parameters_to_js(const attn::train::ModelConfig& c, const std::vector<float>& flat) {
  val out = val::object();
  for (const attn::train::ParameterSpec& s : attn::train::parameter_specs(c)) {
    out.set(s.name, tensor_to_js(flat.data() + s.offset, s.shape));
  }
  return out;
}

std::vector<float> parameters_from_js(const attn::train::ModelConfig& c, const val& tensors,
                                      const std::function<std::string(const attn::train::ParameterSpec&)>& mismatch) {
  std::vector<float> flat(attn::train::parameter_count(c));
  for (const attn::train::ParameterSpec& s : attn::train::parameter_specs(c)) {
    const val data = tensors[s.name];
    if (data.isUndefined() || data.isNull() || data["length"].as<std::size_t>() != s.size) {
      throw std::invalid_argument("tensor '" + s.name + "' is missing or " + mismatch(s));
    }
    copy_from_js(data, flat.data() + s.offset, s.size);
  }
  return flat;
}

val batch_to_js(const attn::train::Batch& b) {
  return object_to_js({{"tokens", typed_array_to_js(b.tokens)},
                       {"targets", typed_array_to_js(b.targets)},
                       {"scored", typed_array_to_js(b.scored)},
                       {"shape", array_to_js(std::vector<std::size_t>{b.batch_size, b.seq_len})}});
}

attn::train::Batch batch_from_js(const val& batch) {
  attn::train::Batch b;
  b.batch_size = batch["shape"][0].as<std::size_t>();
  b.seq_len = batch["shape"][1].as<std::size_t>();
  b.tokens = vector_from_js<std::int32_t>(batch["tokens"]);
  b.targets = vector_from_js<std::int32_t>(batch["targets"]);
  b.scored = vector_from_js<std::uint8_t>(batch["scored"]);
  return b;
}

val step_to_js(std::size_t step, double loss) { return object_to_js({{"step", val(step)}, {"loss", val(loss)}}); }

}  // namespace bindings
