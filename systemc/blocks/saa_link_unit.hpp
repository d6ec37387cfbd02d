// SAA link unit (mirrored by rtl/ccn_saa_link_unit.sv): the per-link state of paper 004's
// distributed explicit-rate algorithm (Birk and Zdornov, SYSTOR'09, section 5.2, Algorithm 1;
// notes shared/notes/paper-004-birk.md 1.4) held at the link's transmitting element: the weight
// register W_l (the sum of the weights w_f of the flows announced on the link) and the number of
// those flows (the port selector's metric of the adaptive path setup, section 4, notes 1.2).
//
// Control packets cross the unit in lanes; several lanes in one cycle run in lane order, each
// seeing the updates of the lanes before it (a router output reached by several inputs' control
// packets in the same cycle). A lane carries at most one operation:
//   start (AnnounceStart, merged with the path setup): W_l += w_f, flows += 1, and the packet's
//     running maximum becomes max(wmax, W_l) with W_l after the addition;
//   end   (AnnounceEnd, merged with the teardown):     W_l -= w_f, flows -= 1; wmax passes;
//   probe (ProbeLinks):                                 wmax becomes max(wmax, W_l);
//   none:                                               wmax passes.
// Contract violations (the lane changes nothing, its wmax output is 0, `violation` is set, and the
// sticky error flag from the next edge on), in the order they are checked:
//   two or three operations in one lane; start or end with w_f = 0 (paper: w_f is a flow's size);
//   start: W_l + w_f above 2^WeightW - 1, or flows at 2^CountW - 1;
//   end: w_f > W_l (W_l would go negative), no flow on the link, or what is left cannot hold the
//     flows left (W_l - w_f < flows - 1: every flow weighs at least 1; for the last flow this
//     says W_l returns exactly to 0).
// Invariant (asserted in the RTL, checked by invariants_hold()): W_l >= flows, and W_l = 0
// exactly when flows = 0.
#pragma once

#include <cstdint>

namespace ccnet::blocks {

struct SaaLinkUnitParams {
  std::uint32_t weight_width = 64;  // bits of W_l and of w_f (1 .. 64)
  std::uint32_t count_width = 32;   // bits of the flow count (1 .. 32)
};

// One lane: the control packet crossing the link this cycle (if any).
struct SaaLinkLane {
  bool start = false;
  bool end = false;
  bool probe = false;
  std::uint64_t weight = 0;  // start, end: the flow's w_f
  std::uint64_t wmax = 0;    // start, probe: the packet's running max of W_l (its W_f so far)
};

enum class SaaLinkViolation : std::uint8_t {
  None,
  TwoOps,         // more than one of start / end / probe
  ZeroWeight,     // start or end with w_f = 0
  Overflow,       // start: W_l + w_f does not fit WeightW bits
  CountOverflow,  // start: the flow count does not fit CountW bits
  Negative,       // end: w_f > W_l
  NoFlow,         // end: no flow on the link
  Residue,        // end: W_l - w_f < flows - 1 (the last flow: W_l not back to 0)
};
// What a violation is, for error messages.
const char* describe(SaaLinkViolation v);

struct SaaLinkResult {
  std::uint64_t wmax = 0;  // the packet's running max after this link (0 on a violation)
  SaaLinkViolation violation = SaaLinkViolation::None;
  bool bad() const { return violation != SaaLinkViolation::None; }
};

class SaaLinkUnit {
 public:
  SaaLinkUnit() : SaaLinkUnit(SaaLinkUnitParams{}) {}
  explicit SaaLinkUnit(const SaaLinkUnitParams& p);
  // W_l = 0, no flow, no error.
  void reset();

  // One lane: what it does (pure) / does it (updates the state the next lane sees; a violation
  // changes nothing but the sticky error flag).
  SaaLinkResult eval(const SaaLinkLane& lane) const;
  SaaLinkResult apply(const SaaLinkLane& lane);

  // The three operations as one-operation lanes.
  SaaLinkResult start(std::uint64_t weight, std::uint64_t wmax) { return apply({true, false, false, weight, wmax}); }
  SaaLinkResult end(std::uint64_t weight) { return apply({false, true, false, weight, 0}); }
  SaaLinkResult probe(std::uint64_t wmax) { return apply({false, false, true, 0, wmax}); }

  const SaaLinkUnitParams& params() const { return p_; }
  std::uint64_t weight() const { return weight_; }  // W_l
  std::uint32_t flows() const { return flows_; }
  bool error() const { return error_; }
  // Stable references for waveforms.
  const std::uint64_t& weight_ref() const { return weight_; }
  const std::uint32_t& flows_ref() const { return flows_; }
  bool invariants_hold() const { return weight_ >= flows_ && (weight_ == 0) == (flows_ == 0); }

 private:
  SaaLinkUnitParams p_;
  std::uint64_t max_weight_ = 0;  // 2^WeightW - 1
  std::uint32_t max_flows_ = 0;   // 2^CountW - 1
  std::uint64_t weight_ = 0;
  std::uint32_t flows_ = 0;
  bool error_ = false;
};

}  // namespace ccnet::blocks
