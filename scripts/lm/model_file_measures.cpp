// Measurements of a written model file (model_file_measures.hpp), for the training tool (train_lm.cpp).
#include "model_file_measures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/train/head_statistics.hpp"
#include "attn/train/language_model_file.hpp"
#include "attn/train/language_trainer.hpp"
#include "attn/train/safetensors.hpp"
#include "tool_args.hpp"

namespace attn::tools {

using namespace attn::train;
using json = nlohmann::json;

int measure_heads(const std::string& path, const attn::EmbeddingTable& table, const std::string& held_out) {
  SafeTensors file = read_safetensors_file(path);
  LanguageModel model = read_language_model(file, path, table);
  json heads = json::array();
  std::printf(
      "%s: heads on the held-out text (induction: on repeated random words)\n"
      "layer head  previous  next  self  first  same word  prefix  induction  entropy (bits)  label\n",
      path.c_str());
  for (const HeadStatistics& h : head_statistics(model, held_out)) {
    const auto& s = h.scores;
    std::printf("%5zu %4zu  %8.3f %5.3f %5.3f %6.3f %10.3f %7.3f %10.3f %15.2f  %s\n", h.layer, h.head, s[0], s[1],
                s[2], s[3], s[4], s[5], s[6], h.entropy_bits, h.label.c_str());
    heads.push_back({{"layer", h.layer},
                     {"head", h.head},
                     {"previous", s[0]},
                     {"next", s[1]},
                     {"self", s[2]},
                     {"first", s[3]},
                     {"sameWord", s[4]},
                     {"prefix", s[5]},
                     {"induction", s[6]},
                     {"entropyBits", h.entropy_bits},
                     {"label", h.label}});
  }
  file.metadata["heads"] = heads.dump();
  if (model.objective() == Objective::causal) {
    const RepeatedWordsScores r = repeated_words_probe(model);
    file.metadata["repeated_words"] = json({{"repeat", r.repeat},
                                            {"sequences", r.sequences},
                                            {"firstHalfLoss", r.first_half_loss},
                                            {"secondHalfLoss", r.second_half_loss}})
                                          .dump();
  }
  const auto bytes = write_safetensors(file);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return 0;
}

int probe(const std::string& path, const attn::EmbeddingTable& table, const std::string& repeats,
          const std::string& copy) {
  LanguageModel model = read_language_model(read_safetensors_file(path), path, table);
  if (!copy.empty() && model.objective() == Objective::causal) {
    std::stringstream lines(read_file(copy));
    std::size_t items = 0, first = 0;
    for (std::string line; std::getline(lines, line);) {
      const std::size_t tab = line.find('\t');
      if (line.empty() || line[0] == '#' || tab == std::string::npos) continue;
      const std::string text = line.substr(0, tab), word = line.substr(tab + 1);
      const LanguageRun run = model.run(text, 5, std::vector<std::int64_t>{-1});
      const std::int32_t id = model.vocabulary().id_of(word);
      const float* z = run.logits.data();
      std::size_t rank = 1;
      for (std::size_t o = 0; o + 1 < model.config().outputs(); ++o) rank += z[o] > z[id];
      ++items, first += rank == 1;
      std::printf("%-80s → %-8s rank %4zu; top: %s %s %s\n", text.c_str(), word.c_str(), rank,
                  model.vocabulary().word(static_cast<std::size_t>(run.top[0][0].id)).c_str(),
                  model.vocabulary().word(static_cast<std::size_t>(run.top[0][1].id)).c_str(),
                  model.vocabulary().word(static_cast<std::size_t>(run.top[0][2].id)).c_str());
    }
    std::printf("copied word first: %zu of %zu\n", first, items);
  }
  std::stringstream list(repeats);
  for (std::string item; std::getline(list, item, ',');) {
    const RepeatedWordsScores r = repeated_words_probe(model, std::stoul(item));
    std::printf(
        "%s: %zu sequences of %zu random words twice (%zu tokens)\nlayer head  previous  duplicate  induction\n",
        path.c_str(), r.sequences, r.repeat, 2 * r.repeat);
    for (std::size_t lh = 0; lh < r.induction.size(); ++lh) {
      std::printf("%5zu %4zu  %8.3f %10.3f %10.3f\n", lh / model.config().n_heads + 1, lh % model.config().n_heads + 1,
                  r.previous[lh], r.duplicate[lh], r.induction[lh]);
    }
    if (model.objective() == Objective::causal) {
      std::printf("loss (nats/word): first copy %.3f, second copy %.3f: the second is %.3f easier\n", r.first_half_loss,
                  r.second_half_loss, r.first_half_loss - r.second_half_loss);
    }
  }
  return 0;
}

int evaluate_merged(const std::string& path, const std::string& coarse_path, const attn::EmbeddingTable& table,
                    const std::string& train, const std::string& held_out) {
  const SafeTensors file = read_safetensors_file(path);
  const LanguageModel model = read_language_model(file, path, table);
  const LanguageModel coarse = read_language_model(read_safetensors_file(coarse_path), coarse_path, table);
  Trainer trainer = language_trainer(options_from_recipe(file.metadata.at("recipe")), table, train, held_out);
  trainer.set_parameters(model.parameters());
  const std::size_t V = trainer.config().outputs();
  std::vector<std::int32_t> merged(V);  // output id → its class in the coarse vocabulary
  for (std::size_t o = 0; o < V; ++o) merged[o] = coarse.vocabulary().id_of(model.vocabulary().word(o));
  double loss = 0;
  std::size_t tokens = 0;
  for (const Batch& batch : trainer.source().held_out(64, 0, 0)) {
    for (std::size_t b = 0; b < batch.batch_size; ++b) {
      const std::size_t T = batch.seq_len;
      const std::vector<std::int32_t> sequence(batch.tokens.begin() + static_cast<std::ptrdiff_t>(b * T),
                                               batch.tokens.begin() + static_cast<std::ptrdiff_t>((b + 1) * T));
      const std::vector<float> logits = trainer.predict(sequence);
      for (std::size_t t = 0; t < T; ++t) {
        if (!batch.scored[b * T + t]) continue;
        const float* z = logits.data() + t * V;
        const std::int32_t target_class = merged[static_cast<std::size_t>(batch.targets[b * T + t])];
        const float top = *std::max_element(z, z + V);
        double all = 0, in_class = 0;
        for (std::size_t o = 0; o < V; ++o) {
          const double e = std::exp(static_cast<double>(z[o] - top));
          all += e;
          if (merged[o] == target_class) in_class += e;
        }
        loss -= std::log(in_class / all), ++tokens;
      }
    }
  }
  std::printf("%s on the output vocabulary of %s (%zu outputs): held-out loss %.4f, perplexity %.2f over %zu tokens\n",
              path.c_str(), coarse_path.c_str(), coarse.config().outputs(), loss / static_cast<double>(tokens),
              std::exp(loss / static_cast<double>(tokens)), tokens);
  return 0;
}

int evaluate_file(const std::string& path, const attn::EmbeddingTable& table, const std::string& train,
                  const std::string& held_out, const std::string& key) {
  SafeTensors file = read_safetensors_file(path);
  LanguageModel model = read_language_model(file, path, table);
  Trainer trainer = language_trainer(options_from_recipe(file.metadata.at("recipe")), table, train, held_out);
  // The output ids are the training text's most frequent words: another training text would score other words
  if (corpus_of(trainer).vocabulary().words() != model.vocabulary().words()) {
    throw std::invalid_argument(
        path + ": its output vocabulary is not this training text's: pass the corpus it was trained on");
  }
  std::vector<float> parameters = model.parameters();
  trainer.set_parameters(parameters);
  const Evaluation e = trainer.evaluate();
  const json recorded = json::parse(file.metadata.at("measured"));
  std::printf(
      "%s (float16 as stored): held-out loss %.4f, perplexity %.3f, top-1 %.4f, top-5 %.4f over %zu tokens; "
      "recorded at training (float32): perplexity %.3f, top-1 %.4f; most frequent words: top-1 %.4f, top-5 %.4f\n",
      path.c_str(), e.loss, e.perplexity, e.top1, e.top5, e.tokens, recorded.value("heldOutPerplexity", 0.0),
      recorded.value("heldOutTop1", 0.0), e.frequent_top1, e.frequent_top5);
  file.metadata[key] = json({{"heldOutLoss", e.loss},
                             {"heldOutPerplexity", e.perplexity},
                             {"heldOutTop1", e.top1},
                             {"heldOutTop5", e.top5},
                             {"heldOutTokens", e.tokens},
                             {"frequentTop1", e.frequent_top1},
                             {"frequentTop5", e.frequent_top5}})
                           .dump();
  const auto bytes = write_safetensors(file);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return 0;
}

}  // namespace attn::tools
