// Test helper: the conservation invariants of a whole-network run of the baseline mechanism.
#pragma once

#include <catch2/catch.hpp>

#include "support/net_run.hpp"

namespace ccnet::test {

// Conservation: with traffic stopped and the network drained, every created data flit was
// ejected exactly once at its destination (misrouting and double delivery abort the run inside
// the NIC), every packet was acknowledged, and run_network() verified that every buffer is
// empty and every credit counter is back at its buffer depth (check_quiescent).
inline void check_conservation(const test::NetRun& r) {
  const Json& s = r.stats();
  REQUIRE(s["drained"].get<bool>());
  REQUIRE(s["quiescent_checked"].get<bool>());
  std::uint64_t posted = 0, injected = 0, received = 0, acks = 0, unacked = 0, queued = 0;
  for (const auto& n : r.net->nics()) {
    posted += n->counters().messages_posted;
    injected += n->counters().packets_injected;
    received += n->counters().data_packets_received;
    acks += n->counters().acks_received;
    unacked += n->counters().unacked;
    queued += n->queued_messages();
  }
  CHECK(posted > 1000);
  CHECK(queued == 0);
  CHECK(unacked == 0);
  CHECK(received == acks);
  CHECK(injected == received + acks);  // every injected packet is a data packet or an ACK
  CHECK(r.net->packets().live() == 0);
  CHECK(r.net->stats().data_flits_in_flight() == 0);
  CHECK(s["protocol"]["dropped_packets"] == 0);
}

}  // namespace ccnet::test
