// The clock domain's sleeping members (core/clock_domain.hpp): a member that sleeps is skipped
// until it is woken, by a timed wake at the edge it asked for (wake_in) or by a direct wake; the
// awake members keep their evaluation order.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "core/clock_domain.hpp"

using namespace ccnet;

namespace {

const sc_core::sc_time kPeriod(1, sc_core::SC_NS);

// Records the cycles at which it is evaluated (and the order of evaluations in `log`). From the
// second edge on, at each cycle in `sleep_at` it sleeps for the given number of edges (0: until
// woken directly).
struct Member final : sc_core::sc_module, Clocked {
  sc_core::sc_in<bool> clk{"clk"};
  ClockDomain& domain;
  std::vector<std::string>& log;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> sleep_at;  // (cycle, edges)
  std::vector<std::uint64_t> seen;
  std::size_t slot = 0;
  SC_HAS_PROCESS(Member);
  Member(sc_core::sc_module_name n, ClockDomain& d, std::vector<std::string>& l)
      : sc_core::sc_module(n), domain(d), log(l) {
    SC_METHOD(tick);
    sensitive << clk.pos();
    dont_initialize();
  }
  void tick() {
    slot = domain.enlist(*this);
    evaluate();
  }
  void evaluate() override {
    const auto cycle = static_cast<std::uint64_t>(sc_core::sc_time_stamp() / kPeriod);
    seen.push_back(cycle);
    log.push_back(std::string(basename()) + "@" + std::to_string(cycle));
    for (const auto& [at, edges] : sleep_at)
      if (at == cycle) {
        if (edges) domain.wake_in(slot, edges);
        domain.sleep(slot);
      }
  }
};

}  // namespace

TEST_CASE("clock domain: a timed wake evaluates a sleeping member at exactly the edge it asked for", "[net][clock_domain]") {
  sc_core::sc_clock clk("clk", kPeriod);
  ClockDomain domain("domain");
  domain.clk(clk);
  domain.need_horizon(100);
  CHECK(domain.horizon() >= 100);
  std::vector<std::string> log;
  // Enough members for the awake set (and the wheel) to grow past one 64-bit word.
  std::vector<std::unique_ptr<Member>> members;
  for (int k = 0; k < 70; ++k) {
    members.push_back(std::make_unique<Member>(("m" + std::to_string(k)).c_str(), domain, log));
    members.back()->clk(clk);
  }
  Member& a = *members[0];
  Member& b = *members[1];
  Member& last = *members[69];
  a.sleep_at = {{2, 3}, {5, 100}};  // asleep for cycles 3-4, woken at 5; then for 99 cycles
  b.sleep_at = {{3, 0}};            // asleep until woken directly
  last.sleep_at = {{1, 1}, {4, 7}};  // a wake at the very next edge; then asleep for cycles 5-10
  sc_core::sc_start(11.5 * kPeriod);  // the edges of cycles 0-11
  CHECK(members[2]->seen.size() == 12);
  CHECK(a.seen == std::vector<std::uint64_t>{0, 1, 2, 5});
  CHECK(b.seen == std::vector<std::uint64_t>{0, 1, 2, 3});
  CHECK(last.seen == std::vector<std::uint64_t>{0, 1, 2, 3, 4, 11});
  domain.wake(b.slot);
  sc_core::sc_start(95 * kPeriod);  // cycles 12-106
  CHECK(b.seen.size() == 4 + 95);
  CHECK(b.seen.back() == 106);
  // a slept from cycle 5 with a wake 100 edges later: evaluated at 5, then 105 and 106.
  CHECK(a.seen.back() == 106);
  CHECK(a.seen[a.seen.size() - 3] == 5);
  CHECK(a.seen[a.seen.size() - 2] == 105);
  // At a woken member's edge the awake members keep the slot order.
  std::vector<std::string> at105;
  for (const auto& e : log)
    if (e.size() > 4 && e.compare(e.size() - 4, 4, "@105") == 0) at105.push_back(e);
  REQUIRE(at105.size() == 70);
  CHECK(at105[0] == "m0@105");
  CHECK(at105[1] == "m1@105");
  CHECK(at105[69] == "m69@105");
}
