// The NIC's host port at a fraction of the fabric's rate (nic/port_rate.hpp, nic.port_speedup):
// exact rational pacing, phase kept while busy, no saving up while idle; config validation.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "nic/port_rate.hpp"
#include "sim/config.hpp"
#include "support/temp_config.hpp"

using namespace ccnet;

namespace {

// The cycles at which a port kept busy from cycle `from` passes `flits` flits.
std::vector<Cycle> busy_cycles(PortRate& port, Cycle from, std::uint32_t flits) {
  std::vector<Cycle> at;
  for (Cycle c = from; at.size() < flits; ++c)
    if (port.ready(c)) {
      port.take();
      at.push_back(c);
    }
  return at;
}

}  // namespace

TEST_CASE("port rate: s as an exact ratio in lowest terms", "[port_rate]") {
  CHECK(speedup_ratio(1.0).num == 1);
  CHECK(speedup_ratio(1.0).den == 1);
  CHECK(speedup_ratio(1.1).num == 11);
  CHECK(speedup_ratio(1.1).den == 10);
  CHECK(speedup_ratio(1.25).num == 5);
  CHECK(speedup_ratio(1.25).den == 4);
  CHECK(speedup_ratio(1.3).num == 13);
  CHECK(speedup_ratio(2.0).num == 2);
  CHECK(speedup_ratio(2.0).den == 1);
  CHECK(speedup_ratio(1.001).num == 1001);
  CHECK(speedup_ratio(1.001).den == 1000);
  CHECK_FALSE(PortRate().on());
  CHECK_FALSE(PortRate(speedup_ratio(1.0)).on());
  CHECK(PortRate(speedup_ratio(1.2)).on());
}

TEST_CASE("port rate: a busy port passes flit k at cycle ceil(k s) and floor or ceil of T / s in any T cycles", "[port_rate]") {
  for (const double s : {1.0, 1.1, 1.2, 1.25, 1.3, 1.7, 2.0, 3.125}) {
    CAPTURE(s);
    const Ratio r = speedup_ratio(s);
    PortRate port(r);
    const Cycle from = 57;
    const auto at = busy_cycles(port, from, 500);
    for (std::size_t k = 0; k < at.size(); ++k)  // exact: ceil(k num / den), integer arithmetic
      REQUIRE(at[k] == from + (k * r.num + r.den - 1) / r.den);
    // Every window of T cycles of the busy stretch holds floor(T / s) or ceil(T / s) flits.
    const Cycle end = at.back();
    for (Cycle t0 = from; t0 < from + 40; ++t0)
      for (Cycle len = 1; t0 + len <= end; len += 7) {
        std::uint64_t n = 0;
        for (const Cycle c : at) n += c >= t0 && c < t0 + len;
        const double exact = static_cast<double>(len) / s;
        REQUIRE(n >= static_cast<std::uint64_t>(std::floor(exact + 1e-12)));
        REQUIRE(n <= static_cast<std::uint64_t>(std::ceil(exact - 1e-12)));
      }
  }
}

TEST_CASE("port rate: an idle port does not save up and restarts in phase with its next flit", "[port_rate]") {
  PortRate port(speedup_ratio(1.5));
  REQUIRE(busy_cycles(port, 0, 3) == std::vector<Cycle>{0, 2, 3});
  // Idle from cycle 4 to 99: the next flits are spaced as from a fresh start, no burst.
  CHECK(busy_cycles(port, 100, 4) == std::vector<Cycle>{100, 102, 103, 105});
  // A port still serialising its last flit is not ready earlier because it went idle: s = 3,
  // a flit at cycle 200, nothing asked at 201, asked again at 202: due at 203.
  PortRate slow(speedup_ratio(3.0));
  REQUIRE(slow.ready(200));
  slow.take();
  CHECK_FALSE(slow.ready(202));
  CHECK(slow.ready(203));
}

TEST_CASE("port rate: nic.port_speedup is validated for range and at most three decimals", "[port_rate][config]") {
  const char* yaml = "traffic:\n  classes:\n    - {name: u, rate: 0.1}\n";
  test::TempConfig f(yaml);
  CHECK(load_config(f.path(), {"nic.port_speedup=1.3"}).nic.port_speedup == 1.3);
  auto error = [&](const std::string& set) {
    try {
      load_config(f.path(), {set});
    } catch (const config::ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error("nic.port_speedup=1.2345").find("nic.port_speedup: must have at most three decimals") != std::string::npos);
  CHECK(error("nic.port_speedup=0.9").find("nic.port_speedup") != std::string::npos);
  CHECK(error("nic.port_speedup=1.125") == "no error");
}
