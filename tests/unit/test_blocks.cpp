// Unit tests of the mirrored block cores (the reference semantics of rtl/ccn_*.sv).
#include <catch2/catch.hpp>

#include "blocks/credit_counter.hpp"
#include "blocks/output_arbiter.hpp"
#include "blocks/rr_arbiter.hpp"
#include "blocks/switch_allocator.hpp"

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

TEST_CASE("rr_arbiter: no request, no grant; state unchanged without ack", "[rr_arbiter]") {
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

TEST_CASE("credit_counter gives and takes in the same cycle", "[credit_counter]") {
  CreditCounter c({3, 2});
  CHECK(c.full());
  CHECK(c.commit(0, true));
  CHECK(c.commit(0, true));
  CHECK(c.count() == 1);
  CHECK(c.commit(1, true));  // give and take together
  CHECK(c.count() == 1);
  CHECK(c.commit(2, false));
  CHECK(c.count() == 3);
  CHECK(c.full());
  CHECK_FALSE(c.error());
}

TEST_CASE("credit_counter reports underflow and overflow, saturating", "[credit_counter]") {
  CreditCounter c({2, 2});
  CHECK_FALSE(c.commit(1, false));  // overflow: already full
  CHECK(c.count() == 2);
  CHECK(c.error());
  CreditCounter d({2, 1});
  CHECK(d.commit(0, true));
  CHECK(d.commit(0, true));
  CHECK(d.empty());
  CHECK_FALSE(d.commit(1, true));  // take from empty, even with a credit arriving
  CHECK(d.count() == 1);
  CHECK(d.error());
  CreditCounter e({4, 1});
  e.commit(0, true);
  e.commit(0, true);
  CHECK_FALSE(e.commit(2, false));  // more lanes than declared
}

TEST_CASE("output_arbiter: virtual cut-through waits for room for the whole packet", "[output_arbiter]") {
  OutputArbiter oa({2, 1, 4, 1, true});
  using R = OutputArbiter::Request;
  // Drain VC0 to 2 credits.
  R r0{0, 0, 1, true};
  REQUIRE(oa.pick(&r0, 1) == 0);
  oa.commit(0, 0, nullptr, 0);
  oa.commit(oa.pick(&r0, 1), 0, nullptr, 0);
  CHECK(oa.credits(0) == 2);
  R big{0, 0, 3, true};
  CHECK(oa.pick(&big, 1) == -1);  // head of a 3-flit packet does not fit in 2
  R body{0, 0, 3, false};
  CHECK(oa.pick(&body, 1) == 0);  // a body flit needs one credit
  std::uint16_t give[1] = {0};
  oa.commit(-1, 0, give, 1);
  CHECK(oa.pick(&big, 1) == 0);
}

TEST_CASE("output_arbiter: wormhole needs one credit; priority wins", "[output_arbiter]") {
  OutputArbiter oa({3, 2, 1, 1, false});
  using R = OutputArbiter::Request;
  R reqs[3] = {{0, 0, 8, true}, {1, 1, 8, true}, {2, 0, 8, true}};
  CHECK(oa.pick(reqs, 3) == 1);  // level 1 beats level 0
  oa.commit(1, 1, nullptr, 0);
  CHECK(oa.credits(1) == 0);
  CHECK(oa.pick(reqs, 3) == 0);  // VC1 out of credits
  CHECK(oa.pick(reqs, 3, false) == -1);
  // Same-cycle give and take on one VC.
  std::uint16_t give[1] = {1};
  oa.commit(0, 0, give, 1);
  CHECK(oa.credits(0) == 0);
  CHECK(oa.credits(1) == 1);
  CHECK_FALSE(oa.error());
  std::uint16_t too_many[1] = {2};
  CHECK_FALSE(oa.commit(-1, 0, too_many, 1));  // VC2 already full
  CHECK(oa.error());
}

TEST_CASE("switch_allocator: one grant per input and output without speedup", "[switch_allocator]") {
  SwitchAllocator sa({3, 3, 2, 1, 1, 1});
  using R = SwitchAllocator::Request;
  std::vector<R> reqs{{0, 0, 0, 0}, {0, 1, 1, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}, {2, 1, 2, 0}};
  std::vector<SwitchAllocator::Grant> g;
  sa.allocate(reqs.data(), reqs.size(), g);
  // Input stage: in0 -> req0 (out0), in1 -> out0, in2 -> req0 (out0). Output 0 picks input 0.
  REQUIRE(g.size() == 1);
  CHECK(g[0].input == 0);
  CHECK(g[0].output == 0);
  sa.commit(g);
  sa.allocate(reqs.data(), reqs.size(), g);
  // in0 now prefers req1 (out1); out0 now prefers input 1.
  REQUIRE(g.size() == 2);
  CHECK(g[0].input == 1);
  CHECK(g[0].output == 0);
  CHECK(g[1].input == 0);
  CHECK(g[1].output == 1);
}

TEST_CASE("switch_allocator: input speedup proposes distinct outputs", "[switch_allocator]") {
  SwitchAllocator sa({2, 2, 3, 1, 2, 2});
  using R = SwitchAllocator::Request;
  std::vector<R> reqs{{0, 0, 0, 0}, {0, 1, 0, 0}, {0, 2, 1, 0}, {1, 0, 0, 0}};
  std::vector<SwitchAllocator::Grant> g;
  sa.allocate(reqs.data(), reqs.size(), g);
  // in0 proposes req0 (out0) then req2 (out1, req1 skipped: same output); out0 accepts in0 and in1.
  REQUIRE(g.size() == 3);
  int to_out0 = 0, to_out1 = 0;
  for (auto& x : g) (x.output == 0 ? to_out0 : to_out1)++;
  CHECK(to_out0 == 2);
  CHECK(to_out1 == 1);
}

TEST_CASE("switch_allocator: no grant is lost or duplicated under random load", "[switch_allocator]") {
  SwitchAllocator sa({5, 4, 6, 3, 2, 2});
  std::uint64_t x = 12345;
  auto rnd = [&](unsigned n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<unsigned>((x >> 33) % n);
  };
  std::vector<SwitchAllocator::Grant> g;
  for (int cycle = 0; cycle < 2000; ++cycle) {
    std::vector<SwitchAllocator::Request> reqs;
    for (unsigned i = 0; i < 5; ++i)
      for (unsigned r = 0; r < 6; ++r)
        if (rnd(2)) reqs.push_back({i, r, rnd(4), rnd(3)});
    sa.allocate(reqs.data(), reqs.size(), g);
    std::vector<int> per_in(5), per_out(4);
    for (auto& gr : g) {
      ++per_in[gr.input];
      ++per_out[gr.output];
      bool found = false;
      for (auto& r : reqs) found = found || (r.input == gr.input && r.req == gr.req && r.output == gr.output);
      REQUIRE(found);
    }
    for (int c : per_in) REQUIRE(c <= 2);
    for (int c : per_out) REQUIRE(c <= 2);
    // Every output with a request got at least one grant (no idle output with proposals).
    sa.commit(g);
  }
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

TEST_CASE("credit_counter next() predicts commit() without changing state", "[credit_counter]") {
  CreditCounter c({2, 2});
  CHECK_FALSE(c.next(1, false).ok);  // overflow
  CHECK(c.next(1, false).count == 2);
  CHECK(c.next(0, true).ok);
  CHECK(c.next(0, true).count == 1);
  CHECK(c.count() == 2);
  CHECK_FALSE(c.error());
}

TEST_CASE("output_arbiter: a credit lane naming no VC is a sticky error", "[output_arbiter]") {
  OutputArbiter oa({2, 1, 2, 2, false});
  std::uint16_t bad[1] = {2};
  CHECK_FALSE(oa.check_commit(-1, bad, 1));
  CHECK_FALSE(oa.error());  // check_commit does not commit
  CHECK_FALSE(oa.commit(-1, 0, bad, 1));
  CHECK(oa.error());
  oa.reset();
  CHECK_FALSE(oa.error());
}

TEST_CASE("output_arbiter check_commit predicts commit", "[output_arbiter]") {
  OutputArbiter oa({2, 1, 2, 2, false});
  std::uint16_t give2[2] = {1, 1};
  CHECK_FALSE(oa.check_commit(-1, give2, 2));  // VC1 full: overflow
  CHECK(oa.check_commit(1, give2, 1));         // take one, get one back
  CHECK(oa.commit(0, 0, nullptr, 0));
  CHECK(oa.commit(0, 0, nullptr, 0));
  CHECK(oa.credits(0) == 0);
  std::uint16_t give0[1] = {0};
  CHECK_FALSE(oa.check_commit(0, give0, 1));  // take from empty although a credit arrives
  CHECK(oa.check_commit(-1, give0, 1));
  const bool predicted = oa.check_commit(-1, give0, 1);
  CHECK(oa.commit(-1, 0, give0, 1) == predicted);
}

TEST_CASE("block cores reject requests outside their contract with a message naming them", "[contract]") {
  // The RTL asserts these (PrioInRange_A, LenNonZero_A); the C++ cores throw instead of reading
  // out of bounds or granting a zero-length head.
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

  OutputArbiter oa({2, 2, 4, 1, true});
  using R = OutputArbiter::Request;
  const R zero_len{0, 0, 0, true};
  CHECK_THROWS_WITH(oa.pick(&zero_len, 1), Catch::Contains("VC 0 with head flit of packet length 0"));
  const R body_zero{0, 0, 0, false};  // a body flit's length is not used
  CHECK(oa.pick(&body_zero, 1) == 0);
  const R bad_vc{2, 0, 1, true};
  CHECK_THROWS_WITH(oa.pick(&bad_vc, 1), Catch::Contains("VC index 2") && Catch::Contains("num_vc 2"));
  const R bad_level{1, 3, 1, true};
  CHECK_THROWS_WITH(oa.pick(&bad_level, 1), Catch::Contains("priority level 3"));
  CHECK_THROWS_WITH(oa.commit(2, 0, nullptr, 0), Catch::Contains("grant of VC 2"));
  OutputArbiter wormhole({2, 1, 4, 1, false});
  CHECK(wormhole.pick(&zero_len, 1) == 0);  // without cut-through the length is not used

  SwitchAllocator sa({3, 3, 2, 2, 1, 1});
  using S = SwitchAllocator::Request;
  std::vector<SwitchAllocator::Grant> g;
  for (const S& r : {S{3, 0, 0, 0}, S{0, 2, 0, 0}, S{0, 0, 3, 0}, S{0, 0, 0, 2}}) {
    INFO("input " << r.input << " req " << r.req << " output " << r.output << " prio " << r.prio);
    CHECK_THROWS_WITH(sa.allocate(&r, 1, g), Catch::Contains("SwitchAllocator: request of input " +
                                                             std::to_string(r.input)));
  }
  const S ok{2, 1, 2, 1};
  sa.allocate(&ok, 1, g);
  CHECK(g.size() == 1);
}
