// Thin signal-accurate wrapper of LhrpScheduler with the ports of rtl/ccn_lhrp_scheduler.sv (same
// names, Verilator --sc types). Template parameters are the RTL parameters.
//   * drop_o / grant_o / time_o: LhrpScheduler::arrive() for each valid lane in lane order, on a
//     copy of the core (arrive() updates the state the next lane sees; the real core commits at
//     the edge). Lane l's `nack_slot` is "fewer lanes before l dropped than nack_slots_i", the
//     RTL's slot count consumed by drops in lane order; time_o is the time modulo 2^TimeWidth;
//   * queued_o: the core's Q[e]; backlog_o: max(T_next[e] - now, 0), the RTL's relative schedule,
//     with now = the time of the last rising edge + 1 (state only, registered like the RTL's);
//     error_o: the core's sticky error; violation_o: this cycle's lanes name no endpoint or no
//     kind (the core's arrive() errors) or a departure exceeds Q[e] after the lanes (depart()'s);
//   * state: the lanes, then LhrpScheduler::depart() for each dep_valid_i[e], on clk_i's rising
//     edge; rst_ni: asynchronous, active low.
// Time: the core keeps 64-bit times, the RTL port now_i has TimeWidth bits. The wrapper extends
// now_i to 64 bits as the smallest time >= the time of the previous edge with those low bits (the
// time base of a modular clock that advances by less than 2^TimeWidth per cycle), so the core sees
// the bench's full time.
// `Mutation` deliberately breaks the model (test-only: the mutation smoke tests).
#pragma once

#include <cstdint>

#include <systemc>

#include "blocks/lhrp_scheduler.hpp"
#include "blocks/vl_port.hpp"
#include "blocks/hw_consts.hpp"

namespace ccnet::blocks {

enum class LhrpSchedulerMutation {
  None,
  ThresholdOffByOne,   // speculative packets drop only above the threshold (Q > threshold)
  SlotsNotConsumed,    // every speculative lane sees a free NACK slot if nack_slots_i > 0
  LanesSeeCycleStart,  // each lane decides on the state at the start of the cycle
  DepartBeforeLanes,   // departures are applied before this cycle's lanes
};

template <unsigned NumEndpoints, unsigned NumLanes, unsigned LenWidth, unsigned QueueWidth, unsigned TimeWidth,
          unsigned BacklogWidth, std::uint32_t Threshold>
class LhrpSchedulerSc : public sc_core::sc_module {
 public:
  static constexpr unsigned kEpW = hw::index_width(NumEndpoints);
  static constexpr unsigned kSlotW = hw::count_width(NumLanes);
  static constexpr unsigned kKindW = hw::kLhrpKindWidth;
  static_assert(NumEndpoints >= 1 && NumLanes >= 1, "LhrpSchedulerSc: NumEndpoints and NumLanes must be >= 1");
  static_assert(LenWidth >= 1 && LenWidth <= 16, "LhrpSchedulerSc: LenWidth out of 1..16");
  static_assert(QueueWidth >= 1 && QueueWidth <= 32, "LhrpSchedulerSc: QueueWidth out of 1..32");
  static_assert(TimeWidth >= 1 && TimeWidth <= 64, "LhrpSchedulerSc: TimeWidth out of 1..64");
  static_assert(BacklogWidth >= 1 && BacklogWidth <= TimeWidth && BacklogWidth <= 32,
                "LhrpSchedulerSc: BacklogWidth out of 1..min(TimeWidth, 32)");

  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_in<bool> rst_ni{"rst_ni"};
  sc_core::sc_in<vl::port_t<TimeWidth>> now_i{"now_i"};
  sc_core::sc_in<vl::port_t<NumLanes>> arr_valid_i{"arr_valid_i"};
  sc_core::sc_in<vl::port_t<NumLanes * kEpW>> arr_endpoint_i{"arr_endpoint_i"};
  sc_core::sc_in<vl::port_t<NumLanes * LenWidth>> arr_len_i{"arr_len_i"};
  sc_core::sc_in<vl::port_t<NumLanes * kKindW>> arr_kind_i{"arr_kind_i"};
  sc_core::sc_in<vl::port_t<kSlotW>> nack_slots_i{"nack_slots_i"};
  sc_core::sc_in<vl::port_t<NumEndpoints>> dep_valid_i{"dep_valid_i"};
  sc_core::sc_in<vl::port_t<NumEndpoints * LenWidth>> dep_len_i{"dep_len_i"};
  sc_core::sc_out<vl::port_t<NumLanes>> drop_o{"drop_o"};
  sc_core::sc_out<vl::port_t<NumLanes>> grant_o{"grant_o"};
  sc_core::sc_out<vl::port_t<NumLanes * TimeWidth>> time_o{"time_o"};
  sc_core::sc_out<vl::port_t<NumEndpoints * QueueWidth>> queued_o{"queued_o"};
  sc_core::sc_out<vl::port_t<NumEndpoints * BacklogWidth>> backlog_o{"backlog_o"};
  sc_core::sc_out<bool> violation_o{"violation_o"};
  sc_core::sc_out<bool> error_o{"error_o"};

