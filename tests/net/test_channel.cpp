// A link's channel (core/channel.hpp): it tells its receiver in which cycles its value changed,
// through the receiver's pending-work and wake sets, or through a sampler that takes the new
// value itself in the update phase and may decline it (then the sets are used as without one).
// Committed by its clock domain, it behaves as through the kernel's update list.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <systemc>
#include <utility>
#include <vector>

#include "core/active_set.hpp"
#include "core/channel.hpp"
#include "core/clock_domain.hpp"

using namespace ccnet;

namespace {

const sc_core::sc_time kPeriod(1, sc_core::SC_NS);

// Writes values[k] at the rising edge of cycle k (a repeated value is no change).
struct Writer final : sc_core::sc_module {
  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_out<int> out{"out"};
  std::vector<int> values;
  std::size_t k = 0;
  SC_HAS_PROCESS(Writer);
  explicit Writer(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    SC_METHOD(tick);
    sensitive << clk.pos();
    dont_initialize();
  }
  void tick() {
    if (k < values.size()) out.write(values[k++]);
  }
};

// Records every sampler call: (cycle of the edge before this update phase, the channel's current
// value, the index). Takes the change while `take` is set.
struct Receiver {
  const Channel<int>* channel = nullptr;
  bool take = true;
  std::vector<std::pair<std::uint64_t, int>> calls;
  std::vector<std::size_t> indices;
  static bool sample(void* self, std::size_t index) {
    auto& r = *static_cast<Receiver*>(self);
    r.calls.emplace_back(static_cast<std::uint64_t>(sc_core::sc_time_stamp() / kPeriod), r.channel->read());
    r.indices.push_back(index);
    return r.take;
  }
};

}  // namespace

TEST_CASE("channel: a sampler takes each change in its update phase, or declines it to the pending and wake sets",
          "[net][channel]") {
  sc_core::sc_clock clk("clk", kPeriod);
  Channel<int> ch("ch");
  Writer w("w");
  w.clk(clk);
  w.out(ch);
  w.values = {1, 1, 2, 2, 3, 4};  // changes at the edges of cycles 0, 2, 4 and 5
  ActiveSet pending, wake;
  pending.resize(8);
  wake.resize(70);
  ch.notify(pending, 5);
  ch.also_wake(wake, 66);
  Receiver rx;
  rx.channel = &ch;
  ch.sample_with(&Receiver::sample, &rx);

  sc_core::sc_start(3.5 * kPeriod);  // edges of cycles 0-3
  // Called once per change, after the new value is current, with the index given to notify; the
  // sets are left alone.
  CHECK(rx.calls == std::vector<std::pair<std::uint64_t, int>>{{0, 1}, {2, 2}});
  CHECK(rx.indices == std::vector<std::size_t>{5, 5});
  CHECK(pending.empty());
  CHECK(wake.empty());

  rx.take = false;
  sc_core::sc_start(1 * kPeriod);  // the edge of cycle 4: declined
  CHECK(rx.calls.back() == std::pair<std::uint64_t, int>{4, 3});
  std::vector<std::size_t> p, a;
  pending.for_each([&](std::size_t i) { p.push_back(i); });
  wake.for_each([&](std::size_t i) { a.push_back(i); });
  CHECK(p == std::vector<std::size_t>{5});
  CHECK(a == std::vector<std::size_t>{66});

  pending.clear();
  wake.clear();
  rx.take = true;
  sc_core::sc_start(2 * kPeriod);  // cycles 5-6: one more change, taken
  CHECK(rx.calls.size() == 4);
  CHECK(rx.calls.back() == std::pair<std::uint64_t, int>{5, 4});
  CHECK(pending.empty());
  CHECK(wake.empty());
}

// ---- committed by a clock domain (Channel::commit_by) ---------------------------------------

