#pragma once
// English text as a language model reads it: tokenized as the explorer tokenizes (tokenizer.hpp, with
// the word vectors' vocabulary), each token an input id and an output id.
//
// Input ids (the model's frozen and learned input rows, parameters.hpp):
//   0 … W − 1   the W words of the embedding table (GloVe vectors, frozen)
//   W           [MASK], the explorer's mask token: the mean word vector (frozen)
//   W + 1       <unk>, every word the table lacks: one learned vector
// Output ids: the V most frequent words of the training text that the table has (ties in byte order),
// then <unk> (id V) for every other word.
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "attn/core/names.hpp"
#include "attn/text/embeddings.hpp"

namespace attn::train {

// The limits of the output vocabulary's size V (words, without <unk>): up to every word of the GloVe table (25,477).
inline constexpr std::size_t kMinOutputWords = 1;
inline constexpr std::size_t kMaxOutputWords = 32768;

// Where the output words come from: the training text's most frequent words that have a vector, or those followed
// by every other word of the embedding table (in the table's order, by frequency in GloVe's corpus), so that the
// output layer can name words the training text lacks. Their JS names go through names.hpp.
enum class OutputVocabularySource { text, glove };
inline constexpr NamedValue<OutputVocabularySource> kOutputVocabularyNames[] = {
    {"text", OutputVocabularySource::text}, {"glove", OutputVocabularySource::glove}};

struct TokenStream {
  std::vector<std::int32_t> inputs;      // input id of every token, lines one after another
  std::vector<std::int32_t> outputs;     // output id of every token
  std::vector<std::size_t> line_starts;  // index of each non-empty line's first token (ascending)
  std::size_t unknown = 0;               // tokens whose input is <unk>
};

class OutputVocabulary {
 public:
  OutputVocabulary() = default;
  // The given words (by frequency), each of which must be in the table; throws std::invalid_argument
  // naming a word the table lacks or a repeated word.
  OutputVocabulary(std::vector<std::string> words, const EmbeddingTable& table);

  std::size_t size() const { return words_.size() + 1; }  // V + 1 outputs, <unk> last
  std::int32_t unk() const { return static_cast<std::int32_t>(words_.size()); }
  const std::vector<std::string>& words() const { return words_; }
  // The word of output id `id`, "<unk>" for unk(); throws std::out_of_range outside [0, size()).
  const std::string& word(std::size_t id) const;
  // Output id of a lookup key (Token::key): unk() for a word outside the vocabulary.
  std::int32_t id_of(const std::string& key) const;
  // (size()) the input id of each output (a tied output layer's rows): the table row, <unk>'s for unk().
  const std::vector<std::int32_t>& input_rows() const { return input_rows_; }

 private:
  std::vector<std::string> words_;
  std::unordered_map<std::string, std::int32_t> index_;
  std::vector<std::int32_t> input_rows_;
};

// The ids of [MASK] and <unk> for a table of W words, and the number of input ids (W + 2).
inline std::int32_t mask_input(const EmbeddingTable& table) { return static_cast<std::int32_t>(table.vocab_size()); }
inline std::int32_t unk_input(const EmbeddingTable& table) { return static_cast<std::int32_t>(table.vocab_size() + 1); }
inline std::size_t input_ids(const EmbeddingTable& table) { return table.vocab_size() + 2; }

// The frozen input rows ((W + 1), d): the table's vectors, then the [MASK] vector.
std::vector<float> frozen_rows(const EmbeddingTable& table);

// The explorer's tokens of text (tokenize(text, table)), with "[MASK]" typed as such (the three tokens
// "[", "MASK", "]" side by side) merged into one token whose key is "[MASK]".
std::vector<Token> language_tokens(const std::string& text, const EmbeddingTable& table);

// Input ids of tokens: the table's row, mask_input for the key "[MASK]", unk_input for the rest.
std::vector<std::int32_t> input_ids_of(const std::vector<Token>& tokens, const EmbeddingTable& table);

// The V = words most frequent lookup keys of `text` that the table has (ties in byte order); with source glove,
// followed by the table's other words in its order, up to V. Throws std::out_of_range if words is outside
// [kMinOutputWords, kMaxOutputWords] or (glove) above the table's size, std::invalid_argument if the text has no
// word of the table.
OutputVocabulary most_frequent_words(const std::string& text, const EmbeddingTable& table, std::size_t words,
                                     OutputVocabularySource source = OutputVocabularySource::text);

// Tokenizes text (lines separated by '\n'; empty lines skipped) into a stream.
TokenStream token_stream(const std::string& text, const EmbeddingTable& table, const OutputVocabulary& vocabulary);

// FNV-1a 64 of text, as 16 hex digits (the corpus hash recorded with trained weights).
std::string text_hash(const std::string& text);

}  // namespace attn::train
