#include "sim/config.hpp"

#include <algorithm>
#include <cmath>

#include "rtl_loop/source.hpp"
#include "sim/memory_guard.hpp"
#include "traffic/pattern.hpp"

namespace ccnet {

using config::Declare;
using config::Schema;

const Schema& SimConfig::schema() {
  static Schema s(
      "Run control (BookSim-like): run `warmup` cycles, then measure packets of messages created during "
      "the next `measure` cycles; keep simulating (traffic continues) until all of them are delivered "
      "or `drain_limit` more cycles have passed (reported as drained: false).");
  static bool init = [] {
    Declare<SimConfig>(s)
        .field("warmup", &SimConfig::warmup, Cycle{1000}, "cycles before the measurement window", {0, Cycle{1} << 40})
        .field("measure", &SimConfig::measure, Cycle{10000}, "measurement window in cycles", {1, Cycle{1} << 40})
        .field("drain_limit", &SimConfig::drain_limit, Cycle{100000},
               "max cycles after the window to deliver measured packets (and, with check_quiescent, after the "
               "traffic stops to empty the network); beyond it the run ends not drained (exit status 4)",
               {0, Cycle{1} << 40})
        .field("series_window", &SimConfig::series_window, Cycle{1000}, "time-series window in cycles (0 = no time series)",
               {0, Cycle{1} << 40})
        .field("watchdog", &SimConfig::watchdog, Cycle{20000},
               "watchdog period: fail with a state dump if packets are in flight but no flit moves anywhere "
               "(deadlock), or none but refusals (answers of kind Refused) is delivered (stuck: lost or livelocked packets), for this "
               "many cycles (at least; raised for slow router stages, links and throttled sources, see docs/outputs.md)",
               {100, Cycle{1} << 40})
        .field("check_quiescent", &SimConfig::check_quiescent, true,
               "when all traffic has stopped: wait for the network to empty and check every buffer and credit counter")
        .field("clock_ghz", &SimConfig::clock_ghz, 1.0, "router clock (1 GHz: 1 cycle = 1 ns)", {0.001, 100.0})
        .field("latency_from_first_injection", &SimConfig::latency_from_first_injection, false,
               "network latency of a retransmitted packet counts from its first injection (of the copy the "
               "network dropped) instead of from the transmission that got through (paper 003 leaves this open; see docs/outputs.md)")
        .list("ejection_series", &SimConfig::ejection_series, std::vector<std::uint32_t>{},
              "nodes whose ejection link's utilisation (flits of any kind entering the NIC per cycle) is recorded per "
              "series window, whole run (timeseries.ejection; e.g. the link to a hot spot)")
        .field("memory_limit_mb", &SimConfig::memory_limit_mb, std::uint64_t{0},
               "refuse a network whose estimated memory exceeds this many MB (0 = half of the machine's memory; "
               "the estimate is in stats.json perf.memory_estimate_mb)",
               {0, std::uint64_t{1} << 40})
        .str("rtl", &SimConfig::rtl, "",
               "RTL in the loop: every router and NIC steps the Verilated RTL of these mirrored blocks instead of "
               "their C++ cores (comma-separated block names, or all; see docs/rtl-verification.md)")
        .field("rtl_check", &SimConfig::rtl_check, false,
               "with rtl: also run the C++ cores and compare every output of every call; the first difference "
               "stops the run (model error)")
        .str("rtl_mutant", &SimConfig::rtl_mutant, "",
               "test only: use this deliberately broken RTL build (rtl/CMakeLists.txt, MUTANT) where its block "
               "runs as RTL, to show that rtl_check catches it");
    return true;
  }();
  (void)init;
  return s;
}

const Schema& Config::schema() {
  static Schema s("Top level of a ccnet configuration file.");
  static bool init = [] {
    Declare<Config>(s)
        .field("seed", &Config::seed, std::uint64_t{1}, "run seed: every component's RNG stream derives from it")
        .section("sim", &Config::sim, "run control")
        .poly("topology", &Config::topology, "type", "mesh", "topology")
        .poly("routing", &Config::routing, "algorithm", "auto", "routing function")
        .section("router", &Config::router, "router microarchitecture")
        .section("link", &Config::link, "links")
        .section("nic", &Config::nic, "network interfaces")
        .poly("cc", &Config::cc, "mechanism", "baseline", "congestion-control mechanism")
        .section("traffic", &Config::traffic, "workload");
    return true;
  }();
  (void)init;
  return s;
}

namespace {

void validate(const Config& c, const config::BindContext& ctx) {
  const RouterConfig& r = c.router;
  if (const std::string why = rtl_loop::check_spec(c.sim.rtl); !why.empty()) ctx.fail("sim.rtl", why);
  if (const std::string why = rtl_loop::check_mutant(c.sim.rtl_mutant); !why.empty()) ctx.fail("sim.rtl_mutant", why);
  if ((c.sim.rtl_check || !c.sim.rtl_mutant.empty()) && c.sim.rtl.empty())
    ctx.fail(c.sim.rtl_check ? "sim.rtl_check" : "sim.rtl_mutant", "needs RTL in the loop (sim.rtl)");
  if (r.speedup > 1 && r.output_buffer == 0)
    ctx.fail("router.speedup", "a crossbar speedup of " + std::to_string(r.speedup) +
                                   " needs output queues (set router.output_buffer > 0)");
  if (const double s = c.nic.port_speedup; std::abs(s * 1000.0 - std::round(s * 1000.0)) > 1e-6)
    ctx.fail("nic.port_speedup", "must have at most three decimals (it is applied as an exact ratio), not " + std::to_string(s));
  if (c.sim.watchdog <= router_link_latency_sum(c))
    ctx.fail("sim.watchdog", "must exceed the sum of the router-to-router link latencies");
  std::vector<std::string> names;
  for (std::size_t i = 0; i < c.traffic.classes.size(); ++i) {
    const TrafficClassConfig& t = c.traffic.classes[i];
    const std::string path = "traffic.classes[" + std::to_string(i) + "]";
    if (t.name.empty()) ctx.fail(path + ".name", "a traffic class needs a name");
    for (const auto& n : names)
      if (n == t.name) ctx.fail(path + ".name", "duplicate traffic class name '" + t.name + "'");
    names.push_back(t.name);
    if (t.size_max != 0 && t.size_max < t.size)
      ctx.fail(path + ".size_max", "size_max " + std::to_string(t.size_max) + " is below size " + std::to_string(t.size));
    if (t.rate / t.mean_size() > 1.0)
      ctx.fail(path + ".rate", "rate " + std::to_string(t.rate) + " flits/cycle with messages of " +
                                   std::to_string(t.mean_size()) + " flits needs more than one message per cycle");
    if (t.stop <= t.start) ctx.fail(path + ".stop", "stop must be after start");
    if (t.pattern.type == "hotspot" && t.destinations == "all")
      ctx.fail(path + ".destinations", "a hotspot class needs a group of hot destinations");
  }
  if (c.traffic.classes.size() > 255) ctx.fail("traffic.classes", "at most 255 classes");
  if (!c.sim.ejection_series.empty() && c.sim.series_window == 0)
    ctx.fail("sim.ejection_series", "needs time series (sim.series_window > 0)");
  c.cc.params->validate(ctx, c.router, c.nic);
}

// A topology or routing error is "topology.<key>: what" (or "routing.<key>: what"): report it
// at the line of that key.
[[noreturn]] void fail_at_key(const config::BindContext& ctx, const std::string& section, const std::string& what) {
  const auto colon = what.find(": ");
  if (what.rfind(section, 0) == 0 && colon != std::string::npos && what.find(' ') > colon)
    ctx.fail(what.substr(0, colon), what.substr(colon + 2));
  ctx.fail(section, what);
}

// Per-link-class values for the topology's classes: every class needs one, and a value for a
// class the topology does not have is a mistake.
std::vector<std::uint32_t> per_class(const Topology& topo, const PerLinkClass& values, const std::string& key,
                                     const config::BindContext& ctx) {
  const auto& classes = topo.link_classes();
  std::string names;
  for (const auto& lc : classes) names += (names.empty() ? "" : ", ") + lc.name;
  for (const auto& name : values.set_by_config)
    if (topo.link_class(name) == kNoLinkClass)
      ctx.fail(key + "." + name, "topology '" + topo.name() + "' has no link class '" + name + "' (its classes: " + names + ")");
  std::vector<std::uint32_t> out;
  for (const auto& lc : classes) {
    const std::uint32_t* v = values.find(lc.name);
    if (!v) ctx.fail(key + "." + lc.name, "no value for link class '" + lc.name + "' (" + lc.doc + ") of topology '" + topo.name() + "'");
    out.push_back(*v);
  }
  return out;
}

std::shared_ptr<const BuiltConfig> build(const Config& c, const config::BindContext& ctx) {
  auto b = std::make_shared<BuiltConfig>();
  try {
    b->topology = c.topology.params->create();
  } catch (const config::ConfigError& e) {
    fail_at_key(ctx, "topology", e.what());
  }
  try {
    b->routing = make_routing(c.routing, *b->topology);
  } catch (const config::ConfigError& e) {
    fail_at_key(ctx, "routing", e.what());
  }
  const Topology& topo = *b->topology;
  b->link_latency = per_class(topo, c.link.latency, "link.latency", ctx);
  b->buffer_depth = per_class(topo, c.router.buffer, "router.buffer", ctx);
  // VCs per port, from the mechanism's virtual networks and the routing function's levels (the
  // network creates the mechanism again, with the packet format it runs with).
  PacketFormat format;
  const MechanismContext mctx{topo, c.router, c.seed, c.nic.acks, format, c.link, c.nic};
  const auto vnets = static_cast<unsigned>(c.cc.params->create(mctx)->vnets().size());
  const unsigned levels = b->routing->vc_levels();
  const unsigned vcs = vnets * levels * c.router.vcs_per_level;
  if (vcs > 256)
    ctx.fail("router.vcs_per_level", std::to_string(vcs) + " VCs per port (" + std::to_string(vnets) + " vnets x " +
                                         std::to_string(levels) + " routing levels x " +
                                         std::to_string(c.router.vcs_per_level) + ") exceeds 256");
  // Memory guard, before anything walks every router: refuse what would not fit, naming the
  // key that makes it big.
  std::string limit_how;
  const double limit = memory_limit_bytes(c.sim, limit_how);
  const MemoryEstimate est = estimate_memory(c, topo, b->buffer_depth, vnets, levels, limit);
  if (est.bytes > limit) {
    std::string parts;
    for (std::size_t i = 0; i < est.terms.size() && i < 3; ++i)
      parts += (i ? "; " : "") + est.terms[i].what + " (" + human_bytes(est.terms[i].bytes) + ")";
    ctx.fail(est.terms.front().key, "the network would need about " + est.text() + " of memory, above the limit of " +
                                        human_bytes(limit) + " (" + limit_how + "): " + parts +
                                        ". Make it smaller, or raise sim.memory_limit_mb");
  }
  b->memory_estimate = est.bytes;
  // Virtual cut-through: every buffer a packet can enter must hold a whole packet (only the
  // link classes this topology uses are checked).
  if (c.router.flow_control == FlowControl::VirtualCutThrough) {
    const std::uint32_t mp = c.nic.max_packet;
    std::vector<bool> used(topo.link_classes().size(), false);
    for (RouterId r = 0; r < topo.num_routers(); ++r)
      for (PortId p = 0; p < topo.num_ports(r); ++p) {
        const PortPeer pp = topo.peer(r, p);
        if (pp.kind != PortPeer::Kind::None) used[pp.link] = true;
      }
    auto need = [&](std::uint32_t depth, const std::string& key) {
      if (depth < mp)
        ctx.fail(key, "virtual cut-through needs room for a whole packet: " + std::to_string(depth) + " < nic.max_packet " +
                          std::to_string(mp));
    };
    for (std::size_t lc = 0; lc < used.size(); ++lc)
      if (used[lc]) need(b->buffer_depth[lc], "router.buffer." + topo.link_classes()[lc].name);
    need(c.nic.ejection_buffer, "nic.ejection_buffer");
    if (c.router.output_buffer > 0) need(c.router.output_buffer, "router.output_buffer");
  }
  for (const auto n : c.sim.ejection_series)
    if (n >= topo.num_nodes())
      ctx.fail("sim.ejection_series", "node " + std::to_string(n) + " does not exist (" + std::to_string(topo.num_nodes()) + " nodes)");
  const auto groups = resolve_groups(c.traffic, topo.num_nodes(), c.seed, ctx);
  for (std::size_t i = 0; i < c.traffic.classes.size(); ++i) {
    const std::string path = "traffic.classes[" + std::to_string(i) + "]";
    const auto& src = find_group(groups, c.traffic.classes[i].sources, path + ".sources", ctx);
    const auto& dst = find_group(groups, c.traffic.classes[i].destinations, path + ".destinations", ctx);
    // The pattern checks that every source has somewhere to send; build it as the network will.
    try {
      c.traffic.classes[i].pattern.params->create(src, dst, RngStream(c.seed, "traffic." + c.traffic.classes[i].name + ".pattern"));
    } catch (const config::ConfigError& e) {
      ctx.fail(path + ".destinations", e.what());
    }
    b->sources.push_back(src);
    b->destinations.push_back(dst);
  }
  return b;
}

}  // namespace

Config load_config(const std::string& file, const std::vector<std::string>& overrides, long long seed_override) {
  config::BindContext ctx(file);
  YAML::Node root = config::load_document(file, overrides, ctx);
  Config c;
  c.file = file;
  c.empty_file = ctx.empty_document();
  Config::schema().apply_defaults(&c);
  Config::schema().bind(&c, root, ctx, "");
  if (seed_override >= 0) c.seed = static_cast<std::uint64_t>(seed_override);
  validate(c, ctx);
  c.built = build(c, ctx);
  return c;
}

config::Json effective_config(const Config& cfg) {
  config::Json j = Config::schema().dump(&cfg);
  if (cfg.built) {
    // Per-link-class values: the topology's classes only (the defaults of other classes do not apply).
    for (auto* values : {&j["link"]["latency"], &j["router"]["buffer"]}) {
      config::Json kept = config::Json::object();
      for (const auto& lc : cfg.built->topology->link_classes()) kept[lc.name] = (*values)[lc.name];
      *values = kept;
    }
  }
  return j;
}

std::uint64_t router_link_latency_sum(const Config& cfg) {
  std::uint64_t sum = 0;
  for (const auto& [name, latency] : cfg.link.latency.entries)
    if (name != kTerminalClass.name) sum += latency;
  return sum;
}

config::Json config_schema() { return Config::schema().describe(); }

namespace {
void list_names(const config::Json& schema, const std::string& path, std::string& out) {
  for (const auto& [key, d] : schema["keys"].items()) {
    const std::string sub = path.empty() ? key : path + "." + key;
    const std::string kind = d["kind"];
    if (kind == "poly") {
      out += sub + "." + d["selector"].get<std::string>() + ":";
      std::string sep = " ";
      for (const auto& [name, opt] : d["options"].items()) {
        out += sep + name;
        sep = ", ";
      }
      out += "\n";
      for (const auto& [name, opt] : d["options"].items()) list_names(opt, sub, out);
    } else if (kind == "section") {
      list_names(d, sub, out);
    } else if (kind == "sections") {
      list_names(d, sub + "[]", out);
    }
  }
}
}  // namespace

std::string registered_names() {
  std::string out;
  list_names(config_schema(), "", out);
  return out;
}

std::string config_reference() {
  return config::markdown_reference(
      Config::schema(), "Configuration reference",
      "Generated by `ccnet docs config` from the declarations in the source (do not edit by hand; "
      "`ctest -R config_doc` checks it is current).\n\n"
      "A configuration is one YAML file. Every key below is optional; omitted keys take the default. "
      "Unknown keys, wrong types and out-of-range values are errors naming the file, line and key "
      "path. `ccnet run CONFIG --set a.b=c` overrides a key (lists by index: `traffic.classes[0].rate=0.3`); "
      "`ccnet config CONFIG` prints the effective configuration. Polymorphic sections choose their "
      "schema with a selector key (`topology.type`, `routing.algorithm`, `cc.mechanism`, "
      "`traffic.classes[].pattern.type`); each choice is documented below.");
}

}  // namespace ccnet
