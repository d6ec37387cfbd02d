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
//
// Committed by its clock domain (commit_by, opt-in): a write made while the domain's process
// evaluates its members (ChannelCommits::open) does not go through the kernel's update list (the
// kernel's request_update, its update loop and a virtual update() per channel): it stores the new
// value and logs the channel once in the domain's ChannelCommits, which is itself one primitive
// channel of the kernel and, in that same update phase, calls every logged channel's update() in
// one loop, latest first as the kernel's list does. The new value therefore becomes current, the
// change stamp (event()) and change event are set and the pending, wake and sampler bookkeeping
// runs exactly when and as they would through the kernel: in the update phase of the delta in
// which the value was written, after every process of that evaluation phase has run, so no
// process (a reader in the domain or anywhere else, a process sensitive to the channel, a
// deadlock dump, an end-of-run check) sees the value early or late. What may differ is only the
// place of these updates among the other channels' in that update phase, which no update depends
// on (an update touches its own channel and its receiver's sets and delay lines only). A write
// from anywhere else (a component's own process at the first edge, another domain, any other
// process) takes the kernel's path as before. network.cpp opts its link channels in only in an
// untraced run (no exact channels) without RTL in the loop: waveforms and the RTL sets keep the
// kernel's path (docs/architecture.md, "Performance design").
#pragma once

#include <cstddef>
#include <systemc>
#include <vector>

#include "core/active_set.hpp"

namespace ccnet {

// The channels written during one clock domain's evaluation of an edge, committed in the update
// phase (above). One per ClockDomain.
class ChannelCommits final : public sc_core::sc_prim_channel {
 public:
  class Entry {
   public:
    virtual void commit() = 0;  // the channel's update()

   protected:
    ~Entry() = default;
  };
  explicit ChannelCommits(const char* name) : sc_core::sc_prim_channel(name) {}
  // A channel more may be logged (Channel::commit_by): the log holds one entry per channel, as a
  // channel is logged at most once per delta, so logging never allocates.
  void add_channel() { entries_.push_back(nullptr); }
  // Whether the domain's process is evaluating its members now (writes are logged).
  bool open() const { return open_; }
  void set_open(bool open) { open_ = open; }
  // Logs a channel whose new value differs from the one it had when its last commit ran (once per
  // delta: the channel keeps a flag); the first one of a delta asks the kernel for this update.
  void log(Entry* e) {
    if (logged_ == 0) request_update();
    entries_[logged_++] = e;
  }
  // The channels logged and not yet committed.
  std::size_t logged() const { return logged_; }

 protected:
  void update() override {
    // Latest first, as the kernel's update list (a stack) would have run them.
    Entry* const* const e = entries_.data();
    for (std::size_t k = logged_; k-- > 0;) e[k]->commit();
    logged_ = 0;
  }

 private:
  std::vector<Entry*> entries_;  // [0, logged_) this delta's
  std::size_t logged_ = 0;
  bool open_ = false;
};

template <class T>
class Channel final : public sc_core::sc_signal<T, sc_core::SC_UNCHECKED_WRITERS>, private ChannelCommits::Entry {
  using Base = sc_core::sc_signal<T, sc_core::SC_UNCHECKED_WRITERS>;

 public:
  explicit Channel(const char* name) : Base(name) {}
  // Opts in to being committed by `commits` (a clock domain's, see above), or out (null). Before
  // the simulation starts.
  void commit_by(ChannelCommits* commits) {
    if (commits && commits != commits_) commits->add_channel();
    commits_ = commits;
  }
  void write(const T& value) override {
    ChannelCommits* const c = commits_;
    if (c && c->open()) {
      // What sc_signal::write does, with the domain's log instead of the kernel's update list.
      if (!(this->m_new_val == value)) {
        this->m_new_val = value;
        if (!logged_) {
          logged_ = true;
          c->log(this);
        }
      }
      return;
    }
    Base::write(value);
  }
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
  void update() override { apply(); }

 private:
  // update() and commit(): sc_signal's update (SC_UNCHECKED_WRITERS: no writer bookkeeping) with
  // sc_signal_channel's do_update inline (the change event notified for the next delta if anyone
  // asked for it, the change stamp that event() compares with, then the new value current), and
  // the receiver's bookkeeping.
  void apply() {
    if (this->m_new_val == this->m_cur_val) return;
    if (this->m_change_event_p) notify_change();
    this->m_change_stamp = this->simcontext()->change_stamp();
    this->m_cur_val = this->m_new_val;
    if (sampler_ && sampler_(receiver_, index_)) return;
    if (pending_) pending_->insert(index_);
    if (wake_) wake_->insert(wake_index_);
  }
  [[gnu::noinline]] void notify_change() { this->notify_next_delta(this->m_change_event_p); }
  void commit() override {
    logged_ = false;
    apply();
  }

  ActiveSet* pending_ = nullptr;
  std::size_t index_ = 0;
  ActiveSet* wake_ = nullptr;
  std::size_t wake_index_ = 0;
  Sampler sampler_ = nullptr;
  void* receiver_ = nullptr;
  ChannelCommits* commits_ = nullptr;
  bool logged_ = false;  // in commits_'s log of this delta
};

}  // namespace ccnet
