#pragma once
// The objects JS holds by id (trainers, language models, prepared layers): embind class handles would
// need .delete() from JS, so the bindings keep the objects here and hand out plain integer ids, which
// the JS wrappers release when their object is garbage-collected (FinalizationRegistry).
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

namespace bindings {

template <typename T>
class Registry {
 public:
  // released: the message of get() for an id that is unknown or released, e.g. "trainer: this trainer
  // was released" (JS shows it as a RangeError after the calling method's name).
  explicit Registry(std::string released) : released_(std::move(released)) {}

  // Keeps `object` under a new id (1, 2, … in order) and returns the id.
  int add(std::unique_ptr<T> object) {
    objects_[next_] = std::move(object);
    return next_++;
  }

  // Keeps `object` under a chosen id (below 1, so add() never hands it out), replacing any object there.
  void put(int id, std::unique_ptr<T> object) { objects_[id] = std::move(object); }

  // The object under `id`; std::invalid_argument with the `released` message if there is none.
  T& get(int id) const {
    const auto found = objects_.find(id);
    if (found == objects_.end()) throw std::invalid_argument(released_);
    return *found->second;
  }

  // Destroys the object under `id`; an unknown id is ignored (JS may release twice).
  void release(int id) { objects_.erase(id); }

 private:
  std::string released_;
  std::unordered_map<int, std::unique_ptr<T>> objects_;
  int next_ = 1;
};

}  // namespace bindings