  SC_HAS_PROCESS(LhrpSchedulerSc);
  explicit LhrpSchedulerSc(const sc_core::sc_module_name& name, LhrpSchedulerMutation mutation = LhrpSchedulerMutation::None)
      : sc_core::sc_module(name), core_(params(mutation)), scratch_(core_), mutation_(mutation) {
    SC_METHOD(comb);
    sensitive << now_i << arr_valid_i << arr_endpoint_i << arr_len_i << arr_kind_i << nack_slots_i << dep_valid_i
              << dep_len_i << state_changed_;
    SC_METHOD(seq);
    sensitive << clk_i.pos() << rst_ni.neg();
    dont_initialize();
  }

  const LhrpScheduler& core() const { return core_; }
  // The 64-bit time of the cycle now_i is in.
  Cycle now() const { return extend(now_i.read()); }

 private:
  static LhrpSchedulerParams params(LhrpSchedulerMutation m) {
    LhrpSchedulerParams p{NumEndpoints, Threshold};
    if (m == LhrpSchedulerMutation::ThresholdOffByOne && p.threshold != 0xffffffffu) ++p.threshold;
    return p;
  }
  static constexpr std::uint64_t kTimeMask = ~std::uint64_t{0} >> (64 - TimeWidth);

  template <class T>
  Cycle extend(const T& port) const {
    const std::uint64_t low = vl::get(port, 0, TimeWidth);
    return last_edge_ + ((low - last_edge_) & kTimeMask);
  }

  // Runs this cycle's lanes on `s` (with DepartBeforeLanes, the departures first: dep_bad_); fills
  // the decisions and lane_bad_. Returns the time.
  Cycle run_lanes(LhrpScheduler& s, bool departures_first) {
    const Cycle now = extend(now_i.read());
    if (departures_first) dep_bad_ = depart(s);
    const auto valid = arr_valid_i.read();
    const auto ep = arr_endpoint_i.read();
    const auto len = arr_len_i.read();
    const auto kind = arr_kind_i.read();
    const auto slots = vl::get(nack_slots_i.read(), 0, kSlotW);
    std::uint64_t drops = 0;
    lane_bad_ = false;
    for (unsigned l = 0; l < NumLanes; ++l) {
      decision_[l] = LhrpScheduler::Decision{};
      if (!vl::bit(valid, l)) continue;
      LhrpScheduler::Arrival a;
      a.endpoint = static_cast<std::uint32_t>(vl::get(ep, l * kEpW, kEpW));
      a.len = static_cast<std::uint32_t>(vl::get(len, l * LenWidth, LenWidth));
      const auto code = static_cast<std::uint8_t>(vl::get(kind, l * kKindW, kKindW));
      a.kind = static_cast<LhrpKind>(code);
      lane_bad_ = lane_bad_ || a.endpoint >= NumEndpoints || code >= hw::kNumLhrpKindCodes;
      const bool slot = mutation_ == LhrpSchedulerMutation::SlotsNotConsumed ? slots > 0 : drops < slots;
      if (mutation_ == LhrpSchedulerMutation::LanesSeeCycleStart && &s == &scratch_) {
        LhrpScheduler start = core_;  // test-only: allocates
        decision_[l] = start.arrive(a, now, slot);
        s.arrive(a, now, slot);
      } else {
        decision_[l] = s.arrive(a, now, slot);
      }
      drops += decision_[l].drop;
    }
    return now;
  }

