#include "core/clock_domain.hpp"

#include "core/process_error.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ccnet {

ClockDomain::ClockDomain(sc_core::sc_module_name name) : sc_core::sc_module(name), never_("never") {
  SC_METHOD(tick);
  sensitive << clk.pos();
  dont_initialize();
}

std::size_t ClockDomain::enlist(Clocked& member) {
  const std::size_t slot = members_.size();
  if (slot == 64 * awake_.words()) {
    // A word more: the set keeps its address (channels hold it), its members are copied.
    std::vector<std::uint64_t> kept(awake_.data(), awake_.data() + awake_.words());
    kept.push_back(0);
    awake_.resize(64 * kept.size());
    awake_.merge(kept.data());
    if (timed_on_) {  // the wheel's slots grow by a word each, their members kept
      const std::size_t w = kept.size();
      std::vector<std::uint64_t> wheel((wheel_mask_ + 1) * w, 0);
      for (std::size_t s = 0; s <= wheel_mask_; ++s)
        std::copy_n(timed_.data() + s * (w - 1), w - 1, &wheel[s * w]);
      timed_.swap(wheel);
    }
  }
  awake_.insert(slot);
  members_.push_back(&member);
  objects_.push_back(dynamic_cast<const sc_core::sc_object*>(&member));
  enlisted_at_.push_back(sc_core::sc_time_stamp());
  processes_.push_back(sc_core::sc_get_current_process_handle());
  sc_core::next_trigger(never_);
  return slot;
}

void ClockDomain::need_horizon(std::uint64_t edges) {
  if (timed_on_ && edges <= wheel_mask_) return;
  if (!members_.empty()) throw std::logic_error(std::string(name()) + ": need_horizon after the simulation started");
  std::uint64_t slots = 1;
  while (slots <= edges) slots <<= 1;
  wheel_mask_ = slots - 1;
  timed_on_ = true;
  timed_.assign(slots * awake_.words(), 0);
}

sc_core::sc_time ClockDomain::period() {
  if (period_ == sc_core::SC_ZERO_TIME) {
    const auto* c = dynamic_cast<const sc_core::sc_clock*>(clk.get_interface());
    if (c) period_ = c->period();
  }
  return period_;
}

void ClockDomain::tick() {
  last_edge_ = sc_core::sc_time_stamp();
  ++edge_;
  // The members whose timed wake is this edge.
  if (timed_on_) awake_.take(timed_.data() + (edge_ & wheel_mask_) * awake_.words());
  // Members enlisted at this edge have evaluated themselves already.
  if (ready_ < members_.size()) {
    const sc_core::sc_time& now = last_edge_;
    for (; ready_ < members_.size() && enlisted_at_[ready_] < now; ++ready_) processes_[ready_].kill();
  }
  Clocked* const* m = members_.data();
  std::size_t i = 0;
  // Their channel writes are logged (core/channel.hpp) while they are evaluated here.
  commits_.set_open(true);
  try {
    // The awake members in slot order (a member enlisted at this edge is not evaluated again).
    const std::size_t n = ready_;
    awake_.for_each([&](std::size_t k) {
      if (k >= n) return;
      i = k;
      evaluating_ = objects_[k];
      m[k]->evaluate();
    });
  } catch (...) {
    // Through the kernel it would arrive as a generic sc_report: keep it and stop here.
    process_error::capture(*objects_[i], period());
  }
  commits_.set_open(false);
  evaluating_ = nullptr;
}

}  // namespace ccnet
