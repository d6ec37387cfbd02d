// Separable input-first switch allocator with speedup (mirrored by rtl/ccn_switch_allocator.sv).
//
// Requesters are numbered per input (0..reqs_per_in-1: the input's VCs or VOQs). Each request
// names its target output and a priority level. One allocation per cycle:
//   1. Input stage: each input i runs its round-robin/priority arbiter (RrArbiter) up to
//      speedup_in times; each pass picks among requests not yet picked whose output differs
//      from the outputs this input already picked (one crossbar input lane per pass).
//   2. Output stage: each output o runs its arbiter over the inputs that proposed to it (one
//      proposal per input at most), up to speedup_out passes, each at the proposal's priority.
//   3. Clock edge (commit): arbiters advance only for proposals that won the output stage
//      (iSLIP-style), in pick order, so the last winner of each level gets lowest priority.
// A losing proposal is not retried in the same cycle (single iteration).
// Contract: a request's input, requester, output and (when num_prio > 1) level are within the
// allocator's sizes (in the RTL the request vectors cannot express anything else); allocate()
// throws std::invalid_argument naming the request otherwise.
#pragma once

#include <cstdint>
#include <vector>

#include "blocks/rr_arbiter.hpp"

namespace ccnet::blocks {

struct SwitchAllocatorParams {
  unsigned num_in = 2;
  unsigned num_out = 2;
  unsigned reqs_per_in = 1;
  unsigned num_prio = 1;
  unsigned speedup_in = 1;
  unsigned speedup_out = 1;
};

class SwitchAllocator {
 public:
  struct Request {
    std::uint32_t input;
    std::uint32_t req;     // requester index within the input
    std::uint32_t output;
    std::uint32_t prio;
  };
  struct Grant {
    std::uint32_t input;
    std::uint32_t req;
    std::uint32_t output;
    std::uint32_t prio;
    std::uint32_t in_rank;   // pass of the input stage that proposed it
    std::uint32_t out_rank;  // pass of the output stage that granted it
  };

  SwitchAllocator() = default;
  explicit SwitchAllocator(const SwitchAllocatorParams& p);

  void reset();

  // Combinational allocation; does not change arbiter state. `grants` is overwritten.
  void allocate(const Request* reqs, std::size_t n, std::vector<Grant>& grants);
  // Clock edge: advance the arbiters for the grants allocate() returned (all of them used).
  void commit(const std::vector<Grant>& grants);
  // commit({g}) for a single grant proposed in the input stage's first pass (in_rank 0), without
  // the vector: the same two arbiter moves.
  void commit_one(const Grant& g) {
    out_arb_[g.output].commit(static_cast<int>(g.input), g.prio, true);
    in_arb_[g.input].commit(static_cast<int>(g.req), g.prio, true);
  }

  const SwitchAllocatorParams& params() const { return p_; }
  const RrArbiter& input_arbiter(unsigned i) const { return in_arb_[i]; }
  const RrArbiter& output_arbiter(unsigned o) const { return out_arb_[o]; }

 private:
  [[noreturn]] void bad_request(const Request& r) const;

  SwitchAllocatorParams p_;
  std::vector<RrArbiter> in_arb_, out_arb_;
  // Scratch buffers: sized on first use, reused every cycle (no per-cycle allocation).
  struct Proposal {
    Request req;
    std::uint32_t in_rank;
  };
  std::uint32_t pick_pass(const RrArbiter& arb, const Request* cand, std::size_t n, bool by_input,
                          const std::uint32_t* excluded_outputs, std::size_t n_excluded, std::uint64_t* taken) const;
  std::vector<std::uint32_t> in_count_, out_count_;
  std::vector<Request> sorted_;
  std::vector<Proposal> proposals_, by_out_;
  std::vector<std::uint64_t> taken_;
};

}  // namespace ccnet::blocks
