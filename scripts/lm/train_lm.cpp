// Trains one of the explorer's language models natively (language_trainer.hpp) and writes its weights
// as safetensors, with the recipe, the vocabulary, the first losses and the held-out measurements in
// __metadata__; or re-runs a shipped file's recipe and checks its first losses bit for bit (--verify).
//
//   attn_train_lm --corpus build/lm/corpus --embeddings web/assets/embeddings.bin --objective causal
//                 --steps 3000 --out web/assets/models/causal.safetensors [--untied] [--output-init random|glove]
//                 [--output-head] [--layers 2] [--d-ff 400] [--output-words 8191] [--output-vocabulary text|glove]
//                 [--attention-only] [--mask-rate 0.15] [--seq-len 32] [--repeat-share 0]
//                 [--repeat-steps 0 --repeat-share-after 0] [--batch-size 32] [--shards 2] [--learning-rate 3e-3]
//                 [--warmup 200] [--seed 0] [--threads 2] [--commit <sha>] [--eval-every 250]
//   attn_train_lm --verify web/assets/models/causal.safetensors --corpus … --embeddings … [--steps 50]
//   attn_train_lm --measure-heads web/assets/models/causal.safetensors --corpus …   (adds "heads" to the metadata, and
//                 the causal model's loss on repeated random words as "repeated_words")
//   attn_train_lm --probe web/assets/models/causal.safetensors [--repeat 12,50] [--copy scripts/lm/copy-sentences.tsv]
//                 (every head on repeated random words; the causal model's next word on natural copying sentences)
//   attn_train_lm --evaluate web/assets/models/causal.safetensors --corpus …   (adds "measured_file": the stored
//   weights' quality) attn_train_lm --evaluate … --held-out build/lm/corpus/held-out.austen.raw.txt --key
//   measured_austen
//                 (the same on another held-out text, recorded under that key)
//   attn_train_lm --evaluate FILE --merge-into OTHER.safetensors   (FILE's held-out loss on OTHER's output words)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/text/embeddings.hpp"
#include "attn/train/baselines.hpp"
#include "attn/train/head_statistics.hpp"
#include "attn/train/language_model_file.hpp"
#include "attn/train/language_trainer.hpp"
#include "attn/train/ngram.hpp"
#include "attn/train/safetensors.hpp"
#include "model_file_measures.hpp"
#include "tool_args.hpp"

using namespace attn::train;
using json = nlohmann::json;
using namespace attn::tools;

namespace {

ParallelFor threads(std::size_t count) {
  return [count](std::size_t n, const std::function<void(std::size_t)>& body) {
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < count && t < n; ++t) {
      pool.emplace_back([&, t] {
        for (std::size_t i = t; i < n; i += count) body(i);
      });
    }
    for (std::size_t i = 0; i < n; i += count) body(i);
    for (std::thread& thread : pool) thread.join();
  };
}

// The baselines (baselines.hpp) as the file's metadata records them.
json baselines(const Trainer& trainer) {
  const BaselinePerplexities b = held_out_baselines(corpus_of(trainer));
  return {{"unigramPerplexity", b.unigram},
          {"bigramPerplexity", b.bigram},
          {"bigramDiscount", b.bigram_discount},
          {"tokens", b.tokens}};
}

