// NIC injection engine core: round robin per packet, CCTI/IPD rate control (reference semantics of
// rtl/ccn_injection_engine.sv).
#include <catch2/catch.hpp>

#include <vector>

#include "blocks/injection_engine.hpp"

using namespace ccnet;

TEST_CASE("injection engine: round robin per packet over non-empty queues", "[injection_engine]") {
  blocks::InjectionEngine e({5, 0, 1, 0, 0});
  e.set_nonempty(1, true);
  e.set_nonempty(3, true);
  e.set_nonempty(4, true);
  std::vector<int> order;
  for (Cycle t = 0; t < 6; ++t) {
    const int g = e.pick(t, true);
    order.push_back(g);
    e.commit(t, g, 1, nullptr, 0);
  }
  CHECK(order == std::vector<int>{1, 3, 4, 1, 3, 4});
  CHECK(e.pick(10, false) == -1);
}

TEST_CASE("injection engine: IPD from CCTI, BECN increase, timer decrease (paper 003 parameters)", "[injection_engine]") {
  // +24 cycles per BECN (one CCT step of 24 cycles), -1 step every 96 cycles.
  blocks::InjectionEngine e({2, 24, 1, 64, 96});
  e.set_nonempty(0, true);
  const std::uint32_t becn[2] = {0, 0};
  e.commit(0, -1, 0, becn, 2);
  CHECK(e.ccti(0) == 2);
  CHECK(e.ipd(0) == 48);
  // A 4-flit packet granted at cycle 1: next start no earlier than 1 + 4 + 48.
  CHECK(e.pick(1, true) == 0);
  e.commit(1, 0, 4, nullptr, 0);
  CHECK(e.next_ok(0) == 53);
  CHECK(e.pick(52, true) == -1);
  CHECK(e.pick(53, true) == 0);
  // The timer fires on its 96th commit (cycles 0..95 -> at cycle 95).
  for (Cycle t = 2; t < 95; ++t) e.commit(t, -1, 0, nullptr, 0);
  CHECK(e.ccti(0) == 2);
  e.commit(95, -1, 0, nullptr, 0);
  CHECK(e.ccti(0) == 1);
  for (Cycle t = 96; t < 191; ++t) e.commit(t, -1, 0, nullptr, 0);
  CHECK(e.ccti(0) == 1);
  e.commit(191, -1, 0, nullptr, 0);
  CHECK(e.ccti(0) == 0);
  CHECK(e.throttled() == 0);
}
