// embind glue for the trained language models (cpp/include/attn/train/language_model.hpp):
// core.languageModel() in web/src/core/language-model.js, which reads the safetensors file (JSON.parse)
// and hands over the recipe's sizes, the vocabulary and every tensor by name.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/core/limits.hpp"
#include "attn/train/gpt2.hpp"
#include "attn/train/head_statistics.hpp"
#include "attn/train/language_model.hpp"
#include "convert.hpp"
#include "exports.hpp"
#include "guarded.hpp"
#include "registry.hpp"
#include "trainers.hpp"

using emscripten::val;
using namespace bindings;
namespace train = attn::train;

namespace {

Registry<train::LanguageModel> g_models("languageModel: this model was released");

// spec: { recipe, words: string[], tensors: { [name]: Float32Array } }; every tensor of the recipe's model
// must be there with its size (std::invalid_argument naming the first that is not).
val language_model_create(val spec) {
  return guarded([&] {
    const attn::EmbeddingTable& table = loaded_table();
    train::LanguageTrainerOptions options = language_model_options(spec["recipe"]);
    // The shards the file trained in, as options_from_recipe reads them: language_model_config checks that one fits
    options.shards = spec["recipe"]["shards"].as<std::size_t>();
    const train::ModelConfig config = train::language_model_config(options, table);
    std::vector<float> parameters = parameters_from_js(config, spec["tensors"], [](const train::ParameterSpec&) {
      return std::string("has another size than the recipe's model");
    });
    return val(g_models.add(std::make_unique<train::LanguageModel>(
        config, options.objective, vector_from_js<std::string>(spec["words"]), std::move(parameters), table)));
  });
}

val language_model_release(int id) {
  g_models.release(id);
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

// ---- knockout: run()'s ablate and attribute() (language_model.hpp; checked in web/src/core/knockout.js, and again
// here) ----

// { tokens, position, word (output id), logProb, heads (Float64Array L·H), occlusion (Float64Array T) }
val language_model_attribute(int id, const std::string& text, double position, double word, const val& ablate) {
  return guarded([&] {
    train::LanguageModel& m = g_models.get(id);
    const train::LanguageModel::Attribution a =
        m.attribute(text, static_cast<std::int64_t>(position), static_cast<std::int32_t>(word), heads_from_js(ablate));
    return object_to_js({{"tokens", tokens_to_js(a.tokens, train::input_ids_of(a.tokens, loaded_table()))},
                         {"position", val(a.position)},
                         {"word", val(a.word)},
                         {"logProb", val(a.log_prob)},
                         {"heads", typed_array_to_js(a.heads)},
                         {"occlusion", typed_array_to_js(a.occlusion)}});
  });
}

// run()'s result (convert.hpp language_run_to_js) with the tokens and p(<unk>) at each position computed. positions: a
// name of kOutputPositionNames, or an array of integers; activations: undefined, or { layer, head }; sampling:
// undefined, or { temperature, topK }, for the sampling distribution's first k words at each position, in the same call
// as the run (one crossing into wasm an update). All checked in JS, and again here.
val language_model_run(int id, const std::string& text, int k, const val& positions, const val& activations,
                       const val& ablate, const val& sampling) {
  return guarded([&] {
    train::LanguageModel& m = g_models.get(id);
    train::LanguageModel::Positions at = train::OutputPositions::all;
    if (positions.isString()) {
      at = enum_from_js(train::kOutputPositionNames, positions, "positions");
    } else {
      std::vector<std::int64_t> listed;
      for (const double p : vector_from_js<double>(positions)) listed.push_back(static_cast<std::int64_t>(p));
      at = std::move(listed);
    }
    std::optional<train::HeadChoice> choice;
    if (!activations.isUndefined())
      choice = train::HeadChoice{activations["layer"].as<std::size_t>(), activations["head"].as<std::size_t>()};
    const train::LanguageRun r = m.run(text, static_cast<std::size_t>(k), at, choice, heads_from_js(ablate));
    const train::ModelConfig& c = m.config();
    val out = language_run_to_js(r, r.tokens.size(), c.outputs(), m.vocabulary().unk(), sampling,
                                 static_cast<std::size_t>(k), c.d_model / c.n_heads, c.d_ff);
    out.set("tokens", tokens_to_js(r.tokens, r.inputs));
    out.set("unk", typed_array_to_js(r.unk));
    return out;
  });
}

val language_model_score(int id, const std::string& text) {
  return guarded([&] {
    const train::LanguageModel::Score s = g_models.get(id).score(text);
    val out = val::object();
    std::vector<std::int32_t> inputs = train::input_ids_of(s.tokens, loaded_table());
    out.set("tokens", tokens_to_js(s.tokens, inputs));
    out.set("logProb", typed_array_to_js(s.log_prob));
    out.set("perplexity", s.perplexity);
    return out;
  });
}

// ---- Sampling (sampling.hpp): model.sample(), and the sampling distribution the page's bars show ----

// One word sampled after the text (causal) or at its first [MASK] (masked): { word, id, q, position }.
val language_model_sample(int id, const std::string& text, double temperature, double top_k, double seed,
                          const val& ablate) {
  return guarded([&] {
    const train::LanguageModel::Sample s = g_models.get(id).sample(
        text, {temperature, static_cast<std::size_t>(top_k), static_cast<std::uint64_t>(seed)}, heads_from_js(ablate));
    return object_to_js({{"word", val(s.word)}, {"id", val(s.id)}, {"q", val(s.q)}, {"position", val(s.position)}});
  });
}

// ---- createLanguageTrainer(): the recipe's defaults, and a model of a trainer (web/src/core/language-trainer.js) ----

val language_trainer_defaults() {
  const train::LanguageTrainerOptions o;
  return object_to_js(
      {{"objective", val(std::string(attn::name_of(train::kObjectiveNames, o.objective)))},
       {"numLayers", val(o.n_layers)},
       {"numHeads", val(o.n_heads)},
       {"dFF", val(o.d_ff)},
       {"seqLen", val(o.seq_len)},
       {"batchSize", val(o.batch_size)},
       {"outputWords", val(o.output_words)},
       {"outputVocabulary", val(std::string(attn::name_of(train::kOutputVocabularyNames, o.output_vocabulary)))},
       {"tiedOutput", val(o.tied_output)},
       {"outputInit", val(std::string(attn::name_of(train::kOutputInitNames, o.output_init)))},
       {"outputHead", val(o.output_head)},
       {"layerNorm", val(o.layer_norm)},
       {"maskRate", val(o.mask_rate)},
       {"repeatShare", val(o.repeat_share)},
       {"repeatSteps", val(o.repeat_steps)},
       {"repeatShareAfter", val(o.repeat_share_after)},
       {"learningRate", val(o.optimizer.learning_rate)},
       {"weightDecay", val(o.optimizer.weight_decay)},
       {"warmupSteps", val(o.schedule.warmup_steps)},
       {"totalSteps", val(o.schedule.total_steps)},
       {"seed", val(static_cast<double>(o.seed))}});
}

// A language model holding a copy of the trainer's parameters as they are now (its id in g_models): the
// trainer goes on training, the model stays as it was.
val language_trainer_model(int id) {
  return guarded([&] {
    const train::Trainer& t = trainers().get(id);
    const train::CorpusSource& corpus = train::corpus_of(t);
    return val(g_models.add(std::make_unique<train::LanguageModel>(
        t.config(), corpus.objective(), corpus.vocabulary().words(), t.parameters(), loaded_table())));
  });
}

// What each head does on `text` (head_statistics.hpp), layer-major, named as the model files record it.
val language_model_heads(int id, const std::string& text, double max_windows) {
  return guarded([&] {
    val out = val::array();
    for (const train::HeadStatistics& h : train::head_statistics(g_models.get(id), text, train::kHeadStatisticsWindow,
                                                                 static_cast<std::size_t>(max_windows))) {
      const auto& s = h.scores;
      val head = object_to_js({{"layer", val(h.layer)},
                               {"head", val(h.head)},
                               {"previous", val(s[0])},
                               {"next", val(s[1])},
                               {"self", val(s[2])},
                               {"first", val(s[3])},
                               {"sameWord", val(s[4])},
                               {"prefix", val(s[5])},
                               {"induction", val(s[6])},
                               {"entropyBits", val(h.entropy_bits)},
                               {"label", val(h.label)}});
      out.call<void>("push", head);
    }
    return out;
  });
}

// Every head's scores on repeated random words (head_statistics.hpp repeated_words_probe), in one call.
val language_model_repeated_words(int id, double repeat, double sequences, double seed) {
  return guarded([&] {
    const train::RepeatedWordsScores r =
        train::repeated_words_probe(g_models.get(id), static_cast<std::size_t>(repeat),
                                    static_cast<std::size_t>(sequences), static_cast<std::uint64_t>(seed));
    const bool causal = g_models.get(id).objective() == train::Objective::causal;
    val example = val::array();
    for (const std::int32_t word : r.example)
      example.call<void>("push", val(g_models.get(id).vocabulary().word(static_cast<std::size_t>(word))));
    return repeated_words_to_js(r, g_models.get(id).config().n_heads, causal, example);
  });
}

// Every parameter as { name: { data, shape } }, in parameter_specs order.
val language_model_parameters(int id) {
  return guarded([&] {
    const train::LanguageModel& m = g_models.get(id);
    return parameters_to_js(m.config(), m.parameters());
  });
}

val language_model_limits() {
  val out = val::object();
  out.set("objectives", names_to_js(train::kObjectiveNames));
  out.set("outputPositions", names_to_js(train::kOutputPositionNames));
  out.set("outputInits", names_to_js(train::kOutputInitNames));
  out.set("outputVocabularies", names_to_js(train::kOutputVocabularyNames));
  val architectures = val::array();  // core.languageModel({ architecture }): checkpoints of other models (gpt2.hpp)
  for (const char* name : train::kArchitectureNames) architectures.call<void>("push", val(name));
  out.set("architectures", architectures);
  // The trainer's limits are core.trainerLimits (train_bindings.cpp); these are the models' own.
  // headLabelThreshold: a head's measured label is its largest score's name when that score is at least this, else
  // "mixed" (head_statistics.hpp); the page shows scores with enough digits to agree with it.
  set_numbers(out, {{"maxTokens", train::kMaxLanguageTokens},
                    {"maxTopK", train::kMaxTopK},
                    {"headLabelThreshold", train::kHeadLabelThreshold}});
  // head_statistics.hpp: repeatedWords()'s R (repeat: its default, and its range) and number of sequences.
  set_numbers(out, {{"repeatedWords", train::kRepeatedWords},
                    {"minRepeatedWords", train::kMinRepeatedWords},
                    {"maxRepeatedWords", train::kMaxRepeatedWords},
                    {"repeatedSequences", train::kRepeatedSequences},
                    {"maxRepeatedSequences", train::kMaxRepeatedSequences}});
  // sampling.hpp: the output temperature and top-k of sample() (0: every word).
  set_numbers(out, {{"minOutputTemperature", train::kMinOutputTemperature},
                    {"maxOutputTemperature", train::kMaxOutputTemperature},
                    {"maxSampleTopK", train::kMaxSampleTopK},
                    {"maxSampleSeed", attn::kMaxSeed}});
  out.set("trainerDefaults", language_trainer_defaults());
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_language_model) {
  bind_functions("languageModelCreate", &language_model_create, "languageModelRelease", &language_model_release,
                 "languageModelRun", &language_model_run, "languageModelScore", &language_model_score,
                 "languageModelParameters", &language_model_parameters, "languageModelLimits", &language_model_limits,
                 "languageTrainerModel", &language_trainer_model, "languageModelHeads", &language_model_heads,
                 "languageModelAttribute", &language_model_attribute);
  bind_functions("languageModelSample", &language_model_sample, "languageModelRepeatedWords",
                 &language_model_repeated_words);
}
