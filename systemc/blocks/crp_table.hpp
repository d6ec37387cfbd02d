// CRP reservation table (mirrored by rtl/ccn_crp_table.sv). Paper 000 (Michelogiannakis et al.,
// SC'13) section 2.3, notes rules R1-R9: one table per participating resource (a destination's
// egress channel, a router output port that drives an over-subscribed channel).
//
// State: V cells t[0..V-1] of free cycles, cell i covering the slot (absolute epoch) E + i, where
// the epoch E = floor(now / Cmax) is the current one (slot s covers cycles [s*Cmax, (s+1)*Cmax)).
// Cells reset to Cmax; at the end of every epoch the table shifts: t[0] is dropped, the others
// move down and a new cell t[V-1] = Cmax enters (the recycled cell of a circular buffer).
// Cells beyond the table read as 0 (notes G3: the predicate of the last cell sees t[V] = 0).
//
// Operations (a lane; several lanes in one cycle run in order, each seeing the updates of the
// lanes before it):
//   Request (R1-R3, R7): the request vector `vec`, whose bit b stands for slot vec_epoch + b, is
//     first aligned to E (shifted down by E - vec_epoch, ones entering at the top: the router's
//     vector shifting), then ANDed with accept(i) = t[i] > 0 && t[i] + t[i+1] >= x. With
//     `reserve` (a destination's pick, or an eager reservation at a channel) the preferred slot
//     (if given, still in the result and not below `lead`) or else the lowest set bit at or above
//     cell `lead` is reserved: d = min(t[i], x), t[i] -= d, t[i+1] -= x - d (R5's split), and
//     offset = Cmax - t[i] (before the decrement) is the timestamp's offset in the slot (R3: the
//     reservation starts at the slot's first free cycle, ts = slot * Cmax + offset). Nothing to
//     reserve: retry = Long when no cell at or above `lead` accepts x at all (R4b: the table itself
//     is full), else Short (R4a: no common slot).
//   Grant (R5, G5): a grant for slot s of x cycles passes cell i = s - E (a slot already past is
//     charged to the current cells: i = 0) when t[i] + t[i+1] >= x, and takes d = min(t[i], x) and
//     x - d; otherwise `pass` is false (the router converts it into a retry) and nothing changes.
//   Release (R7, G4): an eager reservation given back: take0 cycles to slot s, take1 to s + 1
//     (cells already past are skipped).
//   Charge (R9, G6): a non-participating packet of n flits is charged to the earliest non-zero
//     cell; with `spill` the excess spills into the next non-zero cells, without it the excess is
//     forgotten (a saturating decrement of one cell); `charged` says how much was taken.
// Contract violations (the lane changes nothing, its outputs are zero, `violation` is set, and
// the sticky error flag from then on): an op code that is no op; a Request or Grant with x = 0
// or x > 2 Cmax (R8: N_max <= 2 Cmax); a request vector from a future epoch; a Grant or Release
// slot beyond the table (s - E >= V: the time bases disagree); a Release that would raise a cell
// above Cmax or give cycles to the cell after the last.
//
// Accounting (C++ only, for the conservation invariant of notes 4.8): every cell entering the
// table issues Cmax cycles; then issued - sum(t) - expired (free cycles of cells shifted out) ==
// reserved + granted - released + charged at all times, and 0 <= t[i] <= Cmax.
#pragma once

#include <cstdint>
#include <vector>

#include "blocks/hw_consts.hpp"
#include "core/types.hpp"

