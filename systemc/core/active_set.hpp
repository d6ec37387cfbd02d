// A set of small indices (ports, VCs) with pending work, visited in ascending order: per-cycle
// loops touch only the members instead of polling every index (docs/performance.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ccnet {

class ActiveSet {
 public:
  void resize(std::size_t n) { words_.assign((n + 63) / 64, 0); }
  void clear() {
    if (words_.size() == 1) words_[0] = 0;  // the common case, without a call to memset
    else
      for (auto& w : words_) w = 0;
  }
  void insert(std::size_t i) { words_[i >> 6] |= std::uint64_t{1} << (i & 63); }
  void erase(std::size_t i) { words_[i >> 6] &= ~(std::uint64_t{1} << (i & 63)); }
  bool contains(std::size_t i) const { return (words_[i >> 6] >> (i & 63)) & 1u; }
  // The set as words() 64-bit words, bit i%64 of word i/64 for index i; merge adds the members
  // of such words (of a set of the same size).
  std::size_t words() const { return words_.size(); }
  const std::uint64_t* data() const { return words_.data(); }
  void merge(const std::uint64_t* w) {
    for (std::size_t k = 0; k < words_.size(); ++k) words_[k] |= w[k];
  }
  // merge, then clears the words w (a slot of a wheel of due times), without a call to memset.
  void take(std::uint64_t* w) {
    if (words_.size() == 1) {
      words_[0] |= w[0];
      w[0] = 0;
      return;
    }
    for (std::size_t k = 0; k < words_.size(); ++k) {
      words_[k] |= w[k];
      w[k] = 0;
    }
  }
  bool empty() const {
    for (const auto w : words_)
      if (w) return false;
    return true;
  }
  // Calls f(i) for every member in ascending order. f may erase i or insert or erase indices
  // above i (an index above i inserted by f is visited in this pass).
  template <class F>
  void for_each(F&& f) {
    for (std::size_t k = 0; k < words_.size(); ++k) {
      std::uint64_t visited = 0;  // bits 0..b of the last member visited in this word
      for (std::uint64_t w = words_[k]; w != 0; w = words_[k] & ~visited) {
        const auto b = static_cast<unsigned>(__builtin_ctzll(w));
        f(k * 64 + b);
        visited = b == 63 ? ~std::uint64_t{0} : (std::uint64_t{2} << b) - 1;
      }
    }
  }

 private:
  std::vector<std::uint64_t> words_;
};

}  // namespace ccnet
