// One kernel process per clock domain: evaluates the clocked components of a network (routers,
// NICs) one after the other at every rising edge, in the order in which the SystemC kernel ran
// their own processes (docs/architecture.md, "Modules and wires"; docs/performance.md).
//
// Every component keeps its own ports and signals, and its SC_METHOD for the first edge: a
// component that joins a domain runs its own process once, at the first rising edge, where it
// enlists (so the domain learns the kernel's order rather than assuming it) and makes its process
// dormant (next_trigger on an event that is never notified). At the next edge the domain ends
// those processes (so the clock edge no longer visits them) and from then on its one process calls
// every enlisted component's evaluate() in that order. The signals are written as before, so
// waveforms, packet ids and results stay identical; what goes away is the kernel's per-process
// dispatch (event trigger, runnable queue, process call), about 80 instructions per component and
// cycle.
//
// A member may also sleep (sleep(slot)): the domain then skips it until wake(slot), which its
// input channels call in the update phase when their value changes (Channel::notify with
// awake_set()) and its other sources of work call directly. A member sleeps only where its
// evaluate() would have changed nothing (its idle fast path), so skipping it changes no result;
// the awake members are evaluated in the same order as before.
//
// A member with nothing to do until a known later cycle (a router whose only work is flits and
// credits in its links' delay lines) sleeps with a timed wake (wake_in): a wheel of due edges,
// one bit per member and slot, which the domain merges into the awake set at the start of that
// edge. A stale timed wake (the member was woken earlier and is awake anyway, or has nothing due
// after all) only costs an evaluation that changes nothing.
//
// The channels its members write may be committed by the domain (commits(), Channel::commit_by):
// their writes during the members' evaluation are logged and made current in the update phase in
// one loop instead of one kernel update each (core/channel.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <systemc>
#include <vector>

#include "core/active_set.hpp"
#include "core/channel.hpp"

namespace ccnet {

// A component evaluated once per rising edge of its domain's clock.
class Clocked {
 public:
  virtual void evaluate() = 0;

 protected:
  ~Clocked() = default;
};

class ClockDomain final : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk{"clk"};

  SC_HAS_PROCESS(ClockDomain);
  explicit ClockDomain(sc_core::sc_module_name name);

  // Called from a member's own process at its first activation: appends it to the evaluation
  // order and makes that process dormant. The member evaluates itself at this edge; the domain
  // calls it from the next edge on. Returns the member's slot (for sleep and wake).
  std::size_t enlist(Clocked& member);
  // The member in `slot` is skipped from the next evaluation on, until wake(slot).
  void sleep(std::size_t slot) { awake_.erase(slot); }
  // The member in `slot` is evaluated again (at this edge if its turn has not come yet, else at
  // the next).
  void wake(std::size_t slot) { awake_.insert(slot); }
  // Timed wakes: the member in `slot` is evaluated again `edges` edges (1 .. the horizon) after
  // the edge being evaluated now. Only from a member's evaluation by the domain's process (not
  // from its own process at the first edge), and only after need_horizon(edges or more).
  void wake_in(std::size_t slot, std::uint64_t edges) {
    timed_[((edge_ + edges) & wheel_mask_) * awake_.words() + (slot >> 6)] |= std::uint64_t{1} << (slot & 63);
  }
  // Declares before the simulation starts that timed wakes up to `edges` edges ahead will be asked
  // for (sizes the wheel: a power of two above the largest horizon).
  void need_horizon(std::uint64_t edges);
  std::uint64_t horizon() const { return timed_on_ ? wheel_mask_ : 0; }
  // The log of the channels committed by this domain (Channel::commit_by).
  ChannelCommits& commits() { return commits_; }
  // The set of awake slots, for Channel::notify (a channel that wakes its receiver).
  ActiveSet& awake_set() { return awake_; }
  // The time of the last edge the domain evaluated: a sleeping member's current cycle.
  const sc_core::sc_time& last_edge() const { return last_edge_; }
  // The number of edges the domain's process has evaluated (the current one included): a member
  // evaluated by it tells its own cycle from this count plus a fixed offset.
  std::uint64_t edge() const { return edge_; }
  // The member a domain's process is evaluating now (as an sc_object: its module), or null when
  // no domain is evaluating one: what the running process's module would be without a domain
  // (core/watch.cpp names the component that reports a packet event by it).
  static const sc_core::sc_object* evaluating() { return evaluating_; }
 private:
  void tick();
  sc_core::sc_time period();

  std::vector<Clocked*> members_;
  std::vector<const sc_core::sc_object*> objects_;  // members_ as sc_objects
  std::vector<sc_core::sc_time> enlisted_at_;
  std::vector<sc_core::sc_process_handle> processes_;  // the members' own (dormant) processes
  std::size_t ready_ = 0;  // members_[0, ready_) were enlisted before the current edge
  ActiveSet awake_;        // slots evaluated (members not sleeping); sized to whole words of slots
  // The timed-wake wheel: per edge modulo its size (wheel_mask_ + 1), the members to wake then
  // (awake_.words() words per slot).
  std::vector<std::uint64_t> timed_;
  std::uint64_t wheel_mask_ = 0;
  bool timed_on_ = false;   // need_horizon was called
  std::uint64_t edge_ = 0;  // edges evaluated by tick() (the current one included)
  sc_core::sc_time last_edge_;
  sc_core::sc_event never_;  // never notified: the event dormant member processes wait for
  sc_core::sc_time period_;  // of clk, known from the first edge on
  ChannelCommits commits_{"commits"};
  static inline const sc_core::sc_object* evaluating_ = nullptr;
};

}  // namespace ccnet
