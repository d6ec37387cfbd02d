// FIFO ring buffer that grows by doubling (allocation only on growth, never per cycle once warm).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace ccnet {

template <class T>
class Ring {
 public:
  explicit Ring(std::size_t capacity = 4) {
    std::size_t c = 1;
    while (c < capacity) c <<= 1;
    buf_.resize(c);
  }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  T& back() { return buf_[(head_ + size_ - 1) & (buf_.size() - 1)]; }
  T& operator[](std::size_t i) { return buf_[(head_ + i) & (buf_.size() - 1)]; }
  const T& operator[](std::size_t i) const { return buf_[(head_ + i) & (buf_.size() - 1)]; }
  void push_back(const T& v) {
    if (size_ == buf_.size()) grow();
    buf_[(head_ + size_) & (buf_.size() - 1)] = v;
    ++size_;
  }
  void push_front(const T& v) {
    if (size_ == buf_.size()) grow();
    head_ = (head_ + buf_.size() - 1) & (buf_.size() - 1);
    buf_[head_] = v;
    ++size_;
  }
  void pop_front() {
    head_ = (head_ + 1) & (buf_.size() - 1);
    --size_;
  }
  void clear() { head_ = size_ = 0; }

 private:
  void grow() {
    std::vector<T> n(buf_.size() * 2);
    for (std::size_t i = 0; i < size_; ++i) n[i] = std::move((*this)[i]);
    buf_.swap(n);
    head_ = 0;
  }
  std::vector<T> buf_;
  std::size_t head_ = 0, size_ = 0;
};

}  // namespace ccnet
