// PS pacer (mirrored by rtl/ccn_ps_pacer.sv): the source's periodic-selection pacing of paper 004
// (Birk and Zdornov, SYSTOR'09, section 6, Fig. 7; notes shared/notes/paper-004-birk.md 1.5) in
// fixed point: which of the source's flows may send its next packet, and when.
//
// Flows sit in slots (a NIC send queue each). A slot holds the flow's destination (the tie-break),
// its rate r (Q16: 65536 = line rate), its virtual time V = D / r (Q16 cycles) and whether it has a
// packet to send (ready). The pacer holds the next send time (Q16 cycles).
//   open(slot, dst):     a new flow in the slot; it takes its V at its first ready (below).
//   set_rate(slot, r):   1 <= r <= 65536; V is kept (notes 1.5 choice).
//   set_ready(slot, b):  the slot can (no longer) send. A freshly opened flow's first ready sets
//                        V to the least V of the ready slots (join; 0 if none) or to 0 (zero).
//   pick(now):           the ready slot with a non-zero rate and the least (V, dst), or none
//                        before the next send time (now * 2^16 < next).
//   commit(now, g, len): slot g (pick's answer) started a packet of len flits:
//                        V_g += round(len * 2^32 / r_g); with R = the sum of the rates of the
//                        ready slots and of g (capped at 65536), next = base + ceil(len * 2^32 / R),
//                        base = next if the packet left within the cycle its period ended in
//                        (now * 2^16 < next + 2^16), else now * 2^16 (no catch-up after a stall).
// One cycle of the hardware (cycle()) applies, in this order: open; set_rate; the ready levels
// (falls, then rises of flows already sending, then the first ready of fresh flows, which so join
// at the least V of every other slot ready after the edge); commit of pick's slot (evaluated at
// the cycle's start) when `send` is set.
//
// The two divisions (div_bits, the RTL's DivBits): 0 does them in the send's cycle. div_bits > 0
// is the hardware's iterative divider, div_bits quotient bits per cycle: iters() = ceil((LenW +
// 32) / div_bits) cycles from the send's on, and pick() grants nothing before the send's cycle +
// iters(). The values are those of div_bits = 0: the event interface (commit) applies them at
// once; cycle() as the registers do, at the edge of the divider's last cycle (Overflow is then
// flagged in that cycle, and neither V nor next written), a flow joining while the divider is
// busy taking the least V of the slots other than the granted one and lowered to the granted
// slot's new V at that edge (its V is all ones if the granted slot was the only other one
// sending), and an open of the granted slot while busy cancelling its V update. So div_bits only
// delays grants, and not at all while every packet has iters() flits or more (the next grant
// then comes after iters() cycles anyway).
//
// Contract violations (the operation changes nothing, `violation` is set, and the sticky error
// flag from the next edge on): a slot index out of range; open of a slot that is ready; a rate of
// 0 or above 65536; a ready slot that was never opened; send without a grant or with len = 0 or
// len above 2^LenW - 1; V or the next send time overflowing TimeW bits.
//
// The network model (systemc/cc/saa, `ps_arith: fixed`) runs this core with as many slots as the
// source has destinations with flows (num_flows = 0: open() adds slots); the RTL has
// NumFlows slots, and a NIC built with it must hold a flow's start until a slot is free.
#pragma once

#include <cstdint>
#include <vector>

namespace ccnet::blocks {

struct PsPacerParams {
  std::uint32_t num_flows = 0;    // slots (0: unlimited, the model's; the RTL's NumFlows, 1 .. 32)
  std::uint32_t dst_width = 32;   // bits of a destination id (1 .. 32)
  std::uint32_t time_width = 64;  // bits of V and of the next send time, Q16 cycles (17 .. 64)
  std::uint32_t len_width = 16;   // bits of a packet length in flits (1 .. 16)
  bool join = true;               // a fresh flow's V: the least V of the ready slots (else 0)
  std::uint32_t div_bits = 0;     // quotient bits per cycle of the dividers (0: all in the send's cycle)
};

enum class PsPacerViolation : std::uint8_t {
  None,
  BadSlot,      // a slot index at or above the slot count
  OpenReady,    // open of a slot whose flow still has packets to send
  BadRate,      // a rate of 0 or above 65536
  NotOpen,      // ready on a slot never opened
  NoGrant,      // send while pick() has no slot
  BadLen,       // send of 0 flits or above 2^LenW - 1
  Overflow,     // V or the next send time above 2^TimeW - 1
};
const char* describe(PsPacerViolation v);

// One cycle's inputs of the hardware view.
struct PsPacerInputs {
  bool open = false;
  std::uint32_t open_slot = 0, open_dst = 0;
  bool rate_we = false;
  std::uint32_t rate_slot = 0, rate = 0;  // Q16
  std::vector<bool> ready;                // per slot: the level after this edge
  bool send = false;
  std::uint32_t len = 0;
  std::uint64_t now = 0;  // cycles
};

class PsPacer {
 public:
  static constexpr unsigned kFrac = 16;
  static constexpr std::uint32_t kLineRate = 1u << kFrac;

