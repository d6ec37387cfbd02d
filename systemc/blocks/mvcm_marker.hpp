// MVCM marker and validator (mirrored by rtl/ccn_mvcm_marker.sv): the switch side of paper 001's
// MVPM (section 3.1) for one router port, combinational, no state.
//
// Input lane (a packet head accepted into the port's input buffer, `in_valid`): the Marking Bit
// is set on a data packet (`in_data`) when the input buffer, counted with the whole packet
// (`in_occupancy`), holds more than `in_threshold` flits. Output lane (a packet head entering the
// port's output queue, `out_valid`): the Validation Bit is set on a data packet that already
// carries MB when the output queue, with the whole packet, holds more than `out_threshold`
// flits. Bits are never cleared: mb_o = mb_i | mark, vb_o = vb_i | validate, where `mark` /
// `validate` say that this lane set the bit now (the counters' events). A packet that reaches the
// output lane with VB but without MB breaks the header contract (VB only follows MB): `violation`
// is raised and the packet passes unchanged. Idle lanes pass their bits unchanged and decide
// nothing.
//
// Thresholds are whole flits: "more than fraction x capacity" for an integer occupancy is
// "more than floor(fraction x capacity)" (threshold()), so the RTL compares integers.
#pragma once

#include <cmath>
#include <cstdint>

namespace ccnet::blocks {

struct MvcmMarkerParams {
  std::uint32_t in_threshold = 0;   // MB when the input occupancy > in_threshold (flits)
  std::uint32_t out_threshold = 0;  // VB when the output occupancy > out_threshold (flits)
};

class MvcmMarker {
 public:
  MvcmMarker() = default;
  explicit MvcmMarker(const MvcmMarkerParams& p) : p_(p) {}

  // The whole-flit threshold equivalent to "occupancy > fraction x capacity".
  static std::uint32_t threshold(double fraction, std::uint32_t capacity) {
    return static_cast<std::uint32_t>(std::floor(fraction * capacity));
  }

  // Input lane: does this packet get MB now (it did not have it)?
  bool mark(bool valid, bool data, bool mb, std::uint32_t occupancy) const {
    return valid && data && !mb && occupancy > p_.in_threshold;
  }
  bool mb_out(bool valid, bool data, bool mb, std::uint32_t occupancy) const {
    return mb || mark(valid, data, mb, occupancy);
  }
  // Output lane: a header with VB and no MB.
  bool violation(bool valid, bool mb, bool vb) const { return valid && vb && !mb; }
  // Output lane: does this packet get VB now?
  bool validate(bool valid, bool data, bool mb, bool vb, std::uint32_t occupancy) const {
    return valid && data && mb && !vb && occupancy > p_.out_threshold;
  }
  bool vb_out(bool valid, bool data, bool mb, bool vb, std::uint32_t occupancy) const {
    return vb || validate(valid, data, mb, vb, occupancy);
  }
  // The output comparator alone (output packet marking, OPM, of Pfister's implementation).
  bool out_above(std::uint32_t occupancy) const { return occupancy > p_.out_threshold; }

  const MvcmMarkerParams& params() const { return p_; }

 private:
  MvcmMarkerParams p_;
};

}  // namespace ccnet::blocks
