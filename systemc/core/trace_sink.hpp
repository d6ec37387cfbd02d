// What a component can show in a waveform (docs/tracing.md). Routers, NICs and mechanism hooks
// register their channels and state with a TraceSink; the network trace (sim/trace.hpp) keeps
// what the trace scope selects and writes it as VCD through sc_trace.
//
// Names are relative to the component and use '.' for hierarchy ("in_2.vc_1.occupancy"); the
// sink prefixes the component's name ("net.router_3"). A registered value is read by
// reference at the end of every traced cycle, so it must stay at the same address, and hold
// the state after the component's clock edge, for as long as the component is traced.
#pragma once

#include <cstdint>
#include <string>

namespace sc_core {
class sc_port_base;
}

namespace ccnet {

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void value(const bool& v, const std::string& name) = 0;
  virtual void value(const std::uint32_t& v, const std::string& name, int width = 32) = 0;
  virtual void value(const std::uint64_t& v, const std::string& name, int width = 64) = 0;
  // The flit channel bound to `port` (an sc_in/sc_out<Flit>), traced as its fields
  // (name.packet, .index, .vc, .head, .tail). `flits`, if given, counts the flits written on
  // it (statistics of the traced window).
  virtual void flit_channel(const sc_core::sc_port_base& port, const std::string& name,
                            const std::uint64_t* flits = nullptr) = 0;
  // The credit channel bound to `port` (sc_in/sc_out<CreditLanes>): name.count, name.vc0..
  virtual void credit_channel(const sc_core::sc_port_base& port, const std::string& name) = 0;
};

// A component that shows itself in waveforms (the network traces routers and NICs; a mechanism's
// own modules register through NetworkBuilder::trace).
class TracedComponent {
 public:
  virtual ~TracedComponent() = default;
  // Hierarchical name ("net.scheduler"): the prefix of its signals, matched by --trace-scope.
  virtual std::string trace_scope() const = 0;
  // Registers its channels and state with `sink` (as the component's name-relative names).
  virtual void trace(TraceSink& sink) = 0;
  // The trace window opens (true) or closes: keep trace-only state current while open.
  virtual void set_tracing(bool) {}
};

}  // namespace ccnet
