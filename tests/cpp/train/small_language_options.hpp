#pragma once
// A language trainer's options small enough for a test to train in a moment on the fixture text (fixture_text.hpp):
// one layer, four heads, a narrow feed-forward layer, windows of 8, 60 output words.
#include "attn/train/language_trainer.hpp"

inline attn::train::LanguageTrainerOptions small_options(attn::train::Objective objective) {
  attn::train::LanguageTrainerOptions o;
  o.objective = objective;
  o.n_layers = 1, o.n_heads = 4, o.d_ff = 16, o.seq_len = 8, o.batch_size = 4, o.shards = 2, o.output_words = 60;
  o.schedule = {2, 10, 0.1f};
  return o;
}
