#include "sim/network.hpp"

#include <algorithm>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "core/error.hpp"
#include "core/watch.hpp"

namespace ccnet {

namespace {
sc_core::sc_time period_of(const Config& cfg) { return sc_core::sc_time(1000.0 / cfg.sim.clock_ghz, sc_core::SC_PS); }
}  // namespace

Network::Network(sc_core::sc_module_name name, const Config& cfg, bool rtl_survey)
    : sc_core::sc_module(name),
      clk("clk", period_of(cfg)),
      cfg_(cfg),
      period_(period_of(cfg)),
      extension_counters_(cfg.sim.series_window) {
  if (!cfg_.built) throw std::logic_error("Network: the Config was not built by load_config");
  const BuiltConfig& built = *cfg_.built;
  topology_ = built.topology;
  routing_ = built.routing;
  vc_levels_ = routing_->vc_levels();
  MechanismContext mctx{*topology_, cfg_.router, cfg_.seed, cfg_.nic.acks, packets_.format(), cfg_.link, cfg_.nic};
  mechanism_ = cfg_.cc.params->create(mctx);
  blocks_ = rtl_loop::make_source(cfg_.sim.rtl, cfg_.sim.rtl_check, cfg_.sim.rtl_mutant, period_);
  const auto vnets = mechanism_->vnets();
  std::vector<std::uint8_t> prio;
  for (const auto& v : vnets) prio.push_back(v.priority);
  const std::uint32_t num_vcs = static_cast<std::uint32_t>(vnets.size()) * vc_levels_ * cfg_.router.vcs_per_level;
  // At most 256 (checked by load_config, naming router.vcs_per_level).

  // Traffic classes and their node groups (resolved by load_config).
  std::vector<ResolvedClass> classes;
  std::vector<std::string> class_names;
  for (std::size_t i = 0; i < cfg_.traffic.classes.size(); ++i) {
    const TrafficClassConfig& tc = cfg_.traffic.classes[i];
    ResolvedClass rc;
    rc.config = tc;
    rc.sources = built.sources[i];
    rc.destinations = built.destinations[i];
    rc.pattern = tc.pattern.params->create(rc.sources, rc.destinations,
                                           RngStream(cfg_.seed, "traffic." + tc.name + ".pattern"));
    rc.message_probability = tc.rate / tc.mean_size();
    class_names.push_back(tc.name);
    classes.push_back(std::move(rc));
  }
  stats_ = std::make_unique<NetworkStats>(topology_->num_nodes(), class_names, cfg_.sim.warmup, cfg_.sim.measure,
                                          cfg_.sim.series_window, packets_.format());

  const Topology& topo = *topology_;
  auto depth_of = [&](LinkClassId lc) { return built.buffer_depth[lc]; };
  auto latency_of = [&](LinkClassId lc) { return built.link_latency[lc]; };

  // Routers.
  for (RouterId r = 0; r < topo.num_routers(); ++r) {
    std::vector<RouterPortSpec> ports;
    for (PortId p = 0; p < topo.num_ports(r); ++p) {
      RouterPortSpec spec;
      spec.peer = topo.peer(r, p);
      if (spec.connected()) {
        spec.in_depth = depth_of(spec.peer.link);
        spec.out_depth = spec.terminal() ? cfg_.nic.ejection_buffer : depth_of(spec.peer.link);
        spec.latency = latency_of(spec.peer.link);
      }
      ports.push_back(spec);
    }
    RouterEnv env{cfg_.router, topo, *routing_, *mechanism_, packets_, vc_levels_, prio, cfg_.seed, cfg_.sim.series_window,
                  period_, blocks_.get()};
    routers_.push_back(std::make_unique<Router>(("router_" + std::to_string(r)).c_str(), r, std::move(ports), env));
    Router& R = *routers_.back();
    R.attach(mechanism_->router_hooks(R, R.mechanism_counters()));
    R.clk(clk);
  }
  // NICs.
  const bool acks = cfg_.nic.acks || mechanism_->requires_acks();
  for (NodeId n = 0; n < topo.num_nodes(); ++n) {
    NicEnv env{cfg_.nic,
               *mechanism_,
               packets_,
               *stats_,
               topo.num_nodes(),
               num_vcs,
               cfg_.router.vcs_per_level,
               vc_levels_,
               prio,
               depth_of(kTerminalLink),
               latency_of(kTerminalLink),
               cfg_.router.flow_control == FlowControl::VirtualCutThrough,
               cfg_.sim.latency_from_first_injection,
               acks,
               mechanism_->keeps_retransmit_buffer(),
               cfg_.sim.series_window,
               period_,
               blocks_.get()};
    nics_.push_back(std::make_unique<Nic>(("nic_" + std::to_string(n)).c_str(), n, env));
    Nic& N = *nics_.back();
    N.attach(mechanism_->nic_hooks(N, N.mechanism_counters()));
    N.clk(clk);
  }
  // Links: per router output port, one flit signal (written by that port) and one credit
  // signal (written by that port's input side, read by the peer's output side).
  auto flit_sig = [&](const std::string& nm) {
    flit_signals_.push_back(std::make_unique<Wire<Flit>>(nm.c_str()));
    return flit_signals_.back().get();
  };
  auto credit_sig = [&](const std::string& nm) {
    credit_signals_.push_back(std::make_unique<Wire<CreditLanes>>(nm.c_str()));
    return credit_signals_.back().get();
  };
  std::vector<std::vector<Wire<Flit>*>> out_flit(topo.num_routers());
  std::vector<std::vector<Wire<CreditLanes>*>> out_credit(topo.num_routers());
  for (RouterId r = 0; r < topo.num_routers(); ++r) {
    Router& R = *routers_[r];
    for (PortId p = 0; p < topo.num_ports(r); ++p) {
      const std::string base = "router_" + std::to_string(r) + "_port_" + std::to_string(p);
      out_flit[r].push_back(flit_sig(base + "_flit"));
      out_credit[r].push_back(credit_sig(base + "_credit"));
      R.flit_out[p](*out_flit[r][p]);
      R.credit_out[p](*out_credit[r][p]);
    }
  }
  for (RouterId r = 0; r < topo.num_routers(); ++r) {
    Router& R = *routers_[r];
    for (PortId p = 0; p < topo.num_ports(r); ++p) {
      const PortPeer peer = topo.peer(r, p);
      const std::string base = "router_" + std::to_string(r) + "_port_" + std::to_string(p);
      if (peer.kind == PortPeer::Kind::Router) {
        R.flit_in[p](*out_flit[peer.router][peer.port]);
        R.credit_in[p](*out_credit[peer.router][peer.port]);
      } else if (peer.kind == PortPeer::Kind::Node) {
        Nic& N = *nics_[peer.node];
        const std::string nb = "nic_" + std::to_string(peer.node);
        auto* eject_credit = credit_sig(nb + "_credit");  // NIC -> router: ejection credits
        auto* inject_flit = flit_sig(nb + "_flit");       // NIC -> router: injected flits
        N.flit_in(*out_flit[r][p]);
        N.credit_out(*eject_credit);
        R.credit_in[p](*eject_credit);
        N.flit_out(*inject_flit);
        R.flit_in[p](*inject_flit);
        N.credit_in(*out_credit[r][p]);
      } else {
        // Unconnected (mesh boundary): idle inputs.
        R.flit_in[p](*flit_sig(base + "_unused_flit"));
        R.credit_in[p](*credit_sig(base + "_unused_credit"));
      }
    }
  }
  // The mechanism's own modules and wires.
  mechanism_->build(*this);
  if (blocks_ && !rtl_survey) blocks_->check_complete();  // every router, NIC and module of the mechanism has its blocks
  generator_ = std::make_unique<TrafficGenerator>("hosts", topo.num_nodes(), std::move(classes), cfg_.seed, period_,
                                                  [this] { return stats_->data_packets_delivered(); });
  generator_->clk(clk);
  for (NodeId n = 0; n < topo.num_nodes(); ++n) generator_->sockets[n]->bind(nics_[n]->host);
  // One process evaluates every router and NIC (core/clock_domain.hpp); created last, so the
  // other processes keep their places in the kernel's order.
  domain_ = std::make_unique<ClockDomain>("clock_domain");
  domain_->clk(clk);
  for (auto& R : routers_) R->join(*domain_);
  for (auto& N : nics_) N->join(*domain_);
  set_exact_channels(false);
}

void Network::set_exact_channels(bool exact) {
  for (auto& R : routers_) R->set_exact_channels(exact);
  for (auto& N : nics_) N->set_exact_channels(exact);
  // The links are written by routers and NICs only, all evaluated by the domain: it commits them
  // (core/channel.hpp), except in a traced run and with RTL in the loop (the kernel's path).
  ChannelCommits* const commits = exact || blocks_ ? nullptr : &domain_->commits();
  for (auto& s : flit_signals_) s->commit_by(commits);
  for (auto& s : credit_signals_) s->commit_by(commits);
}

Network::~Network() = default;

CounterReport Network::mechanism_report() {
  CounterReport rep;
  for (auto& r : routers_) rep.add(r->mechanism_counters());
  for (auto& n : nics_) rep.add(n->mechanism_counters());
  rep.add(extension_counters_);
  return rep;
}

Cycle Network::now() const { return sc_core::sc_time_stamp().value() / period_.value(); }

std::uint64_t Network::flit_hops() const {
  std::uint64_t n = 0;
  for (const auto& r : routers_)
    for (auto f : r->counters().flits_out) n += f;
  return n;
}

std::uint64_t Network::flits_injected() const {
  std::uint64_t n = 0;
  for (const auto& nic : nics_) n += nic->counters().flits_injected;
  return n;
}

std::uint64_t Network::flits_buffered() const {
  std::uint64_t n = 0;
  for (const auto& r : routers_) n += r->buffered_flits();
  return n;
}

bool Network::in_flight() const {
  if (packets_.live() != 0) return true;
  for (const auto& n : nics_)
    if (n->retransmit_buffered()) return true;
  return false;
}

bool Network::empty() const {
  for (const auto& n : nics_)
    if (n->queued_messages()) return false;
  return !in_flight();
}

std::uint64_t Network::deliveries() const {
  std::uint64_t n = 0;
  for (const auto& nic : nics_) n += nic->counters().packets_ejected - nic->counters().refusals_received;
  return n;
}

void Network::dump_state(std::ostream& os) const {
  os << "network state at cycle " << now() << ": " << packets_.live() << " packets live, " << flits_buffered()
     << " flits buffered in routers\n";
  std::vector<char> held(packets_.capacity(), 0);
  for (const auto& r : routers_) {
    r->mark_held(held);
    if (r->holds_state()) r->dump_state(os);
  }
  int shown = 0;
  for (const auto& n : nics_) {
    n->mark_held(held);
    if (n->holds_state() && shown++ < 64) n->dump_state(os);
  }
  if (shown > 64) os << "(" << shown - 64 << " more NICs not shown)\n";
  // Live packets with no flit in any router or NIC: held by a mechanism (listed above) or leaked.
  std::size_t unheld = 0;
  for (PacketId id = 0; id < packets_.capacity(); ++id) {
    if (packets_[id].id != id || held[id]) continue;
    if (packets_[id].ejected != kNever) continue;  // ejected, held by a delivery hold (counted in its NIC's line)
    if (unheld++ < 32) os << "live packet in no router or NIC buffer, link, queue or stream: " << PacketWatch::describe(packets_[id], packets_.format()) << "\n";
  }
  if (unheld > 32) os << "(" << unheld - 32 << " more such packets)\n";
}

void Network::check_quiescent() const {
  // Every component's complaint, then the state of all of them.
  std::ostringstream os;
  for (const auto& r : routers_) {
    try {
      r->check_quiescent();
    } catch (const ModelError& e) {
      os << e.what() << "\n";
    }
  }
  for (const auto& n : nics_) {
    try {
      n->check_quiescent();
    } catch (const ModelError& e) {
      os << e.what() << "\n";
    }
  }
  if (os.str().empty()) return;
  dump_state(os);
  throw ModelError(os.str());
}

}  // namespace ccnet
