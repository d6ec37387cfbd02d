// Separable input-first switch allocator core (reference semantics of rtl/ccn_switch_allocator.sv).
#include <catch2/catch.hpp>

#include <vector>

#include "blocks/switch_allocator.hpp"

using namespace ccnet::blocks;

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

TEST_CASE("switch_allocator: requests outside its contract throw a message naming them", "[switch_allocator][contract]") {
  // The RTL asserts these; the C++ core throws instead of reading out of bounds.
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

TEST_CASE("switch_allocator: requests without a shared input or output are all granted in output order, and commit_one moves the arbiters as commit", "[switch_allocator]") {
  // What the router relies on when it grants conflict-free requests itself (Router::conflict_free_grants).
  SwitchAllocator a({6, 5, 4, 2, 1, 1}), b({6, 5, 4, 2, 1, 1});
  std::uint64_t x = 777;
  auto rnd = [&](unsigned n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<unsigned>((x >> 33) % n);
  };
  std::vector<SwitchAllocator::Grant> ga, gb;
  for (int cycle = 0; cycle < 2000; ++cycle) {
    std::vector<SwitchAllocator::Request> reqs;
    std::vector<bool> out_used(5);
    for (unsigned i = 0; i < 6; ++i) {
      const unsigned o = rnd(5);
      if (rnd(3) == 0 || out_used[o]) continue;
      out_used[o] = true;
      reqs.push_back({i, rnd(4), o, rnd(2)});
    }
    a.allocate(reqs.data(), reqs.size(), ga);
    REQUIRE(ga.size() == reqs.size());
    for (std::size_t k = 0; k + 1 < ga.size(); ++k) REQUIRE(ga[k].output < ga[k + 1].output);
    for (const auto& g : ga) REQUIRE(g.in_rank == 0);
    b.allocate(reqs.data(), reqs.size(), gb);
    REQUIRE(gb.size() == ga.size());
    a.commit(ga);
    for (const auto& g : gb) b.commit_one(g);
    for (unsigned i = 0; i < 6; ++i)
      for (unsigned lv = 0; lv < 2; ++lv) REQUIRE(a.input_arbiter(i).pointer(lv) == b.input_arbiter(i).pointer(lv));
    for (unsigned o = 0; o < 5; ++o)
      for (unsigned lv = 0; lv < 2; ++lv) REQUIRE(a.output_arbiter(o).pointer(lv) == b.output_arbiter(o).pointer(lv));
  }
}
