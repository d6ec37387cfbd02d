// The PS pacer's pure core (blocks/ps_pacer.hpp): paper 004's periodic selection in fixed point
// (notes 1.5): send spacing len / R, the least (V, destination) first, rates in proportion, no
// catch-up after a stall, a fresh flow joining at the least V, the hardware cycle's order, the
// slot limit and every contract violation.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "blocks/ps_pacer.hpp"

using namespace ccnet;
using blocks::PsPacer;
using blocks::PsPacerInputs;
using blocks::PsPacerParams;
using blocks::PsPacerViolation;

namespace {
constexpr std::uint32_t kLine = PsPacer::kLineRate;

// Runs `cycles` cycles sending a `len`-flit packet whenever the pacer grants one (the data stream
// free again after `len` cycles); returns the send cycles and the slots sent.
struct Trace {
  std::vector<std::uint64_t> when;
  std::vector<int> slot;
};
Trace run(PsPacer& p, std::uint64_t from, std::uint64_t cycles, std::uint32_t len) {
  Trace t;
  std::uint64_t free_at = 0;
  for (std::uint64_t now = from; now < from + cycles; ++now) {
    if (now < free_at) continue;
    const int g = p.pick(now);
    if (g < 0) continue;
    REQUIRE(p.commit(now, static_cast<std::uint32_t>(g), len) == PsPacerViolation::None);
    t.when.push_back(now);
    t.slot.push_back(g);
    free_at = now + len;
  }
  return t;
}
}  // namespace

TEST_CASE("PS pacer: one flow at rate 1/3 sends at ceil(i x 3 cycles), never early", "[saa][ps_pacer]") {
  PsPacer p(PsPacerParams{2, 8, 64, 16, true});
  REQUIRE(p.open(0, 7) == PsPacerViolation::None);
  REQUIRE(p.set_rate(0, 21846) == PsPacerViolation::None);  // 65536 / 3 = 21845.33 rounded up: above 1/3
  CHECK(p.pick(0) == -1);  // not ready
  REQUIRE(p.set_ready(0, true) == PsPacerViolation::None);
  const Trace t = run(p, 0, 3000, 1);
  REQUIRE(t.when.size() >= 999);
  for (std::size_t i = 0; i < t.when.size(); ++i) {
    // period = ceil(2^32 / 21846) = 196603 Q16 cycles, a little under 3 cycles; each packet goes
    // in the first cycle at or after its due time, so the schedule follows on
    const std::uint64_t due = (i * 196603 + kLine - 1) / kLine;
    CHECK(t.when[i] == due);
  }
  CHECK(p.slot(0).vtime == t.when.size() * 196602);  // V += round(2^32 / 21846) per packet
}

TEST_CASE("PS pacer: two flows at 1/4 and 3/4 share line rate 1:3, ties to the lower destination",
          "[saa][ps_pacer]") {
  PsPacer p(PsPacerParams{2, 8, 64, 16, true});
  REQUIRE(p.open(0, 9) == PsPacerViolation::None);
  REQUIRE(p.open(1, 4) == PsPacerViolation::None);
  REQUIRE(p.set_rate(0, kLine / 4) == PsPacerViolation::None);
  REQUIRE(p.set_rate(1, 3 * kLine / 4) == PsPacerViolation::None);
  REQUIRE(p.set_ready(0, true) == PsPacerViolation::None);
  REQUIRE(p.set_ready(1, true) == PsPacerViolation::None);
  CHECK(p.pick(0) == 1);  // V equal (0): destination 4 before 9
  const Trace t = run(p, 0, 4000, 2);
  REQUIRE(t.when.size() == 2000);  // R = 1: back to back
  int n0 = 0;
  for (int s : t.slot) n0 += s == 0;
  CHECK(n0 == 500);
}