namespace {

// A member of a clock domain: its own process enlists it at the first edge (and evaluates it
// then); the domain evaluates it from the next edge on.
struct DomainMember : sc_core::sc_module, Clocked {
  sc_core::sc_in<bool> clk{"clk"};
  ClockDomain& domain;
  SC_HAS_PROCESS(DomainMember);
  DomainMember(sc_core::sc_module_name n, ClockDomain& d) : sc_core::sc_module(n), domain(d) {
    SC_METHOD(tick);
    sensitive << clk.pos();
    dont_initialize();
  }
  void tick() {
    domain.enlist(*this);
    evaluate();
  }
};

// A domain member that writes the same value to two channels at every edge (values[k] at cycle
// k, or values' last one), first `glitch` then the value where glitch_at says so (two writes in one
// evaluation, the second one back to the current value: no change).
struct DomainWriter final : DomainMember {
  sc_core::sc_out<int> a{"a"}, b{"b"};
  std::vector<int> values;
  std::vector<std::uint64_t> glitch_at;
  std::uint64_t cycle = 0;
  ChannelCommits* commits = nullptr;
  std::vector<std::size_t> logged;  // commits' log length after each evaluation's writes
  DomainWriter(sc_core::sc_module_name n, ClockDomain& d) : DomainMember(n, d) {}
  void evaluate() override {
    const int v = values[std::min<std::size_t>(cycle, values.size() - 1)];
    for (const auto g : glitch_at)
      if (g == cycle) {
        a.write(-1);
        b.write(-1);
      }
    a.write(v);
    b.write(v);
    logged.push_back(commits->logged());
    ++cycle;
  }
};

// A domain member that records, at each evaluation, what it reads on both channels and whether
// their pending sets name them (then clears them).
struct DomainReader final : DomainMember {
  sc_core::sc_in<int> a{"a"}, b{"b"};
  ActiveSet pa, pb;
  std::vector<std::vector<int>> seen;
  DomainReader(sc_core::sc_module_name n, ClockDomain& d) : DomainMember(n, d) {
    pa.resize(4);
    pb.resize(4);
  }
  void evaluate() override {
    seen.push_back({a.read(), b.read(), pa.contains(2), pb.contains(2)});
    pa.clear();
    pb.clear();
  }
};

// Processes outside the domain: one at every rising edge, one per change event of each channel;
// each records the time, the delta count and what it reads.
struct Outsider final : sc_core::sc_module {
  sc_core::sc_in<bool> clk{"clk"};
  Channel<int>& a;
  Channel<int>& b;
  std::vector<std::vector<std::int64_t>> at_edge, on_a, on_b;
  SC_HAS_PROCESS(Outsider);
  Outsider(sc_core::sc_module_name n, Channel<int>& ca, Channel<int>& cb) : sc_core::sc_module(n), a(ca), b(cb) {
    SC_METHOD(edge);
    sensitive << clk.pos();
    dont_initialize();
    SC_METHOD(changed_a);
    sensitive << a;
    dont_initialize();
    SC_METHOD(changed_b);
    sensitive << b;
    dont_initialize();
  }
  static std::vector<std::int64_t> now(const Channel<int>& c) {
    return {static_cast<std::int64_t>(sc_core::sc_time_stamp() / kPeriod),
            static_cast<std::int64_t>(sc_core::sc_delta_count()), c.read(), c.event()};
  }
  void edge() {
    auto x = now(a);
    x.push_back(b.read());
    x.push_back(b.event());
    at_edge.push_back(x);
  }
  void changed_a() { on_a.push_back(now(a)); }
  void changed_b() { on_b.push_back(now(b)); }
};

}  // namespace

TEST_CASE("channel: committed by its clock domain, a write becomes current in the same update phase as through the kernel",
          "[net][channel]") {
  sc_core::sc_clock clk("clk", kPeriod);
  ClockDomain domain("domain");
  domain.clk(clk);
  // One reader evaluated before the writer and one after it; `a` committed by the domain, `b`
  // through the kernel: everything seen on `a` must be what is seen on `b`.
  DomainReader before("before", domain);
  DomainWriter writer("writer", domain);
  DomainReader after("after", domain);
  Channel<int> a("a"), b("b");
  writer.a(a);
  writer.b(b);
  for (DomainReader* r : {&before, &after}) {
    r->clk(clk);
    r->a(a);
    r->b(b);
  }
  writer.clk(clk);
  writer.values = {1, 1, 2, 3, 3, 3, 4, 5, 5, 6};
  writer.glitch_at = {4, 5, 8};
  writer.commits = &domain.commits();
  a.commit_by(&domain.commits());
  a.notify(before.pa, 2);
  b.notify(before.pb, 2);
  Outsider out("out", a, b);
  out.clk(clk);

  sc_core::sc_start(12.5 * kPeriod);  // the edges of cycles 0-12
  // The first edge's write is the writer's own process's (the kernel's path); from the second edge
  // on, a channel whose new value differs is logged once per edge (a glitch too: its commit then
  // finds no change).
  CHECK(writer.logged == std::vector<std::size_t>{0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0});
  CHECK(domain.commits().logged() == 0);
  REQUIRE(before.seen.size() == 13);
  REQUIRE(after.seen.size() == 13);
  for (const DomainReader* r : {&before, &after})
    for (const auto& s : r->seen) CHECK(s[0] == s[1]);  // the value
  for (const auto& s : before.seen) CHECK(s[2] == s[3]);  // the pending set
  // Each reader sees cycle k-1's value at cycle k.
  CHECK(after.seen[3][0] == 2);
  CHECK(after.seen[7][0] == 4);
  REQUIRE(out.at_edge.size() == 13);
  for (const auto& x : out.at_edge) {
    CHECK(x[2] == x[4]);
    CHECK(x[3] == x[5]);
  }
  REQUIRE(out.on_a.size() == 6);  // 1, 2, 3, 4, 5, 6
  REQUIRE(out.on_a.size() == out.on_b.size());
  for (std::size_t k = 0; k < out.on_a.size(); ++k) CHECK(out.on_a[k] == out.on_b[k]);
  // The change is an event in the delta after its update phase (same time, one delta later).
  CHECK(out.on_a[2][0] == 3);
  CHECK(out.on_a[2][2] == 3);
  CHECK(out.on_a[2][3] == 1);
}
