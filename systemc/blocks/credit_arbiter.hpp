// Per-output credit arbiter of a request/grant scheduler (paper 002, Chrysos et al., section 5.1;
// notes 1.4). The pure C++ core that the `reqgrant` mechanism uses; an RTL mirror
// (rtl/ccn_credit_arbiter.sv) is to follow it.
//
// One arbiter guards one fabric output j. State:
//   * req[i]   N request counters, one per input (flow i -> j): packets requested, not granted;
//   * dist[i]  N distribution pointers: the middle switch (path) of flow i's next packet;
//   * cred[b]  M credit counters, one per path b: free slots of the last-stage crosspoint buffer
//              (middle switch b -> output j), `credits` at reset;
//   * ptr      the round-robin position in the arbiter's visiting order (a permutation of the
//              inputs, fixed at construction: random per output, or common to all outputs);
//   * cur[i]   weighted mode only: the smooth weighted round-robin balance of each input.
//
// Behaviour (one cycle, one packet time):
//   * pick() (combinational): the first input i in visiting order, starting at ptr, with
//     req[i] > 0 and cred[dist[i]] > 0 (strict_path, notes G5: only the path the flow's pointer
//     selects counts), or with any path holding a credit (strict_path false: the first path at or
//     after dist[i] with a credit). Returns the input and the path, or none.
//   * Weighted mode (paper 002 section 6.6, notes 1.7: weighted max-min fairness): among the
//     eligible inputs (as above), the one with the largest cur[e] + weight[e] wins (smooth
//     weighted round robin); a tie goes to the first in visiting order from ptr.
//   * commit(grant) (clock edge): req[i] -= 1, cred[path] -= 1, dist[i] = path + 1 mod M,
//     ptr = the position after i in the visiting order. Weighted mode: every eligible input e
//     gains weight[e] and the winner loses the sum of the eligible inputs' weights; an input
//     whose request counter reaches 0 drops its balance to 0 (an idle flow banks nothing).
//   * add_request(i, n) and add_credit(b) apply what arrived on the request and credit inputs;
//     they take effect at once (the caller applies them before pick() in the cycle they are due).
//
// Contract (violations throw std::invalid_argument naming the value and the limit; the RTL
// flags them): an input index < N and a path index < M; a request counter never exceeds
// `max_requests` (the sources' request throttle u bounds it); a credit counter never exceeds
// `credits` (a credit returned that was never taken); the visiting order is a permutation of
// 0..N-1; committing a grant pick() did not return.
#pragma once

#include <cstdint>
#include <vector>

namespace ccnet::blocks {

struct CreditArbiterParams {
  std::uint32_t num_inputs = 4;     // N: flows (inputs) that request this output
  std::uint32_t num_paths = 2;      // M: middle switches, one credit counter each
  std::uint32_t credits = 12;       // B: slots per last-stage crosspoint buffer
  std::uint32_t max_requests = 32;  // u: bound of a request counter
  bool strict_path = true;          // notes G5: only the path the distribution pointer selects
  bool weighted = false;            // smooth weighted round robin by per-input weights (section 6.6)
};

class CreditArbiter {
 public:
  struct Grant {
    int input = -1;  // -1: no grant
    std::uint32_t path = 0;
    bool valid() const { return input >= 0; }
  };

  // `order`: the visiting order (a permutation of the inputs); `dist0`: each input's first path
  // (empty: input i starts at path i mod M); `weights`: per input, >= 1 (weighted mode; empty:
  // all 1).
  CreditArbiter(const CreditArbiterParams& p, std::vector<std::uint32_t> order, std::vector<std::uint32_t> dist0 = {},
                std::vector<std::uint32_t> weights = {});

  void reset();
  // Whether a request (input, n) or a credit for `path` keeps the contract now (the RTL ignores
  // one that does not and flags it; add_request / add_credit throw).
  bool request_ok(std::uint32_t input, std::uint32_t n) const {
    return input < p_.num_inputs && req_[input] + static_cast<std::uint64_t>(n) <= p_.max_requests;
  }
  bool credit_ok(std::uint32_t path) const { return path < p_.num_paths && cred_[path] < p_.credits; }
  void add_request(std::uint32_t input, std::uint32_t n = 1);
  void add_credit(std::uint32_t path);

  Grant pick() const;
  void commit(const Grant& g);

  const CreditArbiterParams& params() const { return p_; }
  std::uint32_t requests(std::uint32_t input) const { return req_.at(input); }
  std::uint32_t credits(std::uint32_t path) const { return cred_.at(path); }
  std::uint32_t distribution(std::uint32_t input) const { return dist_.at(input); }
  // Position in the visiting order the next search starts at.
  std::uint32_t pointer() const { return ptr_; }
  const std::vector<std::uint32_t>& order() const { return order_; }
  // Sum of the request counters, and credits taken (sum over paths of credits - cred[b]).
  std::uint64_t pending() const { return pending_; }
  std::uint32_t credits_taken() const;
  std::int64_t balance(std::uint32_t input) const { return cur_.at(input); }

 private:
  // Eligible: requests waiting and (strict) the pointer's path has a credit, or (not strict) any
  // path has one; the path it would take.
  bool eligible(std::uint32_t i, std::uint32_t& path) const;
  CreditArbiterParams p_;
  std::vector<std::uint32_t> order_, dist0_, position_;  // position_[i]: i's place in order_
  std::vector<std::uint32_t> weights_;
  std::vector<std::uint32_t> req_, dist_, cred_;
  std::vector<std::int64_t> cur_;  // weighted mode: smooth WRR balances
  std::uint32_t ptr_ = 0;
  std::uint64_t pending_ = 0;
};

}  // namespace ccnet::blocks
