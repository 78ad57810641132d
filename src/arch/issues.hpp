// Collecting input problems before throwing (parse -> validate reports every problem it finds).
#pragma once

#include <string>
#include <vector>

namespace tenet::arch::detail {

struct Issue {
  std::string code, where, message;
};

class Issues {
 public:
  void add(std::string code, std::string where, std::string message) {
    list_.push_back({std::move(code), std::move(where), std::move(message)});
  }
  void append(const Issues& other) {
    list_.insert(list_.end(), other.list_.begin(), other.list_.end());
  }
  bool empty() const { return list_.empty(); }
  const std::vector<Issue>& list() const { return list_; }
  // Throws the first problem as an InputError; its message lists how many more there are and
  // where. Does nothing when there is no problem.
  void raise_if_any(const std::string& file) const;

 private:
  std::vector<Issue> list_;
};

}  // namespace tenet::arch::detail
