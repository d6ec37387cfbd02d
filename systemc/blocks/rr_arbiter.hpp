// Round-robin arbiter with priority levels and an optional lock (mirrored by rtl/ccn_rr_arbiter.sv).
//
// Behaviour (one cycle):
//   * Requester i asks with req[i] at level prio[i] (higher number = higher priority).
//   * Locked (Lock mode, a transfer in progress): grant the owner if it requests, else nothing.
//   * Otherwise grant goes to the highest non-empty level; within it, to the first requester at
//     or after that level's pointer, cyclically.
//   * State update on the clock edge when `ack` (the grant was used): the level's pointer moves
//     to the granted index + 1 (so the winner has lowest priority next time), and in Lock mode
//     the arbiter locks onto the winner unless `last` (the transfer ends with this grant).
// The grant is a combinational function of the requests and the state.
// Contract (asserted in the RTL): a requester index is < num_req and, when num_prio > 1, its
// level is < num_prio (with num_prio == 1 the level is ignored). A request or commit outside it
// throws std::invalid_argument naming the requester, the value and the limit.
#pragma once

#include <cstdint>
#include <vector>

namespace ccnet::blocks {

struct RrArbiterParams {
  unsigned num_req = 2;
  unsigned num_prio = 1;
  bool lock = false;
};

class RrArbiter {
 public:
  struct Request {
    std::uint32_t index;
    std::uint32_t prio;
  };

  RrArbiter() = default;
  explicit RrArbiter(const RrArbiterParams& p);

  void reset();

  // Sparse evaluation: the requests that are asserted (any order). Returns the granted index or
  // -1. Pure: does not change state.
  int pick(const Request* reqs, std::size_t n) const;
  // Order key of a request: among asserted requests, pick() grants the one with the largest
  // key (higher level first, then nearest at or after that level's pointer). Unlocked only.
  std::uint64_t order_key(std::uint32_t index, std::uint32_t prio) const {
    if (p_.num_prio == 1) prio = 0;
    if (index >= p_.num_req || prio >= p_.num_prio) bad_request("request", index, prio);
    const std::uint32_t ptr = ptr_[prio];
    const std::uint32_t dist = index >= ptr ? index - ptr : index + p_.num_req - ptr;
    return (static_cast<std::uint64_t>(prio) << 32) | (p_.num_req - dist);
  }
  // Dense evaluation (the RTL port view): req[i] != 0 asserts requester i.
  int comb(const std::vector<std::uint8_t>& req, const std::vector<std::uint32_t>& prio) const;
  // Dense multi-grant evaluation (rtl/ccn_rr_arbiter.sv with NumPass / NumGroup): pass k picks
  // among the requesters no earlier pass granted and, when `group` is not null, whose group
  // differs from the group of every earlier pass's winner. All passes see the same state (this
  // is the input stage of SwitchAllocator). Writes winners[0..num_pass), -1 for no grant; the
  // caller commits the used ones in pass order. Arrays have params().num_req entries.
  void comb_passes(const std::uint8_t* req, const std::uint32_t* prio, const std::uint32_t* group,
                   unsigned num_pass, int* winners) const;

  // Clock edge: apply the effect of using grant `granted` (at level `prio`); `last` ends a
  // locked transfer. Call only when the grant was used (ack).
  void commit(int granted, std::uint32_t prio, bool last) {  // inline: once per grant of every allocator
    if (granted < 0) return;
    const auto g = static_cast<std::uint32_t>(granted);
    if (p_.num_prio == 1) prio = 0;
    if (g >= p_.num_req || prio >= p_.num_prio) bad_request("commit", g, prio);
    ptr_[prio] = g + 1 == p_.num_req ? 0 : g + 1;
    if (p_.lock) {
      locked_ = !last;
      owner_ = g;
    }
  }

  const RrArbiterParams& params() const { return p_; }
  std::uint32_t pointer(std::uint32_t level) const { return ptr_[level]; }
  bool locked() const { return locked_; }
  std::uint32_t owner() const { return owner_; }

 private:
  [[noreturn]] void bad_request(const char* what, std::uint32_t index, std::uint32_t prio) const;

  RrArbiterParams p_;
  std::vector<std::uint32_t> ptr_;  // per level
  bool locked_ = false;
  std::uint32_t owner_ = 0;
};

}  // namespace ccnet::blocks
