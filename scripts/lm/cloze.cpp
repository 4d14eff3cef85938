// The cloze benchmark (Taylor 1953, "Cloze procedure"): every item of build/lm/cloze.tsv (scripts/lm/cloze-items.mjs:
// one content word blanked out of a held-out line, which no model trained on) is guessed by five methods, and
// each method's top-1 and top-10 accuracy is printed and written as JSON. Ranks are among the output words
// (cloze.hpp): <unk> is never a guess, and an answer outside a model's output vocabulary is a miss.
//
//   attn_cloze --items build/lm/cloze.tsv --masked web/assets/models/masked.safetensors
//              --causal web/assets/models/causal.safetensors [--corpus build/lm/corpus]
//              [--embeddings web/assets/embeddings.bin] [--json build/lm/cloze.json] [--limit N] [--show N]
//   (--limit: only the first N items; --show: print the first N items with each model's top 5, to read)
//
// Methods:
//   encoder    the masked model on "left [MASK] right", its output at the [MASK]
//   frequent   the training text's most frequent words, in the masked model's output vocabulary (a constant guess)
//   frequent>100  the same past the 100 most frequent output words (an answer is never one of the 100 most
//              frequent words, so the first guess scores 0 by the items' rule)
//   bigram     ln p(w | left word) + ln p(right word | w), the interpolated Kneser–Ney bigram (ngram.hpp) counted
//              on the training text's tokens over the masked model's output vocabulary (cloze.hpp)
//   decoder    the causal model on "left" alone, its output at the last token (the next word)
// Every text is tokenized as the explorer tokenizes (corpus.hpp language_tokens; the models' own run()). Beside the
// ranks: each model's mean p(<unk>) at the blank (the mass it gives every word outside its output vocabulary).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "attn/text/embeddings.hpp"
#include "attn/train/baselines.hpp"
#include "attn/train/cloze.hpp"
#include "attn/train/corpus.hpp"
#include "attn/train/language_model_file.hpp"
#include "attn/train/ngram.hpp"
#include "attn/train/safetensors.hpp"
#include "tool_args.hpp"

using namespace attn::train;
using json = nlohmann::json;
using namespace attn::tools;

namespace {

struct Item {
  std::string left, answer, right;
};

// The TSV's items: left<TAB>answer<TAB>right, lines starting with '#' are comments.
std::vector<Item> read_items(const std::string& path) {
  std::vector<Item> items;
  std::size_t from = 0, number = 0;
  const std::string text = read_file(path);
  while (from < text.size()) {
    std::size_t to = text.find('\n', from);
    if (to == std::string::npos) to = text.size();
    const std::string line = text.substr(from, to - from);
    from = to + 1, ++number;
    if (line.empty() || line[0] == '#') continue;
    const std::size_t a = line.find('\t'), b = a == std::string::npos ? a : line.find('\t', a + 1);
    if (b == std::string::npos)
      throw std::invalid_argument(path + ":" + std::to_string(number) + ": not left<TAB>answer<TAB>right");
    items.push_back({line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1)});
  }
  if (items.empty()) throw std::invalid_argument(path + ": no items");
  return items;
}

// The output id of the answer (one token by the items' rule: lowercase letters only); unk() if it is not one
// word the vocabulary has.
std::int32_t answer_id(const std::string& answer, const attn::EmbeddingTable& table,
                       const OutputVocabulary& vocabulary) {
  const std::vector<attn::Token> tokens = language_tokens(answer, table);
  return tokens.size() == 1 ? vocabulary.id_of(tokens[0].key) : vocabulary.unk();
}

}  // namespace