namespace ccnet::blocks {

struct CrpTableParams {
  std::uint32_t cells = 32;  // V (2 .. 64): the request vector has one bit per cell
  std::uint32_t cmax = 269;  // cycles per cell (1 .. 65535)
};

enum class CrpOp : std::uint8_t { Nop = 0, Request = 1, Grant = 2, Release = 3, Charge = 4 };
enum class CrpRetry : std::uint8_t { None = 0, Short = 1, Long = 2 };
// The RTL's codes (rtl/ccn_pkg.sv crp_op_e, crp_retry_e) are these values.
static_assert(static_cast<unsigned>(CrpOp::Nop) == static_cast<unsigned>(hw::CrpOpCode::Nop) &&
                  static_cast<unsigned>(CrpOp::Request) == static_cast<unsigned>(hw::CrpOpCode::Request) &&
                  static_cast<unsigned>(CrpOp::Grant) == static_cast<unsigned>(hw::CrpOpCode::Grant) &&
                  static_cast<unsigned>(CrpOp::Release) == static_cast<unsigned>(hw::CrpOpCode::Release) &&
                  static_cast<unsigned>(CrpOp::Charge) == static_cast<unsigned>(hw::CrpOpCode::Charge) &&
                  hw::kNumCrpOpCodes == 5,
              "CrpOp differs from the hardware op codes (blocks/hw_consts.hpp)");
static_assert(static_cast<unsigned>(CrpRetry::None) == static_cast<unsigned>(hw::CrpRetryCode::None) &&
                  static_cast<unsigned>(CrpRetry::Short) == static_cast<unsigned>(hw::CrpRetryCode::Short) &&
                  static_cast<unsigned>(CrpRetry::Long) == static_cast<unsigned>(hw::CrpRetryCode::Long) &&
                  hw::kNumCrpRetryCodes == 3,
              "CrpRetry differs from the hardware retry codes (blocks/hw_consts.hpp)");

// One operation on the table.
struct CrpLane {
  CrpOp op = CrpOp::Nop;
  std::uint32_t size = 0;       // Request, Grant: reservation length x; Charge: flits
  std::uint64_t vec = 0;        // Request: bit b = slot vec_epoch + b still available
  std::uint64_t vec_epoch = 0;  // Request
  bool reserve = false;         // Request: also reserve a slot
  bool prefer = false;          // Request with reserve: try `slot` first
  std::uint32_t lead = 0;       // Request with reserve: cells [0, lead) are not reserved
  std::uint64_t slot = 0;       // Request (preferred), Grant, Release: absolute slot (epoch number)
  std::uint32_t take0 = 0;      // Release: cycles given back to `slot`
  std::uint32_t take1 = 0;      // Release: cycles given back to `slot` + 1
  bool spill = true;            // Charge: the excess goes to the next non-zero cells
};

struct CrpResult {
  std::uint64_t vec = 0;      // Request: the vector aligned to the current epoch and ANDed
  bool reserved = false;      // Request with reserve: a slot was reserved
  std::uint64_t slot = 0;     // the reserved slot
  std::uint32_t offset = 0;   // Cmax - t[i] before the reservation (ts = slot * Cmax + offset)
  std::uint32_t take0 = 0;    // Request (reserved), Grant (passed): cycles taken from slot i
  std::uint32_t take1 = 0;    //   and from slot i + 1
  CrpRetry retry = CrpRetry::None;  // Request with reserve, nothing reserved
  bool pass = false;          // Grant: passed (false: convert into a retry)
  std::uint32_t charged = 0;  // Charge: flits taken from the cells
  bool violation = false;
};

class CrpTable {
 public:
  CrpTable() = default;
  explicit CrpTable(const CrpTableParams& p);
  // Every cell Cmax, epoch 0 (cycle 0), no error, accounting cleared.
  void reset();

  // One lane: what it does (pure) / does it (updates the state the next lane sees).
  CrpResult eval(const CrpLane& lane) const;
  CrpResult apply(const CrpLane& lane);

  // Time. tick(): one clock edge (the table shifts after the last cycle of an epoch).
  // sync(now): jump to cycle `now` (>= the table's time), shifting once per epoch boundary passed
  // (the network model's lazy equivalent of ticking every cycle).
  void tick();
  void sync(Cycle now);

  const CrpTableParams& params() const { return p_; }
  std::uint32_t cell(std::uint32_t i) const { return t_[i]; }
  const std::vector<std::uint32_t>& cells() const { return t_; }
  std::uint64_t epoch() const { return epoch_; }
  std::uint32_t phase() const { return phase_; }  // cycle within the epoch
  bool error() const { return error_; }
  // Stable references for waveforms (the cell vector never reallocates after construction).
  const std::uint32_t& cell_ref(std::uint32_t i) const { return t_[i]; }
  const std::uint64_t& epoch_ref() const { return epoch_; }

  // Accounting and invariants (notes 4.8).
  struct Accounting {
    std::uint64_t issued = 0, expired = 0, reserved = 0, granted = 0, released = 0, charged = 0;
  };
  const Accounting& accounting() const { return acct_; }
  std::uint64_t free_cycles() const;  // sum of t[i]
  // 0 <= t[i] <= Cmax for every cell, and the conservation identity above.
  bool invariants_hold() const;

 private:
  std::uint32_t at(std::int64_t i) const {
    return i >= 0 && i < static_cast<std::int64_t>(p_.cells) ? t_[static_cast<std::size_t>(i)] : 0;
  }
  bool accepts(std::uint32_t i, std::uint32_t x) const { return t_[i] > 0 && t_[i] + at(i + 1) >= x; }
  void shift(std::uint64_t epochs);
  // The lane's effect on the cells (written only by apply).
  struct Effect {
    std::int64_t cell = -1;  // first of the two cells touched (-1: none)
    std::int64_t d0 = 0, d1 = 0;  // signed change of cells `cell` and `cell` + 1
  };
  CrpResult decide(const CrpLane& lane, Effect& effect) const;

  CrpTableParams p_;
  std::vector<std::uint32_t> t_;
  std::uint64_t epoch_ = 0;
  std::uint32_t phase_ = 0;
  bool error_ = false;
  Accounting acct_;
};

}  // namespace ccnet::blocks
