#pragma once
// The training tool's measurements of a model file it already wrote (train_lm.cpp's --measure-heads, --probe,
// --evaluate): each reads a safetensors model file (language_model_file.hpp), prints what it measures, and
// (all but --probe) records it in the file's __metadata__; the tensors and their checksum are unchanged.
// Each returns the tool's exit status and throws std::exception for a file it cannot read.
#include <string>

#include "attn/text/embeddings.hpp"

namespace attn::tools {

// Every head of the model on the held-out text (head_statistics.hpp), printed and recorded as "heads" (a JSON
// array); for the causal model also its loss on repeated random words, as "repeated_words".
int measure_heads(const std::string& path, const attn::EmbeddingTable& table, const std::string& held_out);

// Every head's scores on repeated random words at each R of `repeats` (comma-separated), and (causal) how much
// easier the second copy is than the first; with a copy file (text<TAB>word lines, '#' comments:
// scripts/lm/copy-sentences.tsv), the causal model's next word after each text and the word's rank. Prints only.
int probe(const std::string& path, const attn::EmbeddingTable& table, const std::string& repeats,
          const std::string& copy);

// The held-out loss (nats) of the model at `path` on the (coarser) output vocabulary of the model at `coarse_path`:
// each word the other has is its own class, every other output (its <unk> included) falls into that vocabulary's
// <unk>, and a scored position costs −ln Σ p over its target's class. Models whose output vocabularies differ are
// compared on the same events this way (a larger vocabulary is not charged for naming words the smaller one calls
// <unk>). Printed only.
int evaluate_merged(const std::string& path, const std::string& coarse_path, const attn::EmbeddingTable& table,
                    const std::string& train, const std::string& held_out);

// The stored (float16) parameters on a held-out text with the recipe's trainer (loss in nats, perplexity, top-1,
// top-5), beside the float32 measurement the file records; recorded under `key` ("measured_file": the corpus's
// held-out text).
int evaluate_file(const std::string& path, const attn::EmbeddingTable& table, const std::string& train,
                  const std::string& held_out, const std::string& key);

}  // namespace attn::tools