TEST_CASE("PS pacer: no catch-up after a stall, and a packet within its cycle keeps the schedule", "[saa][ps_pacer]") {
  PsPacer p(PsPacerParams{1, 8, 64, 16, true});
  REQUIRE(p.open(0, 1) == PsPacerViolation::None);
  REQUIRE(p.set_rate(0, kLine / 2) == PsPacerViolation::None);
  REQUIRE(p.set_ready(0, true) == PsPacerViolation::None);
  REQUIRE(p.commit(0, 0, 1) == PsPacerViolation::None);
  CHECK(p.next() == 2 * kLine);
  CHECK(p.pick(1) == -1);
  CHECK(p.pick(2) == 0);
  REQUIRE(p.commit(2, 0, 1) == PsPacerViolation::None);  // on time: from the scheduled time
  CHECK(p.next() == 4 * kLine);
  REQUIRE(p.commit(10, 0, 1) == PsPacerViolation::None);  // stalled to cycle 10: restarts there
  CHECK(p.next() == 12 * kLine);
  CHECK(p.next_cycle() == 12);
}

TEST_CASE("PS pacer: a fresh flow joins at the least V of the sending flows, or at 0", "[saa][ps_pacer]") {
  for (const bool join : {true, false}) {
    PsPacer p(PsPacerParams{3, 8, 64, 16, join});
    for (std::uint32_t k = 0; k < 2; ++k) {
      REQUIRE(p.open(k, k) == PsPacerViolation::None);
      REQUIRE(p.set_rate(k, kLine / 2) == PsPacerViolation::None);
      REQUIRE(p.set_ready(k, true) == PsPacerViolation::None);
    }
    run(p, 0, 100, 1);
    const std::uint64_t least = std::min(p.slot(0).vtime, p.slot(1).vtime);
    REQUIRE(least > 0);
    REQUIRE(p.open(2, 2) == PsPacerViolation::None);
    REQUIRE(p.set_rate(2, kLine / 2) == PsPacerViolation::None);
    REQUIRE(p.set_ready(2, true) == PsPacerViolation::None);
    CHECK(p.slot(2).vtime == (join ? least : 0));
    // Ready again later (a hold released): V is kept, no new join.
    REQUIRE(p.set_ready(2, false) == PsPacerViolation::None);
    run(p, 100, 50, 1);
    REQUIRE(p.set_ready(2, true) == PsPacerViolation::None);
    CHECK(p.slot(2).vtime == (join ? least : 0));
  }
}

TEST_CASE("PS pacer: the hardware cycle opens, rates, readies (fresh flows last) and commits pick's slot",
          "[saa][ps_pacer]") {
  PsPacer p(PsPacerParams{3, 8, 64, 16, true});
  PsPacerInputs in;
  in.ready = {false, false, false};
  in.open = true, in.open_slot = 0, in.open_dst = 5;
  in.rate_we = true, in.rate_slot = 0, in.rate = kLine;
  in.ready[0] = true;
  REQUIRE(p.cycle(in) == PsPacerViolation::None);  // opened, rated and ready in one cycle: V = 0
  CHECK(p.slot(0).ready);
  CHECK(p.slot(0).vtime == 0);
  // Cycle 1: slot 0 sends its last packet (ready falls in the same cycle) while slot 1 opens; the
  // commit's R counts the granted slot although it is no longer ready.
  in = PsPacerInputs{};
  in.ready = {false, false, false};
  in.now = 1;
  in.open = true, in.open_slot = 1, in.open_dst = 6;
  in.send = true, in.len = 4;
  REQUIRE(p.cycle(in) == PsPacerViolation::None);
  CHECK_FALSE(p.slot(0).ready);
  CHECK(p.slot(0).vtime == 4 * kLine);
  CHECK(p.next() == 5 * kLine);  // late (next was 0, sent at cycle 1): from now, R = its own rate
  CHECK(p.slot(1).fresh);
}

