// Core utilities: statistics, RNG streams, ring buffer, packet pool, injection engine core.
#include <catch2/catch.hpp>

#include "blocks/injection_engine.hpp"
#include "core/packet.hpp"
#include "core/ring.hpp"
#include "core/rng.hpp"
#include "core/stats.hpp"

using namespace ccnet;

TEST_CASE("latency histogram: exact percentiles below 4096, bounded error above", "[stats]") {
  LatencyHistogram h;
  for (int v = 1; v <= 100; ++v) h.add(static_cast<std::uint64_t>(v));
  CHECK(h.count() == 100);
  CHECK(h.mean() == Approx(50.5));
  CHECK(h.percentile(0.5) == 50);
  CHECK(h.percentile(0.99) == 99);
  CHECK(h.max() == 100);
  CHECK(h.min() == 1);
  LatencyHistogram big;
  for (std::uint64_t v = 10000; v < 20000; ++v) big.add(v);
  const double p50 = static_cast<double>(big.percentile(0.5));
  CHECK(p50 == Approx(14999).epsilon(0.004));
  CHECK(big.max() == 19999);
}

TEST_CASE("summary statistics", "[stats]") {
  const Summary s = Summary::of({1, 2, 3, 4});
  CHECK(s.mean == Approx(2.5));
  CHECK(s.min == 1);
  CHECK(s.max == 4);
  CHECK(s.stddev == Approx(1.118034).epsilon(1e-5));
}

TEST_CASE("rng streams are deterministic and independent by name", "[rng]") {
  RngStream a(42, "x"), b(42, "x"), c(42, "y"), d(43, "x");
  bool all_same = true, differs_c = false, differs_d = false;
  for (int i = 0; i < 100; ++i) {
    const auto va = a.next(), vb = b.next(), vc = c.next(), vd = d.next();
    all_same = all_same && va == vb;
    differs_c = differs_c || va != vc;
    differs_d = differs_d || va != vd;
  }
  CHECK(all_same);
  CHECK(differs_c);
  CHECK(differs_d);
  RngStream u(1, "below");
  std::vector<int> hist(5, 0);
  for (int i = 0; i < 50000; ++i) ++hist[u.below(5)];
  for (int n : hist) CHECK(n == Approx(10000).epsilon(0.05));
  // Geometric gaps of a Bernoulli(p) process have mean (1-p)/p.
  RngStream g(9, "geo");
  double sum = 0;
  for (int i = 0; i < 100000; ++i) sum += static_cast<double>(g.geometric(0.2));
  CHECK(sum / 100000 == Approx(4.0).epsilon(0.03));
}

TEST_CASE("ring buffer grows and keeps order", "[ring]") {
  Ring<int> r(2);
  for (int i = 0; i < 100; ++i) r.push_back(i);
  r.push_front(-1);
  CHECK(r.size() == 101);
  CHECK(r.front() == -1);
  r.pop_front();
  for (int i = 0; i < 100; ++i) {
    CHECK(r.front() == i);
    r.pop_front();
  }
  CHECK(r.empty());
}

TEST_CASE("packet pool recycles ids and keeps references stable", "[packet]") {
  PacketPool pool;
  Packet& first = pool.allocate();
  first.src = 5;
  std::vector<PacketId> ids;
  for (int i = 0; i < 10000; ++i) ids.push_back(pool.allocate().id);
  CHECK(first.src == 5);  // still valid after growth
  CHECK(pool.live() == 10001);
  pool.release(ids[3]);
  CHECK(pool.allocate().id == ids[3]);
  CHECK_THROWS(pool.release(123456));
  pool.release(first.id);
  CHECK_THROWS(pool.release(first.id));  // double release is caught
}

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
