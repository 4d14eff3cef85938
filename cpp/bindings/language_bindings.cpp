// embind glue for the trained language models (cpp/include/attn/train/language_model.hpp):
// core.languageModel() in web/src/core/language-model.js, which reads the safetensors file (JSON.parse)
// and hands over the recipe's sizes, the vocabulary and every tensor by name.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "attn/train/language_model.hpp"
#include "convert.hpp"
#include "guarded.hpp"

using emscripten::val;
using namespace bindings;
namespace train = attn::train;

namespace {

std::unordered_map<int, std::unique_ptr<train::LanguageModel>> g_models;
int g_next_model = 1;

train::LanguageModel& model_by_id(int id) {
  const auto found = g_models.find(id);
  if (found == g_models.end()) throw std::invalid_argument("languageModel: this model was released");
  return *found->second;
}

val floats(const float* data, std::size_t size) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(size, data));
}

// { objective, numLayers, numHeads, dFF, seqLen, outputWords, tiedOutput, layerNorm } (the recipe's sizes)
train::LanguageTrainerOptions options_from_js(const val& r) {
  train::LanguageTrainerOptions o;
  o.objective = enum_from_js(train::kObjectiveNames, r["objective"], "recipe.objective");
  o.n_layers = r["numLayers"].as<std::size_t>();
  o.n_heads = r["numHeads"].as<std::size_t>();
  o.d_ff = r["dFF"].as<std::size_t>();
  o.seq_len = r["seqLen"].as<std::size_t>();
  o.output_words = r["outputWords"].as<std::size_t>();
  o.tied_output = r["tiedOutput"].as<bool>();
  o.layer_norm = r["layerNorm"].as<bool>();
  return o;
}

// spec: { recipe, words: string[], tensors: { [name]: Float32Array } }; every tensor of the recipe's model
// must be there with its size (std::invalid_argument naming the first that is not).
val language_model_create(val spec) {
  return guarded([&] {
    const attn::EmbeddingTable& table = loaded_table();
    const train::LanguageTrainerOptions options = options_from_js(spec["recipe"]);
    const train::ModelConfig config = train::language_model_config(options, table);
    std::vector<float> parameters(train::parameter_count(config));
    for (const train::ParameterSpec& s : train::parameter_specs(config)) {
      const val data = spec["tensors"][s.name];
      if (data.isUndefined() || data["length"].as<std::size_t>() != s.size) {
        throw std::invalid_argument("tensor '" + s.name + "' is missing or has another size than the recipe's model");
      }
      val(emscripten::typed_memory_view(s.size, parameters.data() + s.offset)).call<void>("set", data);
    }
    const int id = g_next_model++;
    g_models[id] = std::make_unique<train::LanguageModel>(config, options.objective, vector_from_js<std::string>(spec["words"]),
                                                          std::move(parameters), table);
    return val(id);
  });
}

val language_model_release(int id) {
  g_models.erase(id);
  return val::undefined();
}

val tokens_to_js(const std::vector<attn::Token>& tokens, const std::vector<std::int32_t>& inputs) {
  const auto unk = train::unk_input(loaded_table());
  val out = val::array();
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    val token = token_to_js(tokens[t]);
    token.set("oov", inputs[t] == unk);
    token.set("mask", tokens[t].key == "[MASK]");
    out.call<void>("push", token);
  }
  return out;
}

// { tokens, attention (L·H·T·T), hidden (L·T·d), positions (P), topIds / topP (P·k) } as flat typed arrays; the
// JS side shapes them. positions: a name of kOutputPositionNames, or an array of integers (checked in JS).
val language_model_run(int id, const std::string& text, int k, const val& positions) {
  return guarded([&] {
    train::LanguageModel& m = model_by_id(id);
    train::LanguageModel::Positions at = train::OutputPositions::all;
    if (positions.isString()) {
      at = enum_from_js(train::kOutputPositionNames, positions, "positions");
    } else {
      std::vector<std::int64_t> listed;
      for (const double p : vector_from_js<double>(positions)) listed.push_back(static_cast<std::int64_t>(p));
      at = std::move(listed);
    }
    const train::LanguageRun r = m.run(text, static_cast<std::size_t>(k), at);
    const std::vector<std::int32_t> computed(r.positions.begin(), r.positions.end());
    std::vector<std::int32_t> ids;
    std::vector<float> p;
    for (const auto& top : r.top) {
      for (const train::WordProbability& w : top) ids.push_back(w.id), p.push_back(w.p);
    }
    val out = val::object();
    out.set("tokens", tokens_to_js(r.tokens, r.inputs));
    out.set("attention", floats(r.attention.data(), r.attention.size()));
    out.set("hidden", floats(r.hidden.data(), r.hidden.size()));
    out.set("positions", val::global("Int32Array").new_(emscripten::typed_memory_view(computed.size(), computed.data())));
    out.set("topIds", val::global("Int32Array").new_(emscripten::typed_memory_view(ids.size(), ids.data())));
    out.set("topP", floats(p.data(), p.size()));
    return out;
  });
}

