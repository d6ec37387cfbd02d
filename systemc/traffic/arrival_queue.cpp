#include "traffic/arrival_queue.hpp"

#include <algorithm>

namespace ccnet {

void ArrivalQueue::configure(std::uint32_t nodes, std::uint32_t classes) {
  words_ = (static_cast<std::size_t>(std::max<std::uint32_t>(nodes, 1)) * std::max<std::uint32_t>(classes, 1) + 63) / 64;
  // Beyond kMaxWords (2 MB of wheel) every arrival goes to the heap (nodes_ 0: no key fits).
  nodes_ = words_ <= kMaxWords ? nodes : 0;
  classes_ = classes;
  wheel_.assign(nodes_ ? kWheel * words_ : 0, 0);
}

void ArrivalQueue::push(const Arrival& a) {
  if (a.at >= cursor_ && a.at - cursor_ < kWheel && a.src() < nodes_ && a.cls() < classes_) {
    const std::uint64_t key = std::uint64_t{a.cls()} * nodes_ + a.src();
    const std::size_t w = static_cast<std::size_t>(a.at & (kWheel - 1)) * words_ + key / 64;
    const std::uint64_t bit = std::uint64_t{1} << (key % 64);
    if (!(wheel_[w] & bit)) {
      wheel_[w] |= bit;
      ++in_wheel_;
      if (a.at == cursor_) scan_ = std::min<std::size_t>(scan_, key / 64);
      return;
    }
  }
  heap_push(a);  // beyond the wheel, before its cursor, or the same key twice in a cycle
}

bool ArrivalQueue::take(Cycle now, Arrival& a) {
  // The wheel's first arrival due by `now`: the lowest key of the first non-empty cycle.
  bool found = false;
  std::size_t w = 0;
  while (in_wheel_ != 0 && cursor_ <= now) {
    const std::size_t base = static_cast<std::size_t>(cursor_ & (kWheel - 1)) * words_;
    while (scan_ < words_ && wheel_[base + scan_] == 0) ++scan_;
    if (scan_ < words_) {
      w = base + scan_;
      found = true;
      break;
    }
    ++cursor_;
    scan_ = 0;
  }
  if (!found && cursor_ <= now) {  // nothing in the wheel due by now: it moves on to now + 1
    cursor_ = now + 1;
    scan_ = 0;
  }
  if (found) {
    const std::uint64_t key = static_cast<std::uint64_t>(scan_) * 64 + static_cast<unsigned>(__builtin_ctzll(wheel_[w]));
    const Arrival wheel_first(cursor_, static_cast<std::uint32_t>(key / nodes_), static_cast<NodeId>(key % nodes_));
    if (heap_.empty() || heap_.front() > wheel_first) {
      wheel_[w] &= wheel_[w] - 1;
      --in_wheel_;
      a = wheel_first;
      return true;
    }
  }
  if (heap_.empty() || heap_.front().at > now) return false;
  a = heap_.front();
  heap_pop();
  return true;
}

void ArrivalQueue::heap_push(const Arrival& a) {
  std::size_t k = heap_.size();
  heap_.push_back(a);
  while (k > 0) {
    const std::size_t up = (k - 1) / 2;
    if (!(heap_[up] > a)) break;
    heap_[k] = heap_[up];
    k = up;
  }
  heap_[k] = a;
}

void ArrivalQueue::heap_pop() {
  const Arrival last = heap_.back();
  heap_.pop_back();
  const std::size_t n = heap_.size();
  if (n == 0) return;
  std::size_t k = 0;
  for (;;) {
    std::size_t c = 2 * k + 1;
    if (c >= n) break;
    if (c + 1 < n && heap_[c] > heap_[c + 1]) ++c;
    if (!(last > heap_[c])) break;
    heap_[k] = heap_[c];
    k = c;
  }
  heap_[k] = last;
}

}  // namespace ccnet
