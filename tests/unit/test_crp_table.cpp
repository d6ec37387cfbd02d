// The CRP reservation table's pure core (blocks/crp_table.hpp) against paper 000's worked
// examples (Figs. 3-5, notes 1.6: TV-1..TV-9; TV-10 is in test_crp_hooks.cpp), and randomized
// operation sequences against the invariants of notes 4.8 (0 <= t[i] <= C_max, conservation).
#include <catch2/catch.hpp>

#include <vector>

#include "blocks/crp_table.hpp"
#include "core/rng.hpp"

using namespace ccnet;
using blocks::CrpLane;
using blocks::CrpOp;
using blocks::CrpRetry;
using blocks::CrpTable;

namespace {

constexpr std::uint32_t kC = 512;  // the figures' C_max
constexpr std::uint64_t kAll = 0xffffffffull;

// Bits of a vector written as the paper does, cell A first ("TTTFF" -> bits 0..4), the cells
// not written keeping `rest`.
std::uint64_t vec(const std::string& cells, bool rest = true) {
  std::uint64_t v = rest ? kAll & ~((std::uint64_t{1} << cells.size()) - 1) : 0;
  for (std::size_t i = 0; i < cells.size(); ++i)
    if (cells[i] == 'T') v |= std::uint64_t{1} << i;
  return v;
}

// A table of 32 cells of C_max = 512 whose first cells are `cells` (the others 512), reached
// through grants (so its accounting stays consistent).
CrpTable table(const std::vector<std::uint32_t>& cells) {
  CrpTable t({32, kC});
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i] == kC) continue;
    CrpLane g;
    g.op = CrpOp::Grant;
    g.slot = i;
    g.size = kC - cells[i];
    REQUIRE(t.apply(g).pass);
  }
  for (std::size_t i = 0; i < cells.size(); ++i) REQUIRE(t.cell(static_cast<std::uint32_t>(i)) == cells[i]);
  REQUIRE(t.invariants_hold());
  return t;
}

std::vector<std::uint32_t> first(const CrpTable& t, std::size_t n) {
  return std::vector<std::uint32_t>(t.cells().begin(), t.cells().begin() + static_cast<long>(n));
}

CrpLane request(std::uint32_t x, std::uint64_t v, bool reserve) {
  CrpLane l;
  l.op = CrpOp::Request;
  l.size = x;
  l.vec = v;
  l.reserve = reserve;
  return l;
}

// The Fig. 4 channel: A=512, B=10, C=100, D=0, E=10, F=0 (notes TV-2: F < 70, take 0).
const std::vector<std::uint32_t> kChannel{512, 10, 100, 0, 10, 0};

}  // namespace

TEST_CASE("CRP table TV-1: cells reset to C_max, slot i covers cycles (E+i) C_max to (E+i+1) C_max", "[crp][table]") {
  CrpTable t({32, kC});
  CHECK(t.cells() == std::vector<std::uint32_t>(32, kC));
  CHECK(t.epoch() == 0);
  t.sync(511);
  CHECK(t.epoch() == 0);  // cell A still covers 0..511
  t.sync(512);
  CHECK(t.epoch() == 1);  // now cell A covers 512..1023 (was B)
  CHECK(std::uint64_t{32} * kC == 16384);  // the horizon of Fig. 3
}

TEST_CASE("CRP table TV-2: a channel ANDs a request of x = 80 (Fig. 4)", "[crp][table]") {
  CrpTable t = table(kChannel);
  const auto r = t.apply(request(80, kAll, false));
  CHECK((r.vec & 0x3f) == vec("TTTFFF", false));
  CHECK(r.vec == vec("TTTFFF"));  // the untouched cells (512) accept
  CHECK(!r.reserved);
  CHECK(first(t, 6) == kChannel);  // a request without reservation changes nothing
}

TEST_CASE("CRP table TV-3: the destination picks B and answers timestamp 984 (Fig. 5)", "[crp][table]") {
  CrpTable t = table({30, 40, 100, 512, 100});
  const auto r = t.apply(request(80, vec("TTTFFF"), true));
  CHECK((r.vec & 0x1f) == vec("FTTFF", false));
  REQUIRE(r.reserved);
  CHECK(r.slot == 1);
  CHECK(r.offset == 472);
  CHECK(r.slot * kC + r.offset == 984);
  CHECK((r.take0 == 40 && r.take1 == 40));
  CHECK(first(t, 5) == std::vector<std::uint32_t>{30, 0, 60, 512, 100});
  CHECK(r.retry == CrpRetry::None);
}

