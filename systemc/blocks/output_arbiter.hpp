// Per-output credit arbiter (mirrored by rtl/ccn_output_arbiter.sv).
//
// One instance per router output port (or NIC injection port). It owns the credit counters of
// the port's downstream VCs and, each cycle, picks which VC sends a flit on the link:
//   * requester v (one per VC) asserts req[v] with the flit at the head of VC v's queue, its
//     class priority prio[v], whether it is a packet head, and the packet length len[v];
//   * v is eligible if its downstream VC can take the flit: one credit for wormhole and for
//     body flits, the whole packet (credits >= len) for a head flit under virtual cut-through;
//   * among eligible requesters the grant goes to the highest priority level, round-robin
//     within it (an RrArbiter without lock);
//   * `enable` low (link busy / stalled) suppresses the grant.
// Clock edge: the granted VC takes one credit; credit lanes returned by the downstream router
// (give_vc[k] for k < give_count) add one credit each to their VC. A lane naming a VC >= num_vc,
// a credit overflow or an underflow is a violation: commit() returns false and error() sticks.
// Contract on the request side (asserted in the RTL): a request names a VC < num_vc, a level
// < num_prio (when num_prio > 1) and, for a head flit under virtual cut-through, a length >= 1;
// pick() throws std::invalid_argument naming the VC and the value otherwise, and commit() does
// for a granted VC >= num_vc.
#pragma once

#include <cstdint>
#include <vector>

#include "blocks/credit_counter.hpp"
#include "blocks/rr_arbiter.hpp"

namespace ccnet::blocks {

struct OutputArbiterParams {
  unsigned num_vc = 2;
  unsigned num_prio = 1;
  std::uint32_t credits = 4;     // downstream buffer depth per VC
  std::uint32_t max_give = 1;    // credit lanes
  bool vct = true;               // virtual cut-through (whole packet) vs wormhole (one flit)
};

class OutputArbiter {
 public:
  struct Request {
    std::uint32_t vc;
    std::uint32_t prio;
    std::uint32_t len;
    bool head;
  };

  OutputArbiter() = default;
  explicit OutputArbiter(const OutputArbiterParams& p);
  // Per-VC depths (ports whose downstream VCs differ in depth, e.g. per-class buffers).
  OutputArbiter(const OutputArbiterParams& p, const std::vector<std::uint32_t>& depth);

  void reset();

  bool eligible(const Request& r) const {
    const std::uint32_t c = credits_[r.vc].count();
    return (p_.vct && r.head) ? c >= r.len : c >= 1;
  }
  // Sparse evaluation over the asserted requests. Returns the granted VC or -1. Pure.
  int pick(const Request* reqs, std::size_t n, bool enable = true) const;

  // Clock edge. `granted` = pick() result (or -1); `give_vc[0..give_count)` credit lanes.
  // Returns false if a credit counter saw a violation.
  bool commit(int granted, std::uint32_t granted_prio, const std::uint16_t* give_vc,
              std::uint32_t give_count);
  // What commit() would return, without committing (the RTL's combinational violation_o).
  bool check_commit(int granted, const std::uint16_t* give_vc, std::uint32_t give_count) const;

  std::uint32_t credits(std::uint32_t vc) const { return credits_[vc].count(); }
  std::uint32_t depth(std::uint32_t vc) const { return credits_[vc].params().init; }
  bool error() const;
  const OutputArbiterParams& params() const { return p_; }
  const RrArbiter& arbiter() const { return arb_; }

 private:
  [[noreturn]] void bad_request(std::uint32_t vc, const char* what, std::uint32_t value) const;

  OutputArbiterParams p_;
  RrArbiter arb_;
  std::vector<CreditCounter> credits_;
  bool lane_error_ = false;  // a credit lane named a VC >= num_vc (sticky, like the counters')
};

}  // namespace ccnet::blocks
