#include "attn/train/baselines.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

#include "attn/train/ngram.hpp"

namespace attn::train {

std::vector<std::vector<std::int32_t>> line_sentences(const TokenStream& s) {
  std::vector<std::vector<std::int32_t>> lines;
  for (std::size_t i = 0; i < s.line_starts.size(); ++i) {
    const std::size_t end = i + 1 < s.line_starts.size() ? s.line_starts[i + 1] : s.outputs.size();
    lines.emplace_back(s.outputs.begin() + static_cast<std::ptrdiff_t>(s.line_starts[i]),
                       s.outputs.begin() + static_cast<std::ptrdiff_t>(end));
  }
  return lines;
}

BaselinePerplexities held_out_baselines(const CorpusSource& corpus) {
  const std::size_t V = corpus.vocabulary().size();
  const auto lines = line_sentences(corpus.train_stream());
  const UnigramModel unigram(lines, V);
  const KneserNeyBigram bigram(lines, V);
  const TokenStream& h = corpus.held_out_stream();
  double uni = 0, bi = 0;
  std::size_t line = 0;
  for (std::size_t i = 1; i < h.outputs.size(); ++i) {
    while (line + 1 < h.line_starts.size() && h.line_starts[line + 1] <= i) ++line;
    const std::int32_t previous = h.line_starts[line] == i ? KneserNeyBigram::kSentenceStart : h.outputs[i - 1];
    uni += unigram.log_prob(h.outputs[i]);
    bi += bigram.log_prob(previous, h.outputs[i]);
  }
  const std::size_t n = h.outputs.size() - 1;
  return {std::exp(-uni / static_cast<double>(n)), std::exp(-bi / static_cast<double>(n)), bigram.discount(), n};
}

}  // namespace attn::train