TEST_CASE("PS pacer: contract violations change nothing and set the sticky error", "[saa][ps_pacer]") {
  PsPacer p(PsPacerParams{2, 4, 24, 3, true});
  CHECK(p.open(2, 1) == PsPacerViolation::BadSlot);  // two slots: the hardware's limit
  CHECK(p.error());
  p.reset();
  CHECK_FALSE(p.error());
  CHECK(p.set_ready(0, true) == PsPacerViolation::NotOpen);
  CHECK(p.set_rate(0, 0) == PsPacerViolation::BadRate);
  CHECK(p.set_rate(0, kLine + 1) == PsPacerViolation::BadRate);
  REQUIRE(p.open(0, 3) == PsPacerViolation::None);
  REQUIRE(p.set_rate(0, 1) == PsPacerViolation::None);  // the smallest rate
  REQUIRE(p.set_ready(0, true) == PsPacerViolation::None);
  CHECK(p.open(0, 3) == PsPacerViolation::OpenReady);
  CHECK(p.commit(0, 0, 0) == PsPacerViolation::BadLen);
  CHECK(p.commit(0, 0, 8) == PsPacerViolation::BadLen);  // LenW = 3
  // 24-bit times: one flit at rate 2^-16 takes 2^16 cycles = 2^32 in Q16: V overflows.
  CHECK(p.commit(0, 0, 1) == PsPacerViolation::Overflow);
  CHECK(p.slot(0).vtime == 0);
  CHECK(p.next() == 0);
  PsPacerInputs in;
  in.ready = {true, false};
  in.send = true, in.len = 1, in.now = 0;
  p.set_rate(0, kLine);
  in.now = 0;
  CHECK(p.check(in) == PsPacerViolation::None);
  p.commit(0, 0, 1);
  in.now = 0;  // next = 1 cycle: no grant at cycle 0
  CHECK(p.check(in) == PsPacerViolation::NoGrant);
}

TEST_CASE("PS pacer: the model's pacer (no slot limit) adds slots as flows open", "[saa][ps_pacer]") {
  PsPacer p;  // the network model's parameters
  CHECK(p.slots() == 0);
  REQUIRE(p.open(40, 4095) == PsPacerViolation::None);
  CHECK(p.slots() == 41);
  CHECK(p.set_ready(41, true) == PsPacerViolation::BadSlot);
  CHECK(p.set_ready(41, false) == PsPacerViolation::None);
}

TEST_CASE("PS pacer: an iterative divider writes V and next at its last edge and holds the grant until then",
          "[saa][ps_pacer]") {
  // LenW = 16, 16 quotient bits per cycle: 48 / 16 = 3 cycles a send.
  PsPacer p(PsPacerParams{2, 8, 64, 16, true, 16});
  REQUIRE(p.iters() == 3);
  PsPacerInputs in;
  in.ready = {true, false};
  in.open = true, in.open_slot = 0, in.open_dst = 5;
  in.rate_we = true, in.rate_slot = 0, in.rate = kLine / 2;
  REQUIRE(p.cycle(in) == PsPacerViolation::None);
  in = PsPacerInputs{};
  in.ready = {true, false};
  in.now = 1, in.send = true, in.len = 2;
  REQUIRE(p.pick(1) == 0);
  REQUIRE(p.cycle(in) == PsPacerViolation::None);  // the send's cycle: the first step
  CHECK(p.busy());
  CHECK(p.slot(0).vtime == 0);
  CHECK(p.next() == 0);
  // Cycle 2 (busy): a flow opens and joins in slot 1; the granted slot is the only other one
  // sending, so its V waits as all ones for the granted slot's new V.
  in = PsPacerInputs{};
  in.ready = {true, true};
  in.now = 2, in.open = true, in.open_slot = 1, in.open_dst = 9;
  in.rate_we = true, in.rate_slot = 1, in.rate = kLine / 2;
  CHECK(p.pick(2) == -1);
  REQUIRE(p.cycle(in) == PsPacerViolation::None);
  CHECK(p.slot(1).vtime == ~std::uint64_t{0});
  in.open = false, in.rate_we = false, in.now = 3;
  CHECK(p.pick(3) == -1);                          // the last cycle: still held
  REQUIRE(p.cycle(in) == PsPacerViolation::None);  // the last edge
  CHECK_FALSE(p.busy());
  CHECK(p.slot(0).vtime == 4 * kLine);  // 2 flits at 1/2: 4 cycles
  CHECK(p.slot(1).vtime == 4 * kLine);  // joined at the granted slot's new V
  CHECK(p.next() == 5 * kLine);  // late (next was 0): from now (1) + 2 flits at R = 1/2
  CHECK(p.pick(4) == -1);
  CHECK(p.pick(5) == 0);  // tie at V: the lower destination
}