val language_model_score(int id, const std::string& text) {
  return guarded([&] {
    const train::LanguageModel::Score s = model_by_id(id).score(text);
    val out = val::object();
    std::vector<std::int32_t> inputs = train::input_ids_of(s.tokens, loaded_table());
    out.set("tokens", tokens_to_js(s.tokens, inputs));
    out.set("logProb", floats(s.log_prob.data(), s.log_prob.size()));
    out.set("perplexity", s.perplexity);
    return out;
  });
}

// ---- core.createLanguageTrainer(): training a language model on given text (web/src/core/language-trainer.js) ----

std::unordered_map<int, std::unique_ptr<train::LanguageTrainer>> g_trainers;
int g_next_trainer = 1;

train::LanguageTrainer& trainer_by_id(int id) {
  const auto found = g_trainers.find(id);
  if (found == g_trainers.end()) throw std::invalid_argument("languageTrainer: this trainer was released");
  return *found->second;
}

val language_trainer_defaults() {
  const train::LanguageTrainerOptions o;
  val out = val::object();
  out.set("objective", std::string(attn::name_of(train::kObjectiveNames, o.objective)));
  out.set("numLayers", o.n_layers);
  out.set("numHeads", o.n_heads);
  out.set("dFF", o.d_ff);
  out.set("seqLen", o.seq_len);
  out.set("batchSize", o.batch_size);
  out.set("outputWords", o.output_words);
  out.set("tiedOutput", o.tied_output);
  out.set("layerNorm", o.layer_norm);
  out.set("learningRate", o.optimizer.learning_rate);
  out.set("weightDecay", o.optimizer.weight_decay);
  out.set("warmupSteps", o.schedule.warmup_steps);
  out.set("totalSteps", o.schedule.total_steps);
  out.set("seed", static_cast<double>(o.seed));
  return out;
}

// The options language-trainer.js resolved (defaults filled in, types checked), and the two texts.
val language_trainer_create(val o, const std::string& text, const std::string& held_out) {
  return guarded([&] {
    train::LanguageTrainerOptions options = options_from_js(o);
    options.batch_size = o["batchSize"].as<std::size_t>();
    options.shards = 1;  // one thread in wasm: slices would only add work
    options.optimizer.learning_rate = o["learningRate"].as<float>();
    options.optimizer.weight_decay = o["weightDecay"].as<float>();
    options.schedule.warmup_steps = o["warmupSteps"].as<std::size_t>();
    options.schedule.total_steps = o["totalSteps"].as<std::size_t>();
    options.seed = static_cast<std::uint64_t>(o["seed"].as<double>());
    auto trainer = std::make_unique<train::LanguageTrainer>(options, loaded_table(), text, held_out);
    const int id = g_next_trainer++;
    val info = val::object();
    info.set("id", id);
    info.set("trainTokens", trainer->train_stream().inputs.size());
    info.set("heldOutTokens", trainer->held_out_stream().inputs.size());
    info.set("words", array_to_js(trainer->vocabulary().words()));
    g_trainers.emplace(id, std::move(trainer));
    return info;
  });
}

val language_trainer_release(int id) {
  g_trainers.erase(id);
  return val::undefined();
}

val language_trainer_step(int id, double n) {
  return guarded([&] {
    train::LanguageTrainer& t = trainer_by_id(id);
    const double loss = t.step(static_cast<std::size_t>(n));
    val out = val::object();
    out.set("step", t.steps());
    out.set("loss", loss);
    return out;
  });
}

val language_trainer_evaluate(int id, double max_tokens) {
  return guarded([&] {
    train::LanguageTrainer& t = trainer_by_id(id);
    const train::LanguageEvaluation e = t.evaluate(static_cast<std::size_t>(max_tokens));
    val out = val::object();
    out.set("step", t.steps());
    out.set("loss", e.loss);
    out.set("perplexity", e.perplexity);
    out.set("top1", e.top1);
    out.set("top5", e.top5);
    out.set("tokens", e.tokens);
    return out;
  });
}

// Every parameter as { name: { data, shape } }, in parameter_specs order (names as in the C++).
val parameters_to_js(const train::ModelConfig& c, const std::vector<float>& flat) {
  val out = val::object();
  for (const train::ParameterSpec& s : train::parameter_specs(c)) {
    val tensor = val::object();
    tensor.set("data", floats(flat.data() + s.offset, s.size));
    tensor.set("shape", array_to_js(s.shape));
    out.set(s.name, tensor);
  }
  return out;
}

