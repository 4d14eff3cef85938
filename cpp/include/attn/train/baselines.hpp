#pragma once
// The count-based baselines a language trainer's held-out loss is drawn against (ngram.hpp): an add-one
// unigram and an interpolated Kneser–Ney bigram model, both counted on the trainer's training text over its
// output vocabulary (<unk> an ordinary id), and scored on the tokens the causal model is scored on: every
// held-out token after the first, the bigram's context restarting at each line (a line's first word is
// conditioned on <s>). A model that beats the unigram line has learned something about context-free word
// frequency and more; one that beats the bigram line uses more than the previous word.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/train/language_trainer.hpp"

namespace attn::train {

struct BaselinePerplexities {
  double unigram = 0;          // exp(−mean ln p(w)) over the scored held-out tokens
  double bigram = 0;           // exp(−mean ln p(w | previous word or <s>))
  double bigram_discount = 0;  // the Kneser–Ney D the training counts gave
  std::size_t tokens = 0;      // scored held-out tokens
};

// Throws std::invalid_argument (ngram.hpp) if the training text holds no bigram seen exactly once.
BaselinePerplexities held_out_baselines(const CorpusSource& corpus);

// A token stream's lines as sentences of output ids: the text the n-gram baselines count (ngram.hpp).
std::vector<std::vector<std::int32_t>> line_sentences(const TokenStream& stream);

}  // namespace attn::train
