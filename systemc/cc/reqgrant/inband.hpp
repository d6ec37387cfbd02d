// Request/grant over the data network (paper 002 section 6.5, the proactive scheme of its ref.
// [15]; notes section 2 item 6): no scheduling network and no out-of-band wires. Requests and
// grants are small packets on the data network's control vnet (its own VCs, priority over data),
// or ride piggybacked on data going the same way; each may combine up to `request_combine`
// (`grant_combine`) packets. The output credit arbiter of output j (blocks::CreditArbiter, the
// core the central scheduler runs) sits in egress adapter j and grants at most one packet per
// packet time against the last-stage crosspoint slots; an in-order delivery returns the slot
// locally. The ingress adapter is reqgrant's: per-destination request and grant counters, the
// throttle u, injection of granted packets only, each through the middle switch its grant
// reserved; the egress re-sequences per source. docs/mechanisms/request-grant.md.
#pragma once

#include <cstdint>

#include "cc/reqgrant/reqgrant.hpp"

namespace ccnet::reqgrant {

struct InbandParams : Params {
  InbandParams();
  std::uint32_t grant_combine = 20;  // packets one grant may carry (section 6.5: up to 20)
  bool piggyback = true;             // requests and grants ride on data to their destination (section 6.5)
  std::uint32_t control_wait = 16;   // cycles a request/grant may wait to combine or for a data packet to carry it
  bool throttle_granted = false;     // u also counts packets granted and not yet injected
  std::uint32_t egress_credit_latency = 1;  // cycles from an in-order delivery to the local arbiter's credit

  static const config::Schema& schema();
  std::unique_ptr<Mechanism> create(const MechanismContext& ctx) const override;
  void validate(const config::BindContext& ctx, const RouterConfig& r, const NicConfig& n) const override;
};

// Payload words of a data packet (word 0: the per-flow sequence number, as in reqgrant) and of a
// request_grant control packet: the packets requested of the destination's output arbiter, the
// packets its output arbiter grants the destination, and the middle switch of the first granted
// packet (a grant's packets take consecutive middle switches mod M, as strict distribution
// pointers give them; a non-consecutive path starts a new grant message).
constexpr unsigned kInbandReqWord = 1, kInbandGrantWord = 2, kInbandPathWord = 3;

}  // namespace ccnet::reqgrant