val language_trainer_parameters(int id) {
  return guarded([&] {
    train::LanguageTrainer& t = trainer_by_id(id);
    return parameters_to_js(t.config(), t.parameters());
  });
}

// { [name]: Float32Array } for every tensor (std::invalid_argument naming the first missing or of another size).
std::vector<float> parameters_from_js(const train::ModelConfig& c, const val& tensors) {
  std::vector<float> flat(train::parameter_count(c));
  for (const train::ParameterSpec& s : train::parameter_specs(c)) {
    const val data = tensors[s.name];
    if (data.isUndefined() || data.isNull() || data["length"].as<std::size_t>() != s.size) {
      throw std::invalid_argument("tensor '" + s.name + "' is missing or does not hold " + std::to_string(s.size) + " numbers");
    }
    val(emscripten::typed_memory_view(s.size, flat.data() + s.offset)).call<void>("set", data);
  }
  return flat;
}

val language_trainer_set_parameters(int id, val tensors) {
  return guarded([&] {
    train::LanguageTrainer& t = trainer_by_id(id);
    t.set_parameters(parameters_from_js(t.config(), tensors));
    return val::undefined();
  });
}

val language_trainer_sample(int id) {
  return guarded([&] {
    const train::Batch b = trainer_by_id(id).peek_batch();
    val out = val::object();
    out.set("tokens", val::global("Int32Array").new_(emscripten::typed_memory_view(b.tokens.size(), b.tokens.data())));
    out.set("targets", val::global("Int32Array").new_(emscripten::typed_memory_view(b.targets.size(), b.targets.data())));
    out.set("scored", val::global("Uint8Array").new_(emscripten::typed_memory_view(b.scored.size(), b.scored.data())));
    out.set("shape", array_to_js(std::vector<std::size_t>{b.batch_size, b.seq_len}));
    return out;
  });
}

val language_trainer_loss_and_gradients(int id, val batch) {
  return guarded([&] {
    train::LanguageTrainer& t = trainer_by_id(id);
    train::Batch b;
    b.batch_size = batch["shape"][0].as<std::size_t>();
    b.seq_len = batch["shape"][1].as<std::size_t>();
    const auto copy = [](const val& array, auto& to) {
      to.resize(array["length"].as<std::size_t>());
      val(emscripten::typed_memory_view(to.size(), to.data())).call<void>("set", array);
    };
    copy(batch["tokens"], b.tokens);
    copy(batch["targets"], b.targets);
    copy(batch["scored"], b.scored);
    const auto [loss, grads] = t.loss_and_gradients(b);
    val out = val::object();
    out.set("loss", loss);
    out.set("gradients", parameters_to_js(t.config(), grads));
    return out;
  });
}

// Every parameter as { name: { data, shape } }, in parameter_specs order.
val language_model_parameters(int id) {
  return guarded([&] {
    const train::LanguageModel& m = model_by_id(id);
    return parameters_to_js(m.config(), m.parameters());
  });
}

val language_model_limits() {
  val out = val::object();
  out.set("objectives", names_to_js(train::kObjectiveNames));
  out.set("outputPositions", names_to_js(train::kOutputPositionNames));
  out.set("maxTokens", train::kMaxLanguageTokens);
  out.set("maxTopK", train::kMaxTopK);
  out.set("maxLayers", train::kMaxLanguageLayers);
  out.set("maxFeedForward", train::kMaxLanguageFeedForward);
  out.set("maxSeqLen", train::kMaxLanguageSeqLen);
  out.set("minOutputWords", train::kMinOutputWords);
  out.set("maxOutputWords", train::kMaxOutputWords);
  out.set("maxBatchSize", 1024);
  out.set("trainerDefaults", language_trainer_defaults());
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_language_model) {
  emscripten::function("languageModelCreate", &language_model_create);
  emscripten::function("languageModelRelease", &language_model_release);
  emscripten::function("languageModelRun", &language_model_run);
  emscripten::function("languageModelScore", &language_model_score);
  emscripten::function("languageModelParameters", &language_model_parameters);
  emscripten::function("languageModelLimits", &language_model_limits);
  emscripten::function("languageTrainerCreate", &language_trainer_create);
  emscripten::function("languageTrainerRelease", &language_trainer_release);
  emscripten::function("languageTrainerStep", &language_trainer_step);
  emscripten::function("languageTrainerEvaluate", &language_trainer_evaluate);
  emscripten::function("languageTrainerParameters", &language_trainer_parameters);
  emscripten::function("languageTrainerSetParameters", &language_trainer_set_parameters);
  emscripten::function("languageTrainerSample", &language_trainer_sample);
  emscripten::function("languageTrainerLossAndGradients", &language_trainer_loss_and_gradients);
}