TEST_CASE("CRP table TV-4: the grant for 984 passes the Fig. 4 channel, 10 from B and 70 from C", "[crp][table]") {
  CrpTable t = table(kChannel);
  CrpLane g;
  g.op = CrpOp::Grant;
  g.slot = 984 / kC;
  g.size = 80;
  const auto r = t.apply(g);
  CHECK(r.pass);
  CHECK((r.take0 == 10 && r.take1 == 70));
  CHECK(first(t, 6) == std::vector<std::uint32_t>{512, 0, 30, 0, 10, 0});
}

TEST_CASE("CRP table TV-5: a grant that no longer fits is converted into a retry, nothing decremented", "[crp][table]") {
  CrpTable t = table({512, 10, 60, 0, 10, 0});
  CrpLane g;
  g.op = CrpOp::Grant;
  g.slot = 1;
  g.size = 80;
  const auto r = t.apply(g);
  CHECK(!r.pass);
  CHECK(!r.violation);
  CHECK(first(t, 6) == std::vector<std::uint32_t>{512, 10, 60, 0, 10, 0});
}

TEST_CASE("CRP table TV-6: the epoch shift drops A, appends C_max, and a request vector shifts in a 1", "[crp][table]") {
  CrpTable t = table(kChannel);
  for (int i = 0; i < 511; ++i) t.tick();
  CHECK(t.epoch() == 0);
  t.tick();  // cycle 512
  CHECK(t.epoch() == 1);
  CHECK(first(t, 5) == std::vector<std::uint32_t>{10, 100, 0, 10, 0});
  CHECK(t.cell(31) == kC);
  CHECK(t.invariants_hold());
  // The vector TTTFF...1 of epoch 0, seen in epoch 1 by a table that accepts everything: TTFF...11.
  CrpTable fresh({32, kC});
  fresh.sync(512);
  CrpLane l = request(80, vec("TTTFF"), false);
  l.vec_epoch = 0;
  CHECK(fresh.apply(l).vec == vec("TTFF"));
}

TEST_CASE("CRP table TV-7: t(i) >= x alone: ts = 1024 + 512 - 100 = 1436, C becomes 20", "[crp][table]") {
  CrpTable t = table({30, 0, 100});
  const auto r = t.apply(request(80, kAll, true));
  REQUIRE(r.reserved);
  CHECK(r.slot == 2);
  CHECK(r.slot * kC + r.offset == 1436);
  CHECK(first(t, 4) == std::vector<std::uint32_t>{30, 0, 20, 512});
}

TEST_CASE("CRP table TV-8: a 32-flit non-participating packet on (0, 10, 100)", "[crp][table]") {
  CrpLane c;
  c.op = CrpOp::Charge;
  c.size = 32;
  SECTION("spilling into the next non-zero cell") {
    CrpTable t = table({0, 10, 100});
    CHECK(t.apply(c).charged == 32);
    CHECK(first(t, 3) == std::vector<std::uint32_t>{0, 0, 78});
    CHECK(t.invariants_hold());
  }
  SECTION("saturating at the earliest non-zero cell") {
    CrpTable t = table({0, 10, 100});
    c.spill = false;
    CHECK(t.apply(c).charged == 10);
    CHECK(first(t, 3) == std::vector<std::uint32_t>{0, 0, 100});
    CHECK(t.invariants_hold());
  }
}

