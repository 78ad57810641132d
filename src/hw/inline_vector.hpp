// A vector holding up to N elements in place (no allocation), more on the heap: the hardware
// model's per-operand and per-partition plans (a Model is built per tiling candidate; its few
// operands need no allocation).
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace tenet::hw::detail {

template <typename T, std::size_t N>
class InlineVector {
 public:
  // More than N elements: all of them on the heap from then on.
  void reserve(std::size_t n) {
    if (n > N) spill(n);
  }
  void push_back(const T& x) {
    if (!on_heap_ && n_ == N) spill(2 * N);
    if (on_heap_)
      heap_.push_back(x);
    else
      inline_[n_] = x;
    ++n_;
  }
  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  T* begin() { return data(); }
  T* end() { return data() + n_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + n_; }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T& back() { return data()[n_ - 1]; }
  const T& back() const { return data()[n_ - 1]; }

 private:
  T* data() { return on_heap_ ? heap_.data() : inline_.data(); }
  const T* data() const { return on_heap_ ? heap_.data() : inline_.data(); }
  void spill(std::size_t capacity) {
    if (on_heap_) {
      heap_.reserve(capacity);
      return;
    }
    heap_.reserve(capacity);
    heap_.assign(inline_.begin(), inline_.begin() + static_cast<std::ptrdiff_t>(n_));
    on_heap_ = true;
  }

  std::array<T, N> inline_{};
  std::vector<T> heap_;
  std::size_t n_ = 0;
  bool on_heap_ = false;
};

}  // namespace tenet::hw::detail