int main(int argc, char** argv) try {
  const auto args =
      parse_args(argc, argv, {"causal", "corpus", "embeddings", "items", "json", "limit", "masked", "show"});
  const auto started = std::chrono::steady_clock::now();
  const auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  const std::string items_path = arg(args, "items", "build/lm/cloze.tsv");
  std::vector<Item> items = read_items(items_path);
  const std::size_t limit = std::stoul(arg(args, "limit", "0"));
  if (limit && items.size() > limit) items.resize(limit);
  const std::string asset = read_file(arg(args, "embeddings", "web/assets/embeddings.bin"));
  const auto table =
      attn::EmbeddingTable::from_bytes(reinterpret_cast<const std::uint8_t*>(asset.data()), asset.size());
  const std::string masked_path = arg(args, "masked", "web/assets/models/masked.safetensors");
  const std::string causal_path = arg(args, "causal", "web/assets/models/causal.safetensors");
  LanguageModel masked = read_language_model(read_safetensors_file(masked_path), masked_path, table);
  LanguageModel causal = read_language_model(read_safetensors_file(causal_path), causal_path, table);
  if (masked.objective() != Objective::masked || causal.objective() != Objective::causal)
    throw std::invalid_argument("--masked must be a masked model and --causal a causal one");
  const OutputVocabulary& vocabulary = masked.vocabulary();
  const std::int32_t unk = vocabulary.unk();

  // The bigram and the word counts, over the training text's tokens in the masked model's output vocabulary.
  const std::string train = read_file(arg(args, "corpus", "build/lm/corpus") + "/train.raw.txt");
  const TokenStream stream = token_stream(train, table, vocabulary);
  const KneserNeyBigram bigram(line_sentences(stream), vocabulary.size());
  std::vector<double> frequency(vocabulary.size(), 0);
  for (const std::int32_t id : stream.outputs) frequency[static_cast<std::size_t>(id)] += 1;
  std::vector<double> content_frequency = frequency;  // the output vocabulary is by frequency: its first 100 words
  for (std::size_t id = 0; id < 100 && id < content_frequency.size(); ++id) content_frequency[id] = 0;
  std::printf("%zu items; bigram over %zu training tokens (D = %.3f); %.1f s to load\n", items.size(),
              stream.outputs.size(), bigram.discount(), seconds());
  std::fflush(stdout);

  const char* names[] = {"encoder", "frequent", "bigram", "decoder", "frequent>100"};
  ClozeTally tally[5];
  std::size_t oov_masked = 0, oov_causal = 0, masked_tokens = 0, shown = 0;
  double unk_masked = 0, unk_causal = 0;  // the models' p(<unk>) at the blank, summed over the items
  const std::size_t show = std::stoul(arg(args, "show", "0"));
  for (const Item& item : items) {
    const std::int32_t a = answer_id(item.answer, table, vocabulary);
    const std::int32_t c = answer_id(item.answer, table, causal.vocabulary());
    oov_masked += a == unk, oov_causal += c == causal.vocabulary().unk();
    const std::string text = item.left + " [MASK]" + (item.right.empty() ? "" : " " + item.right);
    const LanguageRun run = masked.run(text, 5, OutputPositions::masks);
    if (run.positions.size() != 1) throw std::runtime_error("no single [MASK] in '" + text + "'");
    unk_masked += run.unk[0];
    if (a == unk) {
      tally[0].add_miss(), tally[1].add_miss(), tally[2].add_miss(), tally[4].add_miss();
    } else {
      masked_tokens += run.tokens.size();
      tally[0].add_rank(word_rank(run.logits.data(), vocabulary.size(), a, unk));
      if (shown < show)
        std::printf("%s [%s] %s\n  encoder:", item.left.c_str(), item.answer.c_str(), item.right.c_str());
      for (std::size_t k = 0; shown < show && k < 5; ++k)
        std::printf(" %s", vocabulary.word(static_cast<std::size_t>(run.top[0][k].id)).c_str());
      tally[1].add_rank(word_rank(frequency, a, unk));
      tally[4].add_rank(word_rank(content_frequency, a, unk));
      // The blank's neighbours as tokens: the last token of the left text, the first of the right one.
      const std::vector<attn::Token> left = language_tokens(item.left, table),
                                     right = language_tokens(item.right, table);
      const std::int32_t before = left.empty() ? KneserNeyBigram::kSentenceStart : vocabulary.id_of(left.back().key);
      const std::int32_t after = right.empty() ? kNoRight : vocabulary.id_of(right.front().key);
      tally[2].add_rank(word_rank(two_sided_bigram_scores(bigram, before, after, unk), a, unk));
    }
    const LanguageRun next = causal.run(item.left, 5, std::vector<std::int64_t>{-1});
    unk_causal += next.unk[0];
    if (c == causal.vocabulary().unk()) {
      tally[3].add_miss();
    } else {
      const LanguageRun& run = next;
      tally[3].add_rank(word_rank(run.logits.data(), causal.vocabulary().size(), c, causal.vocabulary().unk()));
      if (shown < show && a != unk) std::printf("\n  decoder:");
      for (std::size_t k = 0; shown < show && a != unk && k < 5; ++k)
        std::printf(" %s", causal.vocabulary().word(static_cast<std::size_t>(run.top[0][k].id)).c_str());
    }
    if (shown < show && a != unk) std::printf("\n"), ++shown;
  }
  const double elapsed = seconds();

  std::printf("\ncloze items: %zu (answers outside the output vocabulary: %zu masked, %zu causal; counted as misses)\n",
              items.size(), oov_masked, oov_causal);
  const double n = static_cast<double>(items.size());
  std::printf("mean p(<unk>) at the blank: encoder %.4f, decoder %.4f\n", unk_masked / n, unk_causal / n);
  std::printf("mean tokens of an encoder text: %.1f\n",
              static_cast<double>(masked_tokens) / static_cast<double>(items.size() - oov_masked));
  std::printf("%-12s  %7s  %7s\n", "method", "top-1", "top-10");
  json methods = json::object();
  for (int m = 0; m < 5; ++m) {
    const ClozeTally& t = tally[m];
    std::printf("%-12s  %7.4f  %7.4f\n", names[m], t.top1_rate(), t.top10_rate());
    methods[names[m]] = {
        {"top1", t.top1_rate()}, {"top10", t.top10_rate()}, {"top1Count", t.top1}, {"top10Count", t.top10}};
  }
  std::printf("%.1f s in all\n", elapsed);
  const std::string out = arg(args, "json", "");
  if (!out.empty()) {
    const json result = {{"items", items.size()},
                         {"itemsFile", items_path},
                         {"outOfVocabulary", {{"masked", oov_masked}, {"causal", oov_causal}}},
                         {"meanUnkProbability", {{"masked", unk_masked / n}, {"causal", unk_causal / n}}},
                         {"models", {{"masked", masked_path}, {"causal", causal_path}}},
                         {"methods", methods},
                         {"seconds", elapsed}};
    std::ofstream(out) << result.dump(2) << "\n";
    std::printf("wrote %s\n", out.c_str());
  }
  return 0;
} catch (const std::exception& error) {
  std::fprintf(stderr, "attn_cloze: %s\n", error.what());
  return 1;
}
