// embind glue for the trainer (cpp/include/attn/train/trainer.hpp): core.createTrainer() (web/src/core/trainer.js,
// a synthetic task) and core.createLanguageTrainer() (web/src/core/language-trainer.js, a corpus) make a trainer
// here, and every other call (trainer<Member>) serves both: one trainer class, one set of functions. Trainers
// live in one registry by id; the JS wrapper releases an id when its trainer object is garbage-collected.
// Every call returns { value } or { error } (guarded.hpp). Every limit of the trainer's options is exported
// once, from attn/train/limits.hpp (trainerLimits), so JS, the .d.ts and the page read them from here.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/train/baselines.hpp"
#include "attn/train/language_trainer.hpp"
#include "attn/train/limits.hpp"
#include "attn/train/task_trainer.hpp"
#include "convert.hpp"
#include "exports.hpp"
#include "guarded.hpp"
#include "trainers.hpp"

using emscripten::val;
using namespace bindings;
namespace train = attn::train;

namespace bindings {

Registry<train::Trainer>& trainers() {
  static Registry<train::Trainer> registry("trainer: this trainer was released");
  return registry;
}

}  // namespace bindings

namespace {

val task_options_to_js(const train::TaskTrainerOptions& o) {
  return object_to_js(
      {{"task", val(std::string(attn::name_of(train::kTaskNames, o.task)))},
       {"numLayers", val(o.model.n_layers)},
       {"numHeads", val(o.model.n_heads)},
       {"dModel", val(o.model.d_model)},
       {"seqLen", val(o.model.seq_len)},
       {"vocabSize", val(o.model.vocab_size)},
       {"batchSize", val(o.batch_size)},
       {"learningRate", val(o.optimizer.learning_rate)},
       {"weightDecay", val(o.optimizer.weight_decay)},
       {"positionalEncoding", val(std::string(attn::name_of(train::kPositionalNames, o.model.positional)))},
       {"seed", val(static_cast<double>(o.seed))}});
}

// The options JS passed (complete: web/src/core/trainer.js fills in the task's defaults and checks types).
train::TaskTrainerOptions task_options_from_js(const val& js) {
  train::TaskTrainerOptions o = train::default_task_options(enum_from_js(train::kTaskNames, js["task"], "task"));
  o.model.n_layers = js["numLayers"].as<std::size_t>();
  o.model.n_heads = js["numHeads"].as<std::size_t>();
  o.model.d_model = js["dModel"].as<std::size_t>();
  o.model.seq_len = js["seqLen"].as<std::size_t>();
  o.model.vocab_size = js["vocabSize"].as<std::size_t>();
  o.model.positional = enum_from_js(train::kPositionalNames, js["positionalEncoding"], "positionalEncoding");
  o.batch_size = js["batchSize"].as<std::size_t>();
  o.optimizer.learning_rate = js["learningRate"].as<float>();
  o.optimizer.weight_decay = js["weightDecay"].as<float>();
  o.seed = static_cast<std::uint64_t>(js["seed"].as<double>());
  return o;
}

// ---- making a trainer ----

val trainer_limits() {
  val out = val::object();
  out.set("tasks", names_to_js(train::kTaskNames));
  out.set("positionalEncodings", names_to_js(train::kPositionalNames));
  set_numbers(out, {{"maxLayers", train::kMaxLayers},
                    {"maxHeads", train::kMaxHeads},
                    {"maxDModel", train::kMaxTaskDModel},
                    {"maxSeqLen", train::kMaxTrainSeqLen},
                    {"maxVocabSize", train::kMaxTaskVocab},
                    {"maxFeedForward", train::kMaxFeedForward},
                    {"maxBatchSize", train::kMaxBatchSize},
                    {"maxStepsPerCall", train::kMaxStepsPerCall},
                    {"maxScheduleSteps", train::kMaxScheduleSteps},
                    {"maxEvalTokens", train::kMaxEvalTokens},
                    {"evalSequences", train::kEvalSequences},
                    {"probeSequences", train::kProbeSequences},
                    {"minOutputWords", train::kMinOutputWords},
                    {"maxOutputWords", train::kMaxOutputWords}});
  return out;
}

val trainer_defaults(std::string task) {
  return guarded(
      [&] { return task_options_to_js(train::default_task_options(attn::value_of(train::kTaskNames, task, "task"))); });
}

val create_trainer(val options) {
  return guarded([&] {
    return val(trainers().add(std::make_unique<train::Trainer>(train::task_trainer(task_options_from_js(options)))));
  });
}

// The options language-trainer.js resolved (defaults filled in, types checked), and the two texts.
val language_trainer_create(val o, const std::string& text, const std::string& held_out) {
  return guarded([&] {
    train::LanguageTrainerOptions options = language_model_options(o);
    options.mask_rate = o["maskRate"].as<double>();
    options.repeat_share = o["repeatShare"].as<double>();
    options.repeat_steps = o["repeatSteps"].as<std::size_t>();
    options.repeat_share_after = o["repeatShareAfter"].as<double>();
    options.output_init = enum_from_js(train::kOutputInitNames, o["outputInit"], "outputInit");
    options.output_vocabulary = enum_from_js(train::kOutputVocabularyNames, o["outputVocabulary"], "outputVocabulary");
    options.shards = 1;  // one thread in wasm: slices would only add work
    options.optimizer.learning_rate = o["learningRate"].as<float>();
    options.optimizer.weight_decay = o["weightDecay"].as<float>();
    options.schedule.warmup_steps = o["warmupSteps"].as<std::size_t>();
    options.schedule.total_steps = o["totalSteps"].as<std::size_t>();
    options.seed = static_cast<std::uint64_t>(o["seed"].as<double>());
    const int id = trainers().add(
        std::make_unique<train::Trainer>(train::language_trainer(options, loaded_table(), text, held_out)));
    const train::Trainer& trainer = trainers().get(id);
    const train::CorpusSource& corpus = train::corpus_of(trainer);
    return object_to_js({{"id", val(id)},
                         {"dModel", val(trainer.config().d_model)},
                         {"trainTokens", val(corpus.train_stream().inputs.size())},
                         {"heldOutTokens", val(corpus.held_out_stream().inputs.size())},
                         {"words", array_to_js(corpus.vocabulary().words())}});
  });
}

void release_trainer(int id) { trainers().release(id); }

// ---- every trainer ----

val trainer_step(int id, double n) {
  return guarded([&] {
    train::Trainer& t = trainers().get(id);
    const double loss = t.step(static_cast<std::size_t>(n));
    return step_to_js(t.steps(), loss);
  });
}

val trainer_evaluate(int id, double max_tokens) {
  return guarded([&] {
    train::Trainer& t = trainers().get(id);
    const train::Evaluation e = t.evaluate(static_cast<std::size_t>(max_tokens));
    return object_to_js({{"step", val(t.steps())},
                         {"loss", val(e.loss)},
                         {"perplexity", val(e.perplexity)},
                         {"top1", val(e.top1)},
                         {"top5", val(e.top5)},
                         {"tokens", val(e.tokens)}});
  });
}

val trainer_head_scores(int id) {
  return guarded([&] {
    train::Trainer& t = trainers().get(id);
    const train::HeadScores s = t.head_scores();
    const std::size_t L = t.config().n_layers, H = t.config().n_heads;
    const std::vector<float> previous(s.previous_token.begin(), s.previous_token.end());
    const std::vector<float> prefix(s.prefix_matching.begin(), s.prefix_matching.end());
    return object_to_js({{"previousToken", tensor_to_js(previous.data(), {L, H})},
                         {"prefixMatching", tensor_to_js(prefix.data(), {L, H})}});
  });
}

val trainer_sample(int id, double batch_size) {
  return guarded([&] { return batch_to_js(trainers().get(id).sample(static_cast<std::size_t>(batch_size))); });
}

val trainer_peek_batch(int id) {
  return guarded([&] { return batch_to_js(trainers().get(id).peek_batch()); });
}

val trainer_attention(int id, val tokens) {
  return guarded([&] {
    train::Trainer& t = trainers().get(id);
    const auto ids = vector_from_js<std::int32_t>(tokens);
    const auto weights = t.attention(ids);
    const std::size_t T = ids.size();
    return tensor_to_js(weights.data(), {t.config().n_layers, t.config().n_heads, T, T});
  });
}

val trainer_predict(int id, val tokens) {
  return guarded([&] {
    train::Trainer& t = trainers().get(id);
    const auto ids = vector_from_js<std::int32_t>(tokens);
    const auto logits = t.predict(ids);
    const std::size_t T = ids.size(), V = t.config().outputs();
    std::vector<std::int32_t> predictions(T);
    for (std::size_t i = 0; i < T; ++i) {
      const float* row = logits.data() + i * V;
      predictions[i] = static_cast<std::int32_t>(std::max_element(row, row + V) - row);
    }
    return object_to_js(
        {{"logits", tensor_to_js(logits.data(), {T, V})}, {"predictions", typed_array_to_js(predictions)}});
  });
}

// Every parameter as { name: { data, shape } }, in parameter_specs order (convert.hpp).
val trainer_parameters(int id) {
  return guarded([&] {
    const train::Trainer& t = trainers().get(id);
    return parameters_to_js(t.config(), t.parameters());
  });
}

// tensors: { name: Float32Array } for every parameter (the JS wrapper took each tensor's data).
val trainer_set_parameters(int id, val tensors) {
  return guarded([&] {
    train::Trainer& t = trainers().get(id);
    t.set_parameters(parameters_from_js(t.config(), tensors, [](const train::ParameterSpec& s) {
      return "does not hold " + std::to_string(s.size) + " numbers";
    }));
    return val::undefined();
  });
}

val trainer_loss_and_gradients(int id, val batch) {
  return guarded([&] {
    train::Trainer& t = trainers().get(id);
    const auto [loss, grads] = t.loss_and_gradients(batch_from_js(batch));
    return object_to_js({{"loss", val(loss)}, {"gradients", parameters_to_js(t.config(), grads)}});
  });
}

val trainer_ablate(int id, double layer, double head, bool on) {
  return guarded([&] {
    trainers().get(id).ablate(static_cast<std::size_t>(layer), static_cast<std::size_t>(head), on);
    return val::undefined();
  });
}

// ---- a trainer of a corpus ----

// The unigram and bigram baselines of the trainer's texts (baselines.hpp).
val trainer_baselines(int id) {
  return guarded([&] {
    const train::BaselinePerplexities b = train::held_out_baselines(train::corpus_of(trainers().get(id)));
    return object_to_js({{"unigramPerplexity", val(b.unigram)},
                         {"bigramPerplexity", val(b.bigram)},
                         {"bigramDiscount", val(b.bigram_discount)},
                         {"tokens", val(b.tokens)}});
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_trainer) {
  bind_functions("trainerLimits", &trainer_limits, "trainerDefaults", &trainer_defaults, "createTrainer",
                 &create_trainer, "languageTrainerCreate", &language_trainer_create, "releaseTrainer", &release_trainer,
                 "trainerStep", &trainer_step, "trainerEvaluate", &trainer_evaluate, "trainerHeadScores",
                 &trainer_head_scores, "trainerSample", &trainer_sample, "trainerPeekBatch", &trainer_peek_batch,
                 "trainerAttention", &trainer_attention, "trainerPredict", &trainer_predict, "trainerParameters",
                 &trainer_parameters, "trainerSetParameters", &trainer_set_parameters, "trainerLossAndGradients",
                 &trainer_loss_and_gradients, "trainerAblate", &trainer_ablate, "trainerBaselines", &trainer_baselines);
}