TEST_CASE("CRP table TV-9: retry kinds at the destination", "[crp][table]") {
  SECTION("own table full: long retry (R4b)") {
    CrpTable t({4, 100});
    for (std::uint32_t i = 0; i < 4; ++i) {
      CrpLane g;
      g.op = CrpOp::Grant;
      g.slot = i;
      g.size = 100;
      REQUIRE(t.apply(g).pass);
    }
    const auto r = t.apply(request(10, 0xf, true));
    CHECK(!r.reserved);
    CHECK(r.retry == CrpRetry::Long);
  }
  SECTION("every cell pair below x: long retry") {
    CrpTable t({4, 100});
    for (std::uint32_t i = 0; i < 4; ++i) {
      CrpLane g;
      g.op = CrpOp::Grant;
      g.slot = i;
      g.size = 80;
      REQUIRE(t.apply(g).pass);
    }
    CHECK(t.apply(request(50, 0xf, true)).retry == CrpRetry::Long);  // pairs hold 40 < 50; last cell 20 (G3: t[V] = 0)
    CHECK(t.apply(request(40, 0xf, true)).reserved);
  }
  SECTION("room, but no slot in common with the vector: short retry (R4a)") {
    CrpTable t({4, 100});
    const auto r = t.apply(request(10, 0, true));
    CHECK(!r.reserved);
    CHECK(r.retry == CrpRetry::Short);
    CHECK(t.cells() == std::vector<std::uint32_t>(4, 100));
  }
}

TEST_CASE("CRP table: G3, the last cell accepts only on its own", "[crp][table]") {
  CrpTable t({4, 100});
  CHECK(t.apply(request(100, 0xf, false)).vec == 0xf);
  CHECK(t.apply(request(101, 0xf, false)).vec == 0x7);  // t[3] + t[4] = 100 + 0
}

TEST_CASE("CRP table: eager reservation released, preferred slot, contract violations", "[crp][table]") {
  CrpTable t({8, 100});
  CrpLane r = request(150, 0xff, true);
  const auto a = t.apply(r);
  REQUIRE(a.reserved);
  CHECK((a.slot == 0 && a.take0 == 100 && a.take1 == 50));
  CrpLane pref = request(30, 0xff, true);
  pref.prefer = true;
  pref.slot = 5;
  CHECK(t.apply(pref).slot == 5);
  CrpLane rel;
  rel.op = CrpOp::Release;
  rel.slot = a.slot;
  rel.take0 = a.take0;
  rel.take1 = a.take1;
  t.apply(rel);
  CHECK(first(t, 2) == std::vector<std::uint32_t>{100, 100});
  CHECK(t.invariants_hold());
  CHECK(!t.error());
  // x above 2 C_max, a slot beyond the table, a release above C_max: flagged, nothing changes.
  CHECK(t.apply(request(201, 0xff, true)).violation);
  CrpLane far;
  far.op = CrpOp::Grant;
  far.slot = 8;
  far.size = 10;
  CHECK(t.apply(far).violation);
  CHECK(t.apply(rel).violation);
  CHECK(t.error());
  CHECK(t.cell(5) == 70);
}

TEST_CASE("CRP table: random operations keep 0 <= t(i) <= C_max and conserve cycles", "[crp][table]") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    RngStream rng(seed, "crp_table");
    const std::uint32_t cells = 2 + static_cast<std::uint32_t>(rng.below(40)), cmax = 1 + static_cast<std::uint32_t>(rng.below(300));
    CrpTable t({cells, cmax});
    struct Held { std::uint64_t slot; std::uint32_t take0, take1; };
    std::vector<Held> held;
    for (int step = 0; step < 3000; ++step) {
      const auto r = rng.below(6);
      CrpLane l;
      if (r == 0) {
        t.sync(t.epoch() * cmax + t.phase() + rng.below(cmax));
        continue;
      }
      if (r == 1 || r == 2) {
        l = request(1 + static_cast<std::uint32_t>(rng.below(2 * cmax)), rng.next(), true);
        l.vec_epoch = t.epoch() - std::min<std::uint64_t>(t.epoch(), rng.below(3));
        const auto res = t.apply(l);
        if (res.reserved) held.push_back({res.slot, res.take0, res.take1});
      } else if (r == 3) {
        l.op = CrpOp::Grant;
        l.size = 1 + static_cast<std::uint32_t>(rng.below(2 * cmax));
        l.slot = t.epoch() + rng.below(cells);
        t.apply(l);
      } else if (r == 4 && !held.empty()) {
        const Held h = held.back();
        held.pop_back();
        l.op = CrpOp::Release;
        l.slot = h.slot;
        l.take0 = h.take0;
        l.take1 = h.take1;
        CHECK(!t.apply(l).violation);
      } else {
        l.op = CrpOp::Charge;
        l.size = static_cast<std::uint32_t>(rng.below(3 * cmax));
        l.spill = rng.below(2) == 0;
        t.apply(l);
      }
      REQUIRE(t.invariants_hold());
    }
    CHECK(!t.error());
  }
}