  // Departures on `s`; returns whether one exceeds its queue (the core's depart() error).
  bool depart(LhrpScheduler& s) {
    const auto valid = dep_valid_i.read();
    const auto len = dep_len_i.read();
    bool bad = false;
    for (unsigned e = 0; e < NumEndpoints; ++e) {
      if (!vl::bit(valid, e)) continue;
      const auto l = static_cast<std::uint32_t>(vl::get(len, e * LenWidth, LenWidth));
      bad = bad || l > s.queued(e);
      s.depart(e, l);
    }
    return bad;
  }

  void comb() {
    scratch_ = core_;  // same sizes: no allocation
    const bool first = mutation_ == LhrpSchedulerMutation::DepartBeforeLanes;
    run_lanes(scratch_, first);
    auto drop = vl::zero<vl::port_t<NumLanes>>();
    auto grant = vl::zero<vl::port_t<NumLanes>>();
    auto time = vl::zero<vl::port_t<NumLanes * TimeWidth>>();
    for (unsigned l = 0; l < NumLanes; ++l) {
      vl::set(drop, l, 1, decision_[l].drop);
      vl::set(grant, l, 1, decision_[l].grant);
      vl::set(time, l * TimeWidth, TimeWidth, decision_[l].time & kTimeMask);
    }
    const bool dep_bad = first ? dep_bad_ : depart(scratch_);
    auto queued = vl::zero<vl::port_t<NumEndpoints * QueueWidth>>();
    auto backlog = vl::zero<vl::port_t<NumEndpoints * BacklogWidth>>();
    // The backlog at this cycle's time, from the state alone (like the RTL's register, not from
    // now_i): the cycle after the last edge, since time advances by one per cycle.
    const Cycle cycle = last_edge_ + 1;
    for (unsigned e = 0; e < NumEndpoints; ++e) {
      vl::set(queued, e * QueueWidth, QueueWidth, core_.queued(e));
      const Cycle t = core_.next_free(e);
      vl::set(backlog, e * BacklogWidth, BacklogWidth, t > cycle ? t - cycle : 0);
    }
    drop_o.write(drop);
    grant_o.write(grant);
    time_o.write(time);
    queued_o.write(queued);
    backlog_o.write(backlog);
    violation_o.write(lane_bad_ || dep_bad);
    error_o.write(core_.error());
  }

  void seq() {
    if (!rst_ni.read()) {
      core_.reset();
    } else {
      const bool first = mutation_ == LhrpSchedulerMutation::DepartBeforeLanes;
      run_lanes(core_, first);
      if (!first) depart(core_);
    }
    if (clk_i.posedge()) last_edge_ = extend(now_i.read());
    state_changed_.notify(sc_core::SC_ZERO_TIME);
  }

  LhrpScheduler core_;
  LhrpScheduler scratch_;  // the lanes' view within a cycle
  LhrpSchedulerMutation mutation_;
  sc_core::sc_event state_changed_;
  LhrpScheduler::Decision decision_[NumLanes] = {};
  bool lane_bad_ = false;
  bool dep_bad_ = false;
  Cycle last_edge_ = 0;  // time of the last rising edge
};

}  // namespace ccnet::blocks