int verify(const std::map<std::string, std::string>& args, const attn::EmbeddingTable& table, const std::string& train,
           const std::string& held_out) {
  const std::string path = arg(args, "verify", "");
  const SafeTensors file = read_safetensors_file(path);
  const json recipe = json::parse(file.metadata.at("recipe"));
  (void)read_language_model(file, path, table);  // format, version, checksum, shapes
  const json expected = json::parse(file.metadata.at("first_losses"));
  if (recipe.at("corpusHash") != text_hash(train + held_out)) {
    std::printf("%s: the corpus differs from the one it was trained on (hash %s, recorded %s)\n", path.c_str(),
                text_hash(train + held_out).c_str(), recipe.at("corpusHash").get<std::string>().c_str());
    return 1;
  }
  if (recipe.value("kernels", "") != ATTN_TRAIN_KERNELS) {
    std::printf("%s: trained with kernels '%s', this tool has '%s': the losses cannot agree bit for bit\n",
                path.c_str(), recipe.value("kernels", "").c_str(), ATTN_TRAIN_KERNELS);
    return 1;
  }
  const std::size_t steps = std::min<std::size_t>(std::stoul(arg(args, "steps", "50")), expected.size());
  Trainer trainer = language_trainer(options_from_recipe(recipe.dump()), table, train, held_out,
                                     threads(std::stoul(arg(args, "threads", "2"))));
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < steps; ++i) {
    const double loss = trainer.step(1), want = expected[i].get<double>();
    if (loss != want) ++mismatches;
    if (loss != want || i % 10 == 0)
      std::printf("step %zu: loss %.17g, recorded %.17g %s\n", i + 1, loss, want, loss == want ? "OK" : "NOT OK");
  }
  std::printf("%s: %zu of %zu losses equal the recorded ones bit for bit\n", path.c_str(), steps - mismatches, steps);
  return mismatches ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) try {
  const auto args = parse_args(argc, argv,
                               {"attention-only",
                                "batch-size",
                                "commit",
                                "copy",
                                "corpus",
                                "d-ff",
                                "embeddings",
                                "eval-every",
                                "evaluate",
                                "float32",
                                "held-out",
                                "key",
                                "layers",
                                "learning-rate",
                                "mask-rate",
                                "merge-into",
                                "measure-heads",
                                "objective",
                                "out",
                                "output-head",
                                "output-init",
                                "output-vocabulary",
                                "output-words",
                                "probe",
                                "repeat",
                                "repeat-share",
                                "repeat-share-after",
                                "repeat-steps",
                                "seed",
                                "seq-len",
                                "shards",
                                "steps",
                                "threads",
                                "untied",
                                "verify",
                                "warmup"});
  const std::string corpus = arg(args, "corpus", "build/lm/corpus");
  const std::string train = read_file(corpus + "/train.raw.txt"), held_out = read_file(corpus + "/held-out.raw.txt");
  const std::string asset = read_file(arg(args, "embeddings", "web/assets/embeddings.bin"));
  const auto table =
      attn::EmbeddingTable::from_bytes(reinterpret_cast<const std::uint8_t*>(asset.data()), asset.size());
  if (args.count("verify")) return verify(args, table, train, held_out);
  if (args.count("probe"))
    return probe(arg(args, "probe", ""), table, arg(args, "repeat", "12"), arg(args, "copy", ""));
  if (args.count("measure-heads")) return measure_heads(arg(args, "measure-heads", ""), table, held_out);
  if (args.count("evaluate")) {
    const std::string other = args.count("held-out") ? read_file(arg(args, "held-out", "")) : held_out;
    if (args.count("merge-into"))
      return evaluate_merged(arg(args, "evaluate", ""), arg(args, "merge-into", ""), table, train, other);
    return evaluate_file(arg(args, "evaluate", ""), table, train, other, arg(args, "key", "measured_file"));
  }

  LanguageTrainerOptions o;
  o.objective = attn::value_of(kObjectiveNames, arg(args, "objective", "causal"), "objective");
  o.n_layers = std::stoul(arg(args, "layers", "2"));
  o.tied_output = !args.count("untied");
  o.output_head = args.count("output-head");
  o.output_init = attn::value_of(kOutputInitNames, arg(args, "output-init", "random"), "outputInit");
  o.output_vocabulary =
      attn::value_of(kOutputVocabularyNames, arg(args, "output-vocabulary", "text"), "outputVocabulary");
  o.output_words = std::stoul(arg(args, "output-words", "8191"));
  o.mask_rate = std::stod(arg(args, "mask-rate", "0.15"));
  o.seq_len = std::stoul(arg(args, "seq-len", "32"));
  o.repeat_share = std::stod(arg(args, "repeat-share", "0"));
  o.repeat_steps = std::stoul(arg(args, "repeat-steps", "0"));
  o.repeat_share_after = std::stod(arg(args, "repeat-share-after", "0"));
  o.batch_size = std::stoul(arg(args, "batch-size", "32"));
  o.shards = std::stoul(arg(args, "shards", "2"));  // a larger batch needs more slices (the activation limit)
  o.d_ff = std::stoul(arg(args, "d-ff", std::to_string(o.d_ff)));
  if (args.count("attention-only")) o.layer_norm = false, o.d_ff = 0;
  o.seed = std::stoull(arg(args, "seed", "0"));
  o.optimizer.learning_rate = std::stof(arg(args, "learning-rate", "3e-3"));
  o.schedule.warmup_steps = std::stoul(arg(args, "warmup", "200"));
  const std::size_t total = std::stoul(arg(args, "steps", "3000"));
  o.schedule.total_steps = total;
  const std::size_t eval_every = std::stoul(arg(args, "eval-every", "250"));
  const auto started = std::chrono::steady_clock::now();
  Trainer trainer = language_trainer(o, table, train, held_out, threads(std::stoul(arg(args, "threads", "2"))));
  const auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  std::printf("%s model: %zu layers, %zu heads, d_model %zu, d_ff %zu, %s output of %zu%s; %zu parameters\n",
              attn::name_of(kObjectiveNames, o.objective), o.n_layers, o.n_heads, trainer.config().d_model, o.d_ff,
              o.tied_output                        ? "tied"
              : o.output_init == OutputInit::glove ? "untied (from GloVe)"
                                                   : "untied",
              trainer.config().outputs(), o.output_head ? " after BERT's output head" : "",
              trainer.parameters().size());
  std::printf("corpus: %zu training tokens (%zu lines), %zu held-out tokens; %.1f s to tokenize\n",
              corpus_of(trainer).train_stream().inputs.size(), corpus_of(trainer).train_stream().line_starts.size(),
              corpus_of(trainer).held_out_stream().inputs.size(), seconds());
  std::fflush(stdout);

  std::vector<double> first_losses;
  double window = 0;
  const double tokens_per_step = static_cast<double>(o.batch_size * o.seq_len);
  const double training_started = seconds();
  for (std::size_t s = 1; s <= total; ++s) {
    const double loss = trainer.step(1);
    if (first_losses.size() < 50) first_losses.push_back(loss);
    window += loss;
    if (s % eval_every == 0 || s == total) {
      const Evaluation e = trainer.evaluate(20000);
      const double elapsed = seconds() - training_started;
      // The phase change of Olsson et al. 2022 (§3) beside the loss curve: on the repeated-words probe (12 random words
      // twice, head_statistics.hpp), the best head's induction and previous-word scores and (causal) how much easier
      // the second copy is (nats/word)
      const CorpusSource& corpus = corpus_of(trainer);
      LanguageModel now(trainer.config(), corpus.objective(), corpus.vocabulary().words(), trainer.parameters(), table);
      const RepeatedWordsScores probe = repeated_words_probe(now);
      const auto best = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); };
      char copy[32] = "";  // the causal model's only
      if (o.objective == Objective::causal)
        std::snprintf(copy, sizeof copy, "  copy %.2f", probe.first_half_loss - probe.second_half_loss);
      std::printf(
          "step %5zu  lr %.2e  train loss %.3f  held-out loss %.3f (perplexity %.1f, top-1 %.3f)  "
          "induction %.3f  previous %.3f%s  %.0f tokens/s  %.0f s\n",
          s, trainer.learning_rate(), window / static_cast<double>(s % eval_every ? s % eval_every : eval_every),
          e.loss, e.perplexity, e.top1, best(probe.induction), best(probe.previous), copy,
          tokens_per_step * static_cast<double>(s) / elapsed, elapsed);
      std::fflush(stdout);
      window = 0;
    }
  }
  const double training_seconds = seconds() - training_started;
  const Evaluation e = trainer.evaluate();
  json measured = {{"heldOutLoss", e.loss},
                   {"heldOutPerplexity", e.perplexity},
                   {"heldOutTop1", e.top1},
                   {"heldOutTop5", e.top5},
                   {"heldOutTokens", e.tokens},
                   {"trainingSeconds", training_seconds},
                   {"tokensPerSecond", tokens_per_step * static_cast<double>(total) / training_seconds},
                   {"trainTokens", corpus_of(trainer).train_stream().inputs.size()}};
  measured["baselines"] = baselines(trainer);
  std::printf("held-out: loss %.4f, perplexity %.2f, top-1 %.4f, top-5 %.4f over %zu tokens; baselines %s\n", e.loss,
              e.perplexity, e.top1, e.top5, e.tokens, measured["baselines"].dump().c_str());
  json recipe = json::parse(recipe_json(o));
  recipe["corpusHash"] = text_hash(train + held_out);
  recipe["corpus"] =
      "WordNet 3.0 glosses and examples (wordnet-base) + World English Bible (sword-text-web) + Jane Austen's six "
      "novels "
      "(r-cran-janeaustenr), scripts/lm/corpus-text.mjs";
  recipe["commit"] = arg(args, "commit", "unknown");
  recipe["embeddings"] = text_hash(asset);
  recipe["kernels"] = ATTN_TRAIN_KERNELS;
  const std::string out = arg(args, "out", "");
  if (!out.empty()) {
    const auto bytes = write_safetensors(
        language_model_file(trainer, recipe.dump(), measured.dump(), first_losses, !args.count("float32")));
    std::ofstream(out, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    std::printf("wrote %s (%zu bytes)\n", out.c_str(), bytes.size());
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "attn_train_lm: %s\n", error.what());
  return 1;
}
