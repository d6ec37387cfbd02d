// MVCM source flow controller (mirrored by rtl/ccn_mvcm_flow_ctrl.sv): the source NIC's per-flow
// dynamic window and waiting slots of paper 001 (Ferrer et al., IEEE TC 2012, sections 3.2-3.3
// and 4.3; notes section 1.6).
//
// One flow per destination. Per flow: the dynamic window DW (1..dw_max), the packets sent and not
// yet acknowledged (`outstanding`), the number of waiting slots number_WS (0, then 1, k, k^2, ...)
// kept as an exponent, how many times it grew, and `not_before`, the first cycle the flow may send
// again. A flow may send when outstanding < DW and now >= not_before.
//
// Each ACK carries the two marks of its data packet, classified by the caller (Table 1):
//   Cold (0,0): if waiting slots are in force they are removed at once (DW stays); else DW + 1
//               (at most dw_max). DW_max cold ACKs after the last hot one restore the full rate.
//   Warm (1,0): DW - 1 (at least 1); waiting slots unchanged (notes A6).
//   Hot  (1,1): DW - 1 while DW > 1 (the ACK that brings DW to 1 starts no slot, notes A5); at
//               DW = 1 the first hot ACK sets number_WS = 1, each further one multiplies it by
//               ws_factor (the switch radix k), at most ws_increases times in all (then it
//               saturates; 0 = no limit).
// While number_WS > 0, every non-cold ACK re-arms the waiting interval from its arrival
// (notes A7): not_before = now + number_WS * rtt_min.
// A packet generated into a flow with nothing queued and nothing outstanding restarts the flow
// (DW = dw_max, no waiting slots). Invariant: number_WS > 0 implies DW = 1.
//
// Contract (violations throw std::logic_error naming the flow): sent() only on an eligible flow,
// ack() only with a packet outstanding.
//
// One clock edge (commit(), what the RTL does and the network's NIC calls): eligibility during a
// cycle is that of the state at its start; at the edge the cycle's events apply in this order:
//   1. the restart lanes: each names a flow that got a packet while nothing of it was queued, and
//      restarts it if nothing is outstanding (generated(f, true));
//   2. the packet started this cycle (sent), if any: on a flow eligible at the start of the cycle
//      (a restart only makes a flow more eligible);
//   3. the ACK lane (one ACK per cycle: a NIC's ejection port completes at most one packet).
// A lane that breaks the contract (a start on a flow that was not eligible, an ACK with nothing
// outstanding after step 2 or of no class, any lane naming no flow) changes nothing, commit()
// returns false and the sticky error flag is set (the RTL's violation_o, error_o and assertions).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "blocks/hw_consts.hpp"
#include "core/types.hpp"

namespace ccnet::blocks {

enum class MvcmAck : std::uint8_t { Cold = 0, Warm = 1, Hot = 2 };
// The RTL's ACK-class codes (rtl/ccn_pkg.sv mvcm_ack_e) are these values.
static_assert(static_cast<unsigned>(MvcmAck::Cold) == static_cast<unsigned>(hw::MvcmAckCode::Cold) &&
                  static_cast<unsigned>(MvcmAck::Warm) == static_cast<unsigned>(hw::MvcmAckCode::Warm) &&
                  static_cast<unsigned>(MvcmAck::Hot) == static_cast<unsigned>(hw::MvcmAckCode::Hot) &&
                  hw::kNumMvcmAckCodes == 3,
              "MvcmAck differs from the hardware ACK-class codes (blocks/hw_consts.hpp)");

struct MvcmFlowCtrlParams {
  std::uint32_t num_flows = 1;
  std::uint32_t dw_max = 2;        // initial and largest window, packets (1..255)
  std::uint32_t ws_factor = 2;     // number_WS growth factor (the switch radix k), >= 1
  std::uint32_t ws_increases = 0;  // times number_WS may grow, the 0 -> 1 step included (0 = no limit)
  Cycle rtt_min = 1;               // one waiting slot, cycles
};

class MvcmFlowCtrl {
 public:
  MvcmFlowCtrl() = default;
  explicit MvcmFlowCtrl(const MvcmFlowCtrlParams& p);
  void reset();

  bool eligible(std::uint32_t f, Cycle now) const {
    const Flow& s = flows_[f];
    return s.outstanding < s.dw && now >= s.not_before;
  }
  // A packet of flow f started at `now`.
  void sent(std::uint32_t f, Cycle now);
  // An ACK of flow f arrived at `now`.
  void ack(std::uint32_t f, Cycle now, MvcmAck kind);
  // A packet was generated for flow f; `queue_empty`: nothing of f was waiting to be sent.
  // Restarts the flow if nothing is outstanding either (returns true then).
  bool generated(std::uint32_t f, bool queue_empty);

  // One cycle's events (commit()). Flow numbers may name no flow (>= num_flows) and an ACK's
  // class may be none of the three (static_cast<MvcmAck>(3)): violations.
  struct AckLane {
    bool valid = false;
    std::uint32_t flow = 0;
    MvcmAck kind = MvcmAck::Cold;
  };
  struct Events {
    int sent = -1;  // flow that started a packet this cycle, or -1
    AckLane ack;
    const std::uint32_t* restarts = nullptr;  // flows of the valid restart lanes
    std::size_t num_restarts = 0;
  };
  // Whether commit(now, e) would find a contract violation (the RTL's violation_o). Pure.
  bool violation(Cycle now, const Events& e) const;
  // Clock edge ending cycle `now`: the events in the order above. Returns false on a violation
  // (the offending lanes ignored, error() set).
  bool commit(Cycle now, const Events& e);
  bool error() const { return error_; }

  std::uint32_t window(std::uint32_t f) const { return flows_[f].dw; }
  std::uint32_t outstanding(std::uint32_t f) const { return flows_[f].outstanding; }
  // number_WS (0: no waiting slots).
  std::uint64_t waiting_slots(std::uint32_t f) const;
  // Times number_WS grew since it was last 0 (0 .. max_exponent() + 1): the RTL's incs_o.
  std::uint32_t ws_increases(std::uint32_t f) const { return flows_[f].incs; }
  // Largest exponent of number_WS: ws_increases - 1, or without a limit the largest with a
  // waiting interval of at most 2^40 cycles.
  std::uint32_t max_exponent() const { return max_exponent_; }
  Cycle not_before(std::uint32_t f) const { return flows_[f].not_before; }
  const MvcmFlowCtrlParams& params() const { return p_; }

 private:
  struct Flow {
    std::uint8_t dw = 1;
    std::uint8_t incs = 0;        // times number_WS grew (0: no waiting slots)
    std::uint16_t outstanding = 0;
    Cycle not_before = 0;
  };
  MvcmFlowCtrlParams p_;
  std::uint32_t max_exponent_ = 0;  // largest exponent of number_WS (the cap, or what fits in a Cycle)
  std::vector<Flow> flows_;
  bool error_ = false;
};

}  // namespace ccnet::blocks
