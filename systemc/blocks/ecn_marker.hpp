// ECN marker (mirrored by rtl/ccn_ecn_marker.sv): the switch's congestion-detection decision
// for one measured buffer (InfiniBand CCA style, paper 003 Table 1, paper 000 section 2).
//
// Each cycle at most one packet head passes the marking point (`valid`). It is eligible if it
// is a data packet (`eligible`) and the measured buffer holds more than `threshold` flits
// (`occupancy`, counted with the packet's head flit in the buffer). Marking rate (IBA
// Marking_Rate): of consecutive eligible packets, one is marked and the next `marking_rate`
// are not (0 = mark every eligible packet). State: a down-counter of packets to skip.
// Clock edge: an eligible packet either is marked (counter := marking_rate) or decrements
// the counter. Ineligible packets and idle cycles leave it unchanged.
#pragma once

#include <cstdint>

namespace ccnet::blocks {

struct EcnMarkerParams {
  std::uint32_t threshold = 0;     // mark when occupancy > threshold (flits)
  std::uint32_t marking_rate = 0;  // eligible packets skipped after each mark
};

class EcnMarker {
 public:
  EcnMarker() = default;
  explicit EcnMarker(const EcnMarkerParams& p) : p_(p) { reset(); }
  void reset() { skip_ = 0; }

  bool eligible(bool valid, bool data, std::uint32_t occupancy) const {
    return valid && data && occupancy > p_.threshold;
  }
  // Combinational: mark this packet?
  bool mark(bool valid, bool data, std::uint32_t occupancy) const {
    return eligible(valid, data, occupancy) && skip_ == 0;
  }
  // Clock edge.
  void commit(bool valid, bool data, std::uint32_t occupancy) {
    if (!eligible(valid, data, occupancy)) return;
    skip_ = skip_ == 0 ? p_.marking_rate : skip_ - 1;
  }

  std::uint32_t skip() const { return skip_; }
  const EcnMarkerParams& params() const { return p_; }

 private:
  EcnMarkerParams p_;
  std::uint32_t skip_ = 0;
};

}  // namespace ccnet::blocks
