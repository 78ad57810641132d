// A thread-safe memo table: each key is computed once, even when several threads ask for it at
// the same time (the others wait for the first one's result).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <future>
#include <mutex>
#include <unordered_map>

namespace tenet::sweep {

template <class Key, class Value, class Hash = std::hash<Key>, class Equal = std::equal_to<Key>>
class Memo {
 public:
  // The value for `key`, computing it with `compute()` if nobody has. An exception thrown by
  // `compute` is rethrown to every caller of that key.
  template <class F>
  Value get(const Key& key, F&& compute) {
    requests_.fetch_add(1, std::memory_order_relaxed);
    std::promise<Value> promise;
    std::shared_future<Value> future;
    bool mine = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto found = table_.find(key);
      if (found != table_.end()) {
        future = found->second;
      } else {
        future = promise.get_future().share();
        table_.emplace(key, future);
        mine = true;
      }
    }
    if (!mine) return future.get();  // computed (or being computed) by another caller
    computed_.fetch_add(1, std::memory_order_relaxed);
    try {
      promise.set_value(compute());
    } catch (...) {
      promise.set_exception(std::current_exception());
    }
    return future.get();
  }

  std::uint64_t requests() const { return requests_.load(); }  // calls of get()
  std::uint64_t computed() const { return computed_.load(); }  // calls of compute()
  std::size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return table_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_map<Key, std::shared_future<Value>, Hash, Equal> table_;
  std::atomic<std::uint64_t> requests_{0}, computed_{0};
};

}  // namespace tenet::sweep