TEST_CASE("PS pacer: the event interface's commit holds the grant for the divider's cycles", "[saa][ps_pacer]") {
  PsPacer p(PsPacerParams{1, 8, 64, 16, true, 4});  // 12 cycles a send
  REQUIRE(p.iters() == 12);
  REQUIRE(p.open(0, 1) == PsPacerViolation::None);
  REQUIRE(p.set_rate(0, kLine) == PsPacerViolation::None);
  REQUIRE(p.set_ready(0, true) == PsPacerViolation::None);
  REQUIRE(p.commit(10, 0, 1) == PsPacerViolation::None);
  CHECK(p.slot(0).vtime == kLine);  // applied at once
  CHECK(p.next() == 11 * kLine);
  CHECK(p.pick(21) == -1);
  CHECK(p.pick(22) == 0);
  CHECK_THROWS_AS(PsPacer(PsPacerParams{1, 8, 64, 16, true, 49}), std::invalid_argument);
}

TEST_CASE("PS pacer: with packets of iters() flits or more an iterative divider grants exactly as a one-cycle one",
          "[saa][ps_pacer]") {
  // Random NIC-like stimulus (opens, rate changes, ready levels, sends of 6..16 flits, stalls)
  // into a one-cycle pacer and one with 8 quotient bits per cycle (48 / 8 = 6 cycles a send):
  // every cycle's grant is the same, and so is every V and the next send time whenever the
  // divider is idle.
  for (std::uint32_t seed = 1; seed <= 20; ++seed) {
    PsPacer a(PsPacerParams{4, 3, 64, 16, seed % 2 == 1});
    PsPacer b(PsPacerParams{4, 3, 64, 16, seed % 2 == 1, 8});
    REQUIRE(b.iters() == 6);
    std::uint64_t rng = seed * 0x9E3779B97F4A7C15ull;
    auto below = [&rng](std::uint64_t n) {
      rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
      return rng % n;
    };
    std::vector<std::uint32_t> packets(4, 0);
    std::uint64_t free_at = 0, sends = 0, busy_joins = 0;
    for (std::uint64_t now = 0; now < 20000; ++now) {
      const int ga = a.pick(now);
      REQUIRE(ga == b.pick(now));
      PsPacerInputs in;
      in.now = now;
      in.ready.assign(4, false);
      const std::uint32_t k = static_cast<std::uint32_t>(below(4));
      if (packets[k] == 0 && !a.slot(k).ready && below(20) == 0) {
        in.open = true, in.open_slot = k, in.open_dst = static_cast<std::uint32_t>(below(8));
        packets[k] = 1 + static_cast<std::uint32_t>(below(30));
      }
      if (below(10) == 0) {
        in.rate_we = true, in.rate_slot = static_cast<std::uint32_t>(below(4));
        in.rate = below(3) == 0 ? kLine : 1 + static_cast<std::uint32_t>(below(kLine));
      }
      if (ga >= 0 && now >= free_at && below(4) != 0) {
        in.send = true;
        in.len = 6 + static_cast<std::uint32_t>(below(11));
      }
      for (std::uint32_t s = 0; s < 4; ++s) {
        const bool last = in.send && static_cast<int>(s) == ga && packets[s] == 1;
        in.ready[s] = (packets[s] > 0 && !last && (a.slot(s).open || (in.open && in.open_slot == s)) &&
                       below(50) != 0);
      }
      if (a.check(in) != PsPacerViolation::None) {
        in.rate_we = false;
        in.send = false;
      }
      if (a.check(in) != PsPacerViolation::None) continue;
      for (std::uint32_t s = 0; s < 4; ++s)
        busy_joins += b.busy() && in.ready[s] && (b.slot(s).fresh || (in.open && in.open_slot == s));
      REQUIRE(a.cycle(in) == PsPacerViolation::None);
      REQUIRE(b.cycle(in) == PsPacerViolation::None);
      if (in.send) {
        ++sends;
        free_at = now + in.len;
        --packets[static_cast<std::uint32_t>(ga)];
      }
      if (!b.busy()) {
        REQUIRE(a.next() == b.next());
        for (std::uint32_t s = 0; s < 4; ++s) REQUIRE(a.slot(s).vtime == b.slot(s).vtime);
      }
    }
    CHECK(sends > 500);
    CHECK(busy_joins > 0);
  }
}