  struct Slot {
    bool open = false, fresh = false, ready = false;
    std::uint32_t dst = 0;
    std::uint32_t rate = 0;   // Q16
    std::uint64_t vtime = 0;  // Q16 cycles
    bool lower = false;       // cycle(): joined while the divider was busy (the RTL's jp)
  };

  PsPacer() : PsPacer(PsPacerParams{}) {}
  explicit PsPacer(const PsPacerParams& p);
  void reset();

  // The event interface (the network model calls these as its NIC does). Each returns the
  // violation it found (None: done).
  PsPacerViolation open(std::uint32_t slot, std::uint32_t dst);
  PsPacerViolation set_rate(std::uint32_t slot, std::uint32_t rate_q16);
  PsPacerViolation set_ready(std::uint32_t slot, bool ready);
  int pick(std::uint64_t now) const;
  PsPacerViolation commit(std::uint64_t now, std::uint32_t slot, std::uint32_t len);

  // One hardware cycle (the order above); returns the first violation (the others still checked
  // and applied as the hardware does: each violating operation is dropped on its own).
  PsPacerViolation cycle(const PsPacerInputs& in);
  // What cycle() would report, without changing the state.
  PsPacerViolation check(const PsPacerInputs& in) const {
    PsPacer copy = *this;
    return copy.cycle(in);
  }

  const PsPacerParams& params() const { return p_; }
  std::uint32_t slots() const { return static_cast<std::uint32_t>(slots_.size()); }
  const Slot& slot(std::uint32_t k) const { return slots_.at(k); }
  std::uint64_t next() const { return next_; }  // Q16 cycles
  // Cycles of a send's divisions (1: in the send's cycle), and whether cycle()'s divider is busy.
  std::uint32_t iters() const { return iters_; }
  bool busy() const { return pend_.active; }
  int busy_slot() const { return pend_.active ? static_cast<int>(pend_.slot) : -1; }  // the granted slot
  // The next send time rounded up to a cycle.
  std::uint64_t next_cycle() const { return (next_ + kLineRate - 1) >> kFrac; }
  bool error() const { return error_; }

 private:
  PsPacerViolation bad(PsPacerViolation v) {
    error_ = true;
    return v;
  }
  bool slot_ok(std::uint32_t k) const { return p_.num_flows == 0 || k < slots_.size(); }
  // A send's divisions, from its cycle's state; finish() writes them (cycle(): iters() - 1 cycles
  // later).
  struct Pending {
    bool active = false, cancel = false;
    std::uint32_t slot = 0, left = 0;  // cycles still busy
    std::uint64_t vtime = 0, base = 0, step = 0, period = 0;
  };
  Slot& at(std::uint32_t k);  // a slot (model: open() adds the slots up to k)
  void join(Slot& s) const;   // a fresh flow's V
  PsPacerViolation start(std::uint64_t now, std::uint32_t slot, std::uint32_t len, Pending& p);
  PsPacerViolation finish(const Pending& p);

  PsPacerParams p_;
  std::uint64_t max_time_ = 0;  // 2^TimeW - 1
  std::uint32_t max_len_ = 0;   // 2^LenW - 1
  std::uint32_t iters_ = 1;
  std::vector<Slot> slots_;
  std::uint64_t next_ = 0;
  std::uint64_t hold_until_ = 0;  // commit() with iters() > 1: no grant before this cycle
  Pending pend_;                  // cycle(): the divider's send while busy
  bool error_ = false;
};

}  // namespace ccnet::blocks
