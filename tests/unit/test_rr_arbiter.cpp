// Round-robin arbiter core with priority levels and lock (reference semantics of rtl/ccn_rr_arbiter.sv).
#include <catch2/catch.hpp>

#include <vector>

#include "blocks/rr_arbiter.hpp"

using namespace ccnet::blocks;

namespace {
int grant(RrArbiter& a, std::vector<std::uint8_t> req, std::vector<std::uint32_t> prio = {}) {
  if (prio.empty()) prio.assign(req.size(), 0);
  return a.comb(req, prio);
}
}  // namespace

TEST_CASE("rr_arbiter rotates among requesters", "[rr_arbiter]") {
  RrArbiter a({4, 1, false});
  std::vector<int> seq;
  for (int c = 0; c < 8; ++c) {
    int g = grant(a, {1, 1, 0, 1});
    seq.push_back(g);
    a.commit(g, 0, true);
  }
  CHECK(seq == std::vector<int>{0, 1, 3, 0, 1, 3, 0, 1});
}

TEST_CASE("rr_arbiter: no request, no grant, and state unchanged without ack", "[rr_arbiter]") {
  RrArbiter a({3, 1, false});
  CHECK(grant(a, {0, 0, 0}) == -1);
  CHECK(grant(a, {0, 1, 1}) == 1);
  CHECK(grant(a, {0, 1, 1}) == 1);  // no commit: same grant
  a.commit(1, 0, true);
  CHECK(grant(a, {0, 1, 1}) == 2);
}

TEST_CASE("rr_arbiter grants the highest priority level, round robin within it", "[rr_arbiter]") {
  RrArbiter a({4, 3, false});
  // levels: r0=0 r1=2 r2=2 r3=1
  std::vector<std::uint32_t> prio{0, 2, 2, 1};
  int g = grant(a, {1, 1, 1, 1}, prio);
  CHECK(g == 1);
  a.commit(g, 2, true);
  g = grant(a, {1, 1, 1, 1}, prio);
  CHECK(g == 2);
  a.commit(g, 2, true);
  CHECK(grant(a, {1, 1, 1, 1}, prio) == 1);
  CHECK(grant(a, {1, 0, 0, 1}, prio) == 3);
  // The level-0 pointer did not move while higher levels were served.
  CHECK(a.pointer(0) == 0);
}

TEST_CASE("rr_arbiter lock holds the owner until last", "[rr_arbiter]") {
  RrArbiter a({3, 1, true});
  int g = grant(a, {1, 1, 1});
  CHECK(g == 0);
  a.commit(g, 0, false);  // more to come
  CHECK(a.locked());
  CHECK(grant(a, {1, 1, 1}) == 0);
  CHECK(grant(a, {0, 1, 1}) == -1);  // owner idle: nobody else gets it
  a.commit(0, 0, true);              // last
  CHECK_FALSE(a.locked());
  CHECK(grant(a, {1, 1, 1}) == 1);
}

TEST_CASE("rr_arbiter width 1", "[rr_arbiter]") {
  RrArbiter a({1, 1, false});
  CHECK(grant(a, {1}) == 0);
  a.commit(0, 0, true);
  CHECK(grant(a, {1}) == 0);
  CHECK(a.pointer(0) == 0);
}

TEST_CASE("rr_arbiter comb_passes: distinct winners, group exclusion, one state", "[rr_arbiter]") {
  RrArbiter a({5, 2, false});
  const std::uint8_t req[5] = {1, 1, 1, 0, 1};
  const std::uint32_t prio[5] = {0, 1, 0, 0, 1};
  const std::uint32_t group[5] = {0, 1, 1, 2, 0};
  int w[3];
  a.comb_passes(req, prio, nullptr, 3, w);
  // Level 1 first (1 then 4), then level 0 from its pointer (0).
  CHECK(w[0] == 1);
  CHECK(w[1] == 4);
  CHECK(w[2] == 0);
  a.comb_passes(req, prio, group, 3, w);
  // 1 (group 1), 4 (group 0), then 0 is in group 0 and 2 in group 1: nobody left.
  CHECK(w[0] == 1);
  CHECK(w[1] == 4);
  CHECK(w[2] == -1);
  // Committing in pass order leaves the level-1 pointer after the last winner.
  a.commit(w[0], 1, true);
  a.commit(w[1], 1, true);
  CHECK(a.pointer(1) == 0);
  a.comb_passes(req, prio, nullptr, 1, w);
  CHECK(w[0] == 1);
}

TEST_CASE("rr_arbiter: requests outside its contract throw a message naming them", "[rr_arbiter][contract]") {
  // The RTL asserts these (PrioInRange_A); the C++ core throws instead of reading out of bounds.

  RrArbiter a({4, 2, false});
  const RrArbiter::Request bad_prio{1, 2};
  CHECK_THROWS_WITH(a.pick(&bad_prio, 1), Catch::Contains("requester 1 at priority level 2") &&
                                               Catch::Contains("num_prio 2"));
  const RrArbiter::Request bad_index{4, 0};
  CHECK_THROWS_WITH(a.pick(&bad_index, 1), Catch::Contains("requester 4") && Catch::Contains("num_req 4"));
  CHECK_THROWS_WITH(a.commit(0, 5, true), Catch::Contains("commit of requester 0 at priority level 5"));
  CHECK_THROWS_AS(a.order_key(0, 2), std::invalid_argument);
  // With one level the level is ignored, as in the RTL.
  RrArbiter one({4, 1, false});
  const RrArbiter::Request any_prio{2, 7};
  CHECK(one.pick(&any_prio, 1) == 2);
}
