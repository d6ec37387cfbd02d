// Core utilities: statistics, RNG streams, ring buffer, packet pool and format, mechanism counters.
#include <catch2/catch.hpp>
#include <vector>

#include "core/active_set.hpp"
#include "core/counters.hpp"
#include "core/flit.hpp"
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

TEST_CASE("packet format: kernel kinds and flags, then the mechanism's, by name", "[packet]") {
  PacketFormat f;
  CHECK(f.num_kinds() == kFirstMechanismKind);
  CHECK(f.kind_name(PacketKind::Data) == "data");
  CHECK(f.kind_name(PacketKind::Ack) == "ack");
  CHECK(f.answer(PacketKind::Ack) == Answer::Delivered);
  CHECK(f.answer(PacketKind::Data) == Answer::None);
  const PacketKind refusal = f.declare_kind("refusal", Answer::Refused);
  const PacketKind grant = f.declare_kind("grant");
  CHECK(static_cast<unsigned>(refusal) == kFirstMechanismKind);
  CHECK(static_cast<unsigned>(grant) == kFirstMechanismKind + 1);
  CHECK(f.answer(refusal) == Answer::Refused);
  CHECK(f.answer(grant) == Answer::None);
  PacketKind k;
  CHECK((f.find_kind("grant", k) && k == grant));
  CHECK_FALSE(f.find_kind("retry", k));
  CHECK_THROWS_WITH(f.declare_kind("grant"), Catch::Contains("'grant' declared twice"));
  CHECK_THROWS_WITH(f.declare_kind("ack"), Catch::Contains("'ack' declared twice"));

  const PacketFlag mark = f.declare_flag("mark");
  const PacketFlag spec = f.declare_flag("spec");
  CHECK(mark == 1u << kFirstMechanismFlag);
  CHECK(spec == 1u << (kFirstMechanismFlag + 1));
  CHECK(f.mechanism_flags() == (mark | spec));
  CHECK(f.flag_names(kFlagRetransmit | spec) == "retransmit,spec");
  CHECK(f.flag_names(mark | spec, " ") == "mark spec");
  CHECK_THROWS_WITH(f.declare_flag("measured"), Catch::Contains("declared twice"));
  while (f.num_flags() < kMaxPacketFlags) f.declare_flag("f" + std::to_string(f.num_flags()));
  CHECK_THROWS_WITH(f.declare_flag("one_too_many"), Catch::Contains("more than 32 packet flags"));
  while (f.num_kinds() < kMaxPacketKinds) f.declare_kind("k" + std::to_string(f.num_kinds()));
  CHECK_THROWS_WITH(f.declare_kind("one_too_many"), Catch::Contains("more than 16 packet kinds"));

  Packet p;
  p.set(mark);
  CHECK(p.has(mark));
  CHECK_FALSE(p.has(spec));
  p.clear(mark);
  CHECK(p.flags == 0);
}

TEST_CASE("mechanism counters: registered by name, merged by sum or max, series per window", "[counters]") {
  CounterSet a(100), b(100);
  std::uint64_t& drops_a = a.counter("drops");
  std::uint64_t& peak_a = a.counter("peak", CounterSet::Merge::Max);
  SeriesCounter& s_a = a.series("marks");
  std::uint64_t& drops_b = b.counter("drops");
  std::uint64_t& peak_b = b.counter("peak", CounterSet::Merge::Max);
  SeriesCounter& s_b = b.series("marks");
  CHECK_THROWS_WITH(a.counter("drops"), Catch::Contains("'drops' registered twice"));
  CHECK_THROWS_WITH(a.series("peak"), Catch::Contains("'peak' registered twice"));
  // References stay valid while more counters are registered.
  for (int i = 0; i < 100; ++i) a.counter("c" + std::to_string(i));
  drops_a = 3;
  drops_b = 4;
  peak_a = 7;
  peak_b = 5;
  s_a.add(50);        // window 0
  s_a.add(250, 2);    // window 2
  s_b.add(99);        // window 0
  CounterReport r;
  r.add(a);
  r.add(b);
  const Json c = r.counters_json();
  CHECK(c["drops"] == 7);
  CHECK(c["peak"] == 7);
  CHECK(c["c99"] == 0);
  const Json s = r.series_json();
  CHECK(s["window"] == 100);
  CHECK(s["start"] == Json::array({0, 100, 200}));
  CHECK(s["marks"] == Json::array({2, 0, 2}));
  CounterSet clash;
  clash.counter("drops", CounterSet::Merge::Max);
  CHECK_THROWS_WITH(r.add(clash), Catch::Contains("two merge rules"));
  // Without a series window nothing is kept, and there is no series section.
  CounterSet off(0);
  off.series("marks").add(10);
  CounterReport none;
  none.add(off);
  CHECK(none.series_json().is_null());
}

TEST_CASE("active set: ascending visits, erase and insert during a visit, merge", "[active_set]") {
  ActiveSet s;
  s.resize(130);
  CHECK(s.empty());
  for (std::size_t i : {129u, 3u, 64u, 63u, 0u}) s.insert(i);
  std::vector<std::size_t> seen;
  s.for_each([&](std::size_t i) {
    seen.push_back(i);
    s.erase(i);
    if (i == 3) s.insert(70);   // above the current member: visited in this pass
    if (i == 64) s.insert(10);  // below: not visited in this pass
  });
  CHECK(seen == std::vector<std::size_t>{0, 3, 63, 64, 70, 129});
  seen.clear();
  s.for_each([&](std::size_t i) { seen.push_back(i); });
  CHECK(seen == std::vector<std::size_t>{10});
  ActiveSet t;
  t.resize(130);
  t.insert(5);
  t.insert(128);
  CHECK(t.words() == 3);
  s.merge(t.data());
  seen.clear();
  s.for_each([&](std::size_t i) { seen.push_back(i); });
  CHECK(seen == std::vector<std::size_t>{5, 10, 128});
  s.clear();
  CHECK(s.empty());
  ActiveSet one;
  one.resize(8);
  one.insert(7);
  one.clear();
  CHECK(one.empty());
}

TEST_CASE("channel protocol: a value is fresh once per seq, idle values never", "[flit]") {
  Flit f;
  CHECK_FALSE(f.fresh(0));
  f.packet = 7;
  f.seq = 1;
  CHECK(f.fresh(0));
  CHECK_FALSE(f.fresh(1));  // the same value left on the channel is not taken twice
  Flit g = f;
  g.seq = 2;
  CHECK(g != f);  // equal but for seq: still a change for the kernel's update
  CreditLanes c;
  CHECK_FALSE(c.fresh(0));
  c.push(3);
  c.seq = 5;
  CHECK(c.fresh(4));
  CHECK_FALSE(c.fresh(5));
  CreditLanes d = c;
  d.seq = 6;
  CHECK(d != c);
}
