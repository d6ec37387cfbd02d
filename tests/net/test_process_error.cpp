// Exceptions raised inside kernel processes keep their type (core/process_error.hpp): a
// ModelError or a std::logic_error from a clocked component stops the simulation and is rethrown
// after sc_start as a ModelError naming the component and cycle, whether the component runs its
// own process or is evaluated by a ClockDomain. Without this the kernel reports "E549 uncaught
// exception" and the run exits with status 1 instead of 3 (docs/outputs.md).
#include <catch2/catch.hpp>

#include <memory>
#include <stdexcept>
#include <systemc>

#include "core/clock_domain.hpp"
#include "core/error.hpp"
#include "core/process_error.hpp"

using namespace ccnet;

namespace {

const sc_core::sc_time kPeriod(1, sc_core::SC_NS);

// Throws `E` at its `fail_at`-th rising edge (counting from 0); joins `domain` if given.
template <class E>
struct Failing final : sc_core::sc_module, Clocked {
  sc_core::sc_in<bool> clk{"clk"};
  ClockDomain* domain = nullptr;
  int fail_at;
  int edges = 0;
  SC_HAS_PROCESS(Failing);
  Failing(sc_core::sc_module_name n, int at) : sc_core::sc_module(n), fail_at(at) {
    SC_METHOD(tick);
    sensitive << clk.pos();
    dont_initialize();
  }
  void tick() {
    process_error::guard(*this, kPeriod, [this] {
      if (domain) domain->enlist(*this);
      evaluate();
    });
  }
  void evaluate() override {
    if (edges++ == fail_at) throw E("the invariant broke");
  }
};

}  // namespace

TEST_CASE("process error: a logic_error in a component's own process is a model error naming it", "[net][process_error]") {
  sc_core::sc_clock clk("clk", kPeriod);
  Failing<std::logic_error> a("alone", 3);
  a.clk(clk);
  sc_core::sc_start(20 * kPeriod);
  CHECK(a.edges == 4);  // the run stopped at the failing edge
  try {
    process_error::rethrow();
    FAIL("no error kept");
  } catch (const ModelError& e) {
    CHECK(std::string(e.what()) == "alone @cycle 3: the invariant broke");
  }
  CHECK_NOTHROW(process_error::rethrow());  // rethrown once
}

TEST_CASE("process error: a member of a clock domain keeps its ModelError and is named", "[net][process_error]") {
  sc_core::sc_clock clk("clk", kPeriod);
  ClockDomain domain("domain");
  domain.clk(clk);
  Failing<ModelError> first("first", 100);
  Failing<std::logic_error> second("second", 6);
  first.clk(clk);
  second.clk(clk);
  first.domain = &domain;
  second.domain = &domain;
  sc_core::sc_start(50 * kPeriod);
  CHECK(second.edges == 7);
  CHECK(first.edges == 7);  // evaluated before `second` at the failing edge, not after it
  try {
    process_error::rethrow();
    FAIL("no error kept");
  } catch (const ModelError& e) {
    CHECK(std::string(e.what()) == "second @cycle 6: the invariant broke");
  }
}

TEST_CASE("process error: a ModelError keeps its own message", "[net][process_error]") {
  sc_core::sc_clock clk("clk", kPeriod);
  Failing<ModelError> a("alone", 2);
  a.clk(clk);
  sc_core::sc_start(20 * kPeriod);
  try {
    process_error::rethrow();
    FAIL("no error kept");
  } catch (const ModelError& e) {
    CHECK(std::string(e.what()) == "the invariant broke");
  }
}
