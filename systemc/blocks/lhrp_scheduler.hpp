// LHRP last-hop scheduler (mirrored by rtl/ccn_lhrp_scheduler.sv). Paper 003 section 3.2:
// the switch to which endpoints attach counts the flits queued in it for each endpoint; when
// that count reaches the threshold, speculative packets to the endpoint are dropped and each
// drop is given a retransmission time by a per-endpoint reservation schedule, returned in the
// NACK. The same schedule serves reservation requests consumed at the last hop (LHRP + SRP,
// section 6.4).
//
// Per cycle, packet heads arrive on lanes (one per input port, evaluated in lane order, each
// lane seeing the updates of the lanes before it):
//   * data, non-speculative:  Q[e] += len                                     (accept)
//   * data, speculative:      if Q[e] >= threshold and a NACK slot is free:
//                               t = max(now, T_next[e]); T_next[e] = t + len; drop, NACK(t)
//                             else Q[e] += len                                 (accept)
//   * reservation of `len`:   t = max(now, T_next[e]); T_next[e] = t + len; grant(t)
// A full NACK queue (no free slot) never loses a packet: it is accepted instead.
// Tails leaving on the endpoint's ejection port decrement Q[e] by the packet length (at the
// clock edge, after the lanes). Violations set the sticky error flag and change nothing else:
// Q[e] going negative (Q[e] becomes 0), an arrival for an endpoint >= endpoints or of a kind that
// is none of the three (no decision, the lane is ignored). T_next[e] never decreases.
#pragma once

#include <cstdint>
#include <vector>

#include "blocks/hw_consts.hpp"
#include "core/types.hpp"

namespace ccnet::blocks {

struct LhrpSchedulerParams {
  std::uint32_t endpoints = 4;
  std::uint32_t threshold = 1000;  // flits; 0xffffffff = never drop
};

enum class LhrpKind : std::uint8_t { Data = 0, Speculative = 1, Reservation = 2 };
// The RTL's lane-kind codes (rtl/ccn_pkg.sv lhrp_kind_e) are these values.
static_assert(static_cast<unsigned>(LhrpKind::Data) == static_cast<unsigned>(hw::LhrpKindCode::Data) &&
                  static_cast<unsigned>(LhrpKind::Speculative) == static_cast<unsigned>(hw::LhrpKindCode::Speculative) &&
                  static_cast<unsigned>(LhrpKind::Reservation) == static_cast<unsigned>(hw::LhrpKindCode::Reservation) &&
                  hw::kNumLhrpKindCodes == 3,
              "LhrpKind differs from the hardware lane-kind codes (blocks/hw_consts.hpp)");

class LhrpScheduler {
 public:
  struct Arrival {
    std::uint32_t endpoint = 0;
    std::uint32_t len = 0;
    LhrpKind kind = LhrpKind::Data;
  };
  struct Decision {
    bool drop = false;   // speculative packet dropped (NACK with `time`)
    bool grant = false;  // reservation granted at `time`
    Cycle time = 0;
  };

  LhrpScheduler() = default;
  explicit LhrpScheduler(const LhrpSchedulerParams& p);
  void reset();

  // One arrival lane: decides and updates the state the next lane sees. `nack_slot` says
  // whether a NACK can still be queued this cycle.
  Decision arrive(const Arrival& a, Cycle now, bool nack_slot);
  // A tail left on endpoint e's ejection port (applied at the clock edge).
  void depart(std::uint32_t endpoint, std::uint32_t len);

  std::uint32_t queued(std::uint32_t e) const { return q_[e]; }
  Cycle next_free(std::uint32_t e) const { return t_next_[e]; }
  // Stable references for waveforms (the state vectors never reallocate after construction).
  const std::uint32_t& queued_ref(std::uint32_t e) const { return q_[e]; }
  const Cycle& next_free_ref(std::uint32_t e) const { return t_next_[e]; }
  bool error() const { return error_; }
  const LhrpSchedulerParams& params() const { return p_; }

 private:
  LhrpSchedulerParams p_;
  std::vector<std::uint32_t> q_;
  std::vector<Cycle> t_next_;
  bool error_ = false;
};

}  // namespace ccnet::blocks
