// The signal of a link (flit or credit channel): an sc_signal with one writer by construction,
// which also tells its receiver in which cycles it has something to look at.
//
// A receiver that subscribes (notify) gets its port's index inserted into its pending-work set in
// every update phase in which the channel's value changed, i.e. at the end of the cycle in which
// the sender wrote it, before the receiver's next evaluation. The receiver then reads only the
// channels named in that set instead of polling every input every cycle (docs/performance.md).
// The value, its timing and its tracing are those of a plain sc_signal.
#pragma once

#include <cstddef>
#include <systemc>

#include "core/active_set.hpp"

namespace ccnet {

template <class T>
class Channel final : public sc_core::sc_signal<T, sc_core::SC_UNCHECKED_WRITERS> {
  using Base = sc_core::sc_signal<T, sc_core::SC_UNCHECKED_WRITERS>;

 public:
  explicit Channel(const char* name) : Base(name) {}
  // Inserts `index` into `pending` whenever the value changes (one receiver per channel).
  void notify(ActiveSet& pending, std::size_t index) {
    pending_ = &pending;
    index_ = index;
  }
  // Also inserts `index` into `wake` on every change (a sleeping receiver's slot in its clock
  // domain's awake set, core/clock_domain.hpp).
  void also_wake(ActiveSet& wake, std::size_t index) {
    wake_ = &wake;
    wake_index_ = index;
  }

 protected:
  void update() override {
    const bool changed = !(this->m_new_val == this->m_cur_val);
    Base::update();
    if (changed) {
      if (pending_) pending_->insert(index_);
      if (wake_) wake_->insert(wake_index_);
    }
  }

 private:
  ActiveSet* pending_ = nullptr;
  std::size_t index_ = 0;
  ActiveSet* wake_ = nullptr;
  std::size_t wake_index_ = 0;
};

}  // namespace ccnet
