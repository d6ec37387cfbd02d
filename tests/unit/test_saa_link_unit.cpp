// The SAA link unit's pure core (blocks/saa_link_unit.hpp): paper 004's Algorithm 1 on one link
// (notes 1.4 messages table), lanes in order, the contract violations, and random legal traffic
// against the invariant W_l >= flows, W_l = 0 exactly when no flow is left.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "blocks/saa_link_unit.hpp"

using namespace ccnet;
using blocks::SaaLinkLane;
using blocks::SaaLinkUnit;
using blocks::SaaLinkUnitParams;
using blocks::SaaLinkViolation;

TEST_CASE("SAA link unit: announce-start adds and returns max(p.W_f, W_l), probe reads, announce-end subtracts",
          "[saa][saa_link_unit]") {
  // The Fig. 1 toy's victim link sw1 -> sw2 carries f1..f4 of weight 1000 each (notes 1.1).
  SaaLinkUnit link;
  CHECK(link.start(1000, 0).wmax == 1000);
  CHECK(link.start(1000, 1500).wmax == 2000);  // W_l after the addition
  CHECK(link.start(1000, 7000).wmax == 7000);  // an earlier link of the path was heavier
  CHECK(link.start(1000, 0).wmax == 4000);
  CHECK(link.weight() == 4000);
  CHECK(link.flows() == 4);
  CHECK(link.probe(0).wmax == 4000);     // the probe's W_f: 4 flows' worth, rate 1/4 each
  CHECK(link.probe(5000).wmax == 5000);  // a probe keeps the path's maximum
  const auto end = link.end(1000);
  CHECK_FALSE(end.bad());
  CHECK(link.weight() == 3000);
  CHECK(link.flows() == 3);
  for (int i = 0; i < 3; ++i) CHECK_FALSE(link.end(1000).bad());
  CHECK(link.weight() == 0);
  CHECK(link.flows() == 0);
  CHECK_FALSE(link.error());
  CHECK(link.invariants_hold());
}

TEST_CASE("SAA link unit: lanes of one cycle see the lanes before them, and eval is pure", "[saa][saa_link_unit]") {
  SaaLinkUnit link;
  const SaaLinkLane start5{true, false, false, 5, 0}, probe{false, false, true, 0, 0}, end5{false, true, false, 5, 0};
  CHECK(link.eval(start5).wmax == 5);
  CHECK(link.eval(start5).wmax == 5);  // eval changes nothing
  CHECK(link.apply(start5).wmax == 5);
  CHECK(link.apply(start5).wmax == 10);
  CHECK(link.apply(probe).wmax == 10);
  CHECK(link.apply(end5).wmax == 0);  // an announce-end passes its packet's field (0 here)
  CHECK(link.apply(probe).wmax == 5);
  const SaaLinkLane idle{false, false, false, 77, 9};
  CHECK(link.apply(idle).wmax == 9);  // no operation: the field passes
  CHECK(link.weight() == 5);
}

TEST_CASE("SAA link unit: contract violations change nothing, name themselves and stick", "[saa][saa_link_unit]") {
  SaaLinkUnit link(SaaLinkUnitParams{4, 2});  // W_l up to 15, up to 3 flows
  auto violates = [&](const SaaLinkLane& l, SaaLinkViolation v) {
    const std::uint64_t w = link.weight();
    const std::uint32_t n = link.flows();
    const auto r = link.apply(l);
    CHECK(r.violation == v);
    CHECK(r.wmax == 0);
    CHECK(link.weight() == w);
    CHECK(link.flows() == n);
    CHECK(link.error());
  };
  violates({true, true, false, 1, 0}, SaaLinkViolation::TwoOps);
  violates({false, true, true, 1, 0}, SaaLinkViolation::TwoOps);
  violates({true, false, false, 0, 0}, SaaLinkViolation::ZeroWeight);
  violates({false, true, false, 1, 0}, SaaLinkViolation::Negative);  // no flow: W_l would go negative
  CHECK_FALSE(link.start(10, 0).bad());
  violates({true, false, false, 6, 0}, SaaLinkViolation::Overflow);  // 16 > 15
  CHECK_FALSE(link.start(5, 0).bad());                              // exactly 15
  CHECK_FALSE(link.probe(0).bad());
  violates({false, true, false, 15, 0}, SaaLinkViolation::Residue);  // nothing left for the other flow
}

TEST_CASE("SAA link unit: announce-end must leave one flit per remaining flow and the last one W_l = 0",
          "[saa][saa_link_unit]") {
  SaaLinkUnit link(SaaLinkUnitParams{8, 2});
  REQUIRE_FALSE(link.start(3, 0).bad());
  REQUIRE_FALSE(link.start(4, 0).bad());
  REQUIRE_FALSE(link.start(2, 0).bad());  // W_l = 9, 3 flows
  CHECK(link.eval({true, false, false, 1, 0}).violation == SaaLinkViolation::CountOverflow);
  CHECK(link.eval({false, true, false, 10, 0}).violation == SaaLinkViolation::Negative);
  CHECK(link.eval({false, true, false, 8, 0}).violation == SaaLinkViolation::Residue);  // 1 left for 2 flows
  CHECK_FALSE(link.eval({false, true, false, 7, 0}).bad());                            // 2 left for 2 flows
  REQUIRE_FALSE(link.end(4).bad());
  REQUIRE_FALSE(link.end(3).bad());  // W_l = 2, 1 flow
  CHECK(link.eval({false, true, false, 1, 0}).violation == SaaLinkViolation::Residue);  // not back to 0
  CHECK_FALSE(link.end(2).bad());
  CHECK(link.weight() == 0);
  CHECK_FALSE(link.error());
  CHECK(std::string(blocks::describe(SaaLinkViolation::Negative)).find("W_l negative") != std::string::npos);
}

TEST_CASE("SAA link unit: random legal traffic keeps W_l the sum of the live flows", "[saa][saa_link_unit]") {
  std::mt19937_64 gen(11);
  for (const auto& p : {SaaLinkUnitParams{64, 32}, SaaLinkUnitParams{6, 3}, SaaLinkUnitParams{1, 1}}) {
    SaaLinkUnit link(p);
    const std::uint64_t max_w = p.weight_width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << p.weight_width) - 1;
    const std::uint64_t max_n = (std::uint64_t{1} << p.count_width) - 1;
    std::vector<std::uint64_t> live;
    std::uint64_t sum = 0;
    for (int i = 0; i < 20000; ++i) {
      const unsigned op = static_cast<unsigned>(gen() % 3);
      if (op == 0 && sum < max_w && live.size() < max_n) {
        const std::uint64_t w = 1 + gen() % std::min<std::uint64_t>(max_w - sum, 1000);
        const std::uint64_t before = gen() % 2000;
        const auto r = link.start(w, before);
        REQUIRE_FALSE(r.bad());
        sum += w;
        live.push_back(w);
        CHECK(r.wmax == std::max(before, sum));
      } else if (op == 1 && !live.empty()) {
        const std::size_t k = gen() % live.size();
        REQUIRE_FALSE(link.end(live[k]).bad());
        sum -= live[k];
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        CHECK(link.probe(0).wmax == sum);
      }
      REQUIRE(link.weight() == sum);
      REQUIRE(link.flows() == live.size());
      REQUIRE(link.invariants_hold());
    }
    CHECK_FALSE(link.error());
  }
}
