#pragma once
// The trainers JS holds by id (registry.hpp): one registry for every trainer (attn/train/trainer.hpp), those
// of core.createTrainer() and of core.createLanguageTrainer() alike, shared by the binding files.
#include "attn/train/trainer.hpp"
#include "registry.hpp"

namespace bindings {

Registry<attn::train::Trainer>& trainers();

}  // namespace bindings
