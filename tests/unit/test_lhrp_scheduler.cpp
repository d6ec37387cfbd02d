// LHRP last-hop scheduler core (reference semantics of rtl/ccn_lhrp_scheduler.sv).
#include <catch2/catch.hpp>

#include "blocks/lhrp_scheduler.hpp"

using namespace ccnet::blocks;

TEST_CASE("lhrp scheduler: counts queued flits, drops speculative packets at the threshold", "[lhrp_scheduler]") {
  LhrpScheduler s({2, 8});
  CHECK_FALSE(s.arrive({0, 4, LhrpKind::Speculative}, 10, true).drop);
  CHECK_FALSE(s.arrive({0, 4, LhrpKind::Data}, 10, true).drop);
  CHECK(s.queued(0) == 8);
  // Q = 8 >= threshold: a speculative packet is dropped with a retransmission time.
  auto d = s.arrive({0, 4, LhrpKind::Speculative}, 12, true);
  CHECK(d.drop);
  CHECK(d.time == 12);
  CHECK(s.next_free(0) == 16);
  CHECK(s.queued(0) == 8);  // a dropped packet is not counted
  // The schedule keeps moving forward: consecutive drops are spaced by their lengths.
  d = s.arrive({0, 2, LhrpKind::Speculative}, 13, true);
  CHECK(d.time == 16);
  CHECK(s.next_free(0) == 18);
  // Non-speculative packets are never dropped.
  CHECK_FALSE(s.arrive({0, 4, LhrpKind::Data}, 13, true).drop);
  CHECK(s.queued(0) == 12);
  // The other endpoint is independent.
  CHECK_FALSE(s.arrive({1, 4, LhrpKind::Speculative}, 13, true).drop);
}

TEST_CASE("lhrp scheduler: no free NACK slot means no drop", "[lhrp_scheduler]") {
  LhrpScheduler s({1, 4});
  s.arrive({0, 4, LhrpKind::Data}, 0, true);
  const auto d = s.arrive({0, 4, LhrpKind::Speculative}, 1, false);
  CHECK_FALSE(d.drop);
  CHECK(s.queued(0) == 8);
  CHECK(s.next_free(0) == 0);
}

TEST_CASE("lhrp scheduler: departures, reservations, past times and errors", "[lhrp_scheduler]") {
  LhrpScheduler s({1, 4});
  s.arrive({0, 6, LhrpKind::Data}, 0, true);
  s.depart(0, 6);
  CHECK(s.queued(0) == 0);
  // A reservation is granted at the first free time, never in the past.
  auto g = s.arrive({0, 10, LhrpKind::Reservation}, 100, true);
  CHECK(g.grant);
  CHECK(g.time == 100);
  g = s.arrive({0, 5, LhrpKind::Reservation}, 105, true);
  CHECK(g.time == 110);
  g = s.arrive({0, 5, LhrpKind::Reservation}, 500, true);
  CHECK(g.time == 500);  // the schedule had fallen behind real time
  CHECK(s.next_free(0) == 505);
  CHECK_FALSE(s.error());
  s.depart(0, 1);  // nothing queued: a violation
  CHECK(s.error());
}

TEST_CASE("lhrp scheduler: infinite threshold never drops", "[lhrp_scheduler]") {
  LhrpScheduler s({1, 0xffffffffu});
  for (int i = 0; i < 1000; ++i) CHECK_FALSE(s.arrive({0, 24, LhrpKind::Speculative}, 0, true).drop);
}

TEST_CASE("lhrp scheduler: an arrival naming no endpoint or no kind is a violation and is ignored", "[lhrp_scheduler]") {
  LhrpScheduler s({2, 0});
  s.arrive({0, 3, LhrpKind::Reservation}, 5, true);
  // Endpoint 2 of 2: no decision, no state change, sticky error.
  auto d = s.arrive({2, 4, LhrpKind::Speculative}, 5, true);
  CHECK_FALSE(d.drop);
  CHECK_FALSE(d.grant);
  CHECK(d.time == 0);
  CHECK(s.error());
  // Kind code 3 (the RTL's 2-bit lane kind that is none of the three): the same.
  LhrpScheduler k({1, 0});
  d = k.arrive({0, 4, static_cast<LhrpKind>(3)}, 7, true);
  CHECK_FALSE(d.drop);
  CHECK_FALSE(d.grant);
  CHECK(k.queued(0) == 0);
  CHECK(k.next_free(0) == 0);
  CHECK(k.error());
  // Threshold 0 drops every speculative packet while NACK slots last; the others are queued.
  LhrpScheduler z({1, 0});
  CHECK(z.arrive({0, 2, LhrpKind::Speculative}, 1, true).drop);
  CHECK_FALSE(z.arrive({0, 2, LhrpKind::Speculative}, 1, false).drop);
  CHECK(z.queued(0) == 2);
  CHECK(z.next_free(0) == 3);
  CHECK_FALSE(z.error());
  // A departure equal to the queued flits empties the count without an error.
  z.depart(0, 2);
  CHECK(z.queued(0) == 0);
  CHECK_FALSE(z.error());
}
