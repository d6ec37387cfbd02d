// Per-output credit arbiter core (reference semantics of rtl/ccn_output_arbiter.sv).
#include <catch2/catch.hpp>

#include <vector>

#include "blocks/output_arbiter.hpp"

using namespace ccnet::blocks;

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

TEST_CASE("output_arbiter: wormhole needs one credit, and priority wins", "[output_arbiter]") {
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

TEST_CASE("output_arbiter: requests outside its contract throw a message naming them", "[output_arbiter][contract]") {
  // The RTL asserts these (LenNonZero_A); the C++ core throws instead of granting a zero-length head.
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
}
