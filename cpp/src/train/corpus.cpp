#include "attn/train/corpus.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace attn::train {

namespace {
const std::string kUnkWord = "<unk>";
}  // namespace

OutputVocabulary::OutputVocabulary(std::vector<std::string> words, const EmbeddingTable& table)
    : words_(std::move(words)) {
  for (std::size_t i = 0; i < words_.size(); ++i) {
    const std::int64_t row = table.id_of(words_[i]);
    if (row < 0) throw std::invalid_argument("output vocabulary: the word vectors lack '" + words_[i] + "'");
    if (!index_.emplace(words_[i], static_cast<std::int32_t>(i)).second) {
      throw std::invalid_argument("output vocabulary: '" + words_[i] + "' is listed twice");
    }
    input_rows_.push_back(static_cast<std::int32_t>(row));
  }
  input_rows_.push_back(unk_input(table));
}

const std::string& OutputVocabulary::word(std::size_t id) const {
  if (id > words_.size()) {
    throw std::out_of_range("output id must be in [0, " + std::to_string(words_.size()) + "], got " +
                            std::to_string(id));
  }
  return id == words_.size() ? kUnkWord : words_[id];
}

std::int32_t OutputVocabulary::id_of(const std::string& key) const {
  const auto found = index_.find(key);
  return found == index_.end() ? unk() : found->second;
}

std::vector<float> frozen_rows(const EmbeddingTable& table) {
  const std::size_t W = table.vocab_size(), d = table.dim();
  std::vector<float> rows((W + 1) * d);
  for (std::size_t i = 0; i < W; ++i) {
    const auto v = table.vector(i);
    std::copy(v.begin(), v.end(), rows.begin() + static_cast<std::ptrdiff_t>(i * d));
  }
  std::copy(table.mask_vector().begin(), table.mask_vector().end(), rows.begin() + static_cast<std::ptrdiff_t>(W * d));
  return rows;
}

std::vector<Token> language_tokens(const std::string& text, const EmbeddingTable& table) {
  std::vector<Token> tokens = tokenize(text, table), merged;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (i + 2 < tokens.size() && tokens[i].text == "[" && tokens[i + 1].text == "MASK" && tokens[i + 2].text == "]" &&
        tokens[i].end == tokens[i + 1].start && tokens[i + 1].end == tokens[i + 2].start) {
      merged.push_back({"[MASK]", "[MASK]", tokens[i].start, tokens[i + 2].end});
      i += 2;
      continue;
    }
    merged.push_back(std::move(tokens[i]));
  }
  return merged;
}

std::vector<std::int32_t> input_ids_of(const std::vector<Token>& tokens, const EmbeddingTable& table) {
  std::vector<std::int32_t> ids;
  ids.reserve(tokens.size());
  for (const Token& t : tokens) {
    const std::int64_t row = t.key == "[MASK]" ? mask_input(table) : table.id_of(t.key);
    ids.push_back(row >= 0 ? static_cast<std::int32_t>(row) : unk_input(table));
  }
  return ids;
}

namespace {
// Calls f(line) for every line of text (split at '\n').
template <typename F>
void for_each_line(const std::string& text, F&& f) {
  std::size_t from = 0;
  while (from < text.size()) {
    std::size_t to = text.find('\n', from);
    if (to == std::string::npos) to = text.size();
    f(text.substr(from, to - from));
    from = to + 1;
  }
}
}  // namespace

OutputVocabulary most_frequent_words(const std::string& text, const EmbeddingTable& table, std::size_t words,
                                     OutputVocabularySource source) {
  if (words < kMinOutputWords || words > kMaxOutputWords) {
    throw std::out_of_range("outputWords must be in [" + std::to_string(kMinOutputWords) + ", " +
                            std::to_string(kMaxOutputWords) + "], got " + std::to_string(words));
  }
  const bool glove = source == OutputVocabularySource::glove;
  if (glove && words > table.vocab_size()) {
    throw std::out_of_range("outputWords must be at most the word vectors' " + std::to_string(table.vocab_size()) +
                            " words with outputVocabulary 'glove', got " + std::to_string(words));
  }
  std::unordered_map<std::string, std::size_t> counts;
  for_each_line(text, [&](const std::string& line) {
    for (const Token& t : language_tokens(line, table)) {
      if (table.contains(t.key)) ++counts[t.key];
    }
  });
  if (counts.empty()) throw std::invalid_argument("the training text has no word the word vectors know");
  std::vector<std::pair<std::string, std::size_t>> ranked(counts.begin(), counts.end());
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  ranked.resize(std::min(words, ranked.size()));
  std::vector<std::string> list;
  for (auto& entry : ranked) list.push_back(std::move(entry.first));
  for (std::size_t row = 0; glove && list.size() < words; ++row) {
    if (!counts.count(table.word(row))) list.push_back(table.word(row));  // a word the text lacks
  }
  return OutputVocabulary(std::move(list), table);
}

TokenStream token_stream(const std::string& text, const EmbeddingTable& table, const OutputVocabulary& vocabulary) {
  TokenStream stream;
  for_each_line(text, [&](const std::string& line) {
    const std::vector<Token> tokens = language_tokens(line, table);
    if (tokens.empty()) return;
    stream.line_starts.push_back(stream.inputs.size());
    for (const std::int32_t id : input_ids_of(tokens, table)) {
      stream.inputs.push_back(id);
      stream.unknown += id == unk_input(table);
    }
    for (const Token& t : tokens) stream.outputs.push_back(vocabulary.id_of(t.key));
  });
  return stream;
}

std::string text_hash(const std::string& text) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(text)));
  return hex;
}

}  // namespace attn::train
