// The signal of a link (flit or credit channel): an sc_signal with one writer by construction,
// which also tells its receiver in which cycles it has something to look at.
//
// A receiver that subscribes (notify) gets its port's index inserted into its pending-work set in
// every update phase in which the channel's value changed, i.e. at the end of the cycle in which
// the sender wrote it, before the receiver's next evaluation. The receiver then reads only the
// channels named in that set instead of polling every input every cycle (docs/performance.md).
// The value, its timing and its tracing are those of a plain sc_signal.
//
// A receiver may instead take the new value itself in the update phase (sample_with): the channel
// then calls its sampler on every change, and inserts into the pending and wake sets only when the
// sampler declines (returns false). A router samples its long links this way into their delay
// lines, so that it wakes only when an entry is due (docs/performance.md, "Fifth round").
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
  // Calls sample(receiver, index) (the index given to notify) on every change, in the update phase
  // after the new value is current; it returns true if it took the change itself (then the pending
  // and wake sets are left alone) or false (they are inserted into as without a sampler).
  using Sampler = bool (*)(void* receiver, std::size_t index);
  void sample_with(Sampler sample, void* receiver) {
    sampler_ = sample;
    receiver_ = receiver;
  }

 protected:
  void update() override {
    const bool changed = !(this->m_new_val == this->m_cur_val);
    Base::update();
    if (changed) {
      if (sampler_ && sampler_(receiver_, index_)) return;
      if (pending_) pending_->insert(index_);
      if (wake_) wake_->insert(wake_index_);
    }
  }

 private:
  ActiveSet* pending_ = nullptr;
  std::size_t index_ = 0;
  ActiveSet* wake_ = nullptr;
  std::size_t wake_index_ = 0;
  Sampler sampler_ = nullptr;
  void* receiver_ = nullptr;
};

}  // namespace ccnet
