// The traffic generator's pending arrivals: when each (class, source) posts its next message.
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace ccnet {

// Ordered by cycle, then class, then source (class and source packed in one word).
struct Arrival {
  Cycle at;
  std::uint64_t who;  // class << 32 | source
  Arrival(Cycle t, std::uint32_t cls, NodeId src) : at(t), who(std::uint64_t{cls} << 32 | src) {}
  std::uint32_t cls() const { return static_cast<std::uint32_t>(who >> 32); }
  NodeId src() const { return static_cast<NodeId>(who); }
  bool operator>(const Arrival& o) const { return at != o.at ? at > o.at : who > o.who; }
  bool operator==(const Arrival& o) const { return at == o.at && who == o.who; }
};

// Arrivals taken in Arrival's order, as a min-heap would give them. Most are due within kWheel
// cycles of the earliest: a wheel of one bitmap per cycle over the keys class * nodes + source,
// whose ascending scan is Arrival's order within a cycle (the generator keeps one arrival per
// class and source); later ones, earlier ones, a key pushed twice for one cycle and keys outside
// the configured nodes and classes wait in a binary min-heap, merged at take() by comparing its top.
class ArrivalQueue {
 public:
  static constexpr std::uint64_t kWheel = 256;     // cycles (a power of two)
  static constexpr std::size_t kMaxWords = 1024;  // per slot (65,536 keys)
  void configure(std::uint32_t nodes, std::uint32_t classes);
  bool empty() const { return in_wheel_ == 0 && heap_.empty(); }
  std::size_t size() const { return in_wheel_ + heap_.size(); }
  void push(const Arrival& a);
  // Removes the first arrival due at or before `now` into `a`; false if there is none.
  bool take(Cycle now, Arrival& a);

 private:
  void heap_push(const Arrival& a);
  void heap_pop();
  std::uint32_t nodes_ = 0;              // 0: every arrival goes to the heap
  std::uint32_t classes_ = 0;
  std::size_t words_ = 1;                // per wheel slot
  std::vector<std::uint64_t> wheel_;     // kWheel slots of words_ words
  std::uint64_t in_wheel_ = 0;           // arrivals in the wheel
  Cycle cursor_ = 0;                     // the wheel holds arrivals due in [cursor_, cursor_ + kWheel)
  std::size_t scan_ = 0;                 // first word of cursor_'s slot that may hold a bit
  std::vector<Arrival> heap_;
};

}  // namespace ccnet
