// A link's channel (core/channel.hpp): it tells its receiver in which cycles its value changed,
// through the receiver's pending-work and wake sets, or through a sampler that takes the new
// value itself in the update phase and may decline it (then the sets are used as without one).
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <systemc>
#include <utility>
#include <vector>

#include "core/active_set.hpp"
#include "core/channel.hpp"

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
