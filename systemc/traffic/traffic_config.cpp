#include "traffic/traffic_config.hpp"

#include <algorithm>
#include <set>

#include "traffic/pattern.hpp"

namespace ccnet {

using config::Declare;
using config::Schema;

const Schema& NodeGroupConfig::schema() {
  static Schema s(
      "A named set of nodes. Members are `nodes` and/or `range` if given; otherwise the nodes of "
      "`from` minus those of the `exclude` groups, of which `random` (if > 0) are drawn at random "
      "(seeded). Groups are resolved in order, so a group may use earlier ones. `all` is predefined.");
  static bool init = [] {
    Declare<NodeGroupConfig>(s)
        .str("name", &NodeGroupConfig::name, "", "group name (used by traffic classes and later groups)")
        .list("nodes", &NodeGroupConfig::nodes, std::vector<std::uint32_t>{}, "explicit node ids")
        .list("range", &NodeGroupConfig::range, std::vector<std::uint32_t>{}, "[first, last] node ids, inclusive")
        .field("random", &NodeGroupConfig::random, 0u, "draw this many nodes at random from the candidates (0 = take all)")
        .str("from", &NodeGroupConfig::from, "all", "candidate group")
        .strings("exclude", &NodeGroupConfig::exclude, {}, "groups whose nodes are not candidates");
    return true;
  }();
  (void)init;
  return s;
}

const Schema& TrafficClassConfig::schema() {
  static Schema s(
      "A traffic class: messages from each of its source nodes to destinations chosen by its pattern, at its offered "
      "load, while start <= cycle < stop. A class may also start only once the network has delivered a number of data "
      "packets (start_after_delivered: a transient that begins after a warm-up counted in packets, paper 001) and give "
      "each source a fixed number of messages (messages), after which that source stops.");
  static bool init = [] {
    Declare<TrafficClassConfig>(s)
        .str("name", &TrafficClassConfig::name, "", "class name (statistics appear under classes.<name>)")
        .poly("pattern", &TrafficClassConfig::pattern, "type", "uniform", "destination pattern")
        .choice("process", &TrafficClassConfig::process, InjectionProcess::Bernoulli,
                {{"bernoulli", InjectionProcess::Bernoulli}, {"periodic", InjectionProcess::Periodic},
                 {"phase", InjectionProcess::Phase}, {"bursty", InjectionProcess::Bursty}},
                "message arrivals per source: Bernoulli (one draw per cycle), periodic (one message every "
                "mean_size/rate cycles, random phase per source), bursty (ON/OFF: a burst of `burst` messages on "
                "average, geometric, all to one destination drawn from the pattern, each message starting when the "
                "previous one's flits would have left at one flit per cycle; then an idle gap, geometric, sized so "
                "the long-run load is `rate`), or phase (a communication phase: every source posts `flows` messages "
                "at `start`, all at once; `rate` is not used)")
        .str("sources", &TrafficClassConfig::sources, "all", "group of source nodes")
        .str("destinations", &TrafficClassConfig::destinations, "all", "group of destination nodes")
        .field("rate", &TrafficClassConfig::rate, 0.1, "offered load per source in flits/cycle", {0.0, 1.0})
        .field("size", &TrafficClassConfig::size, 1u, "message size in flits (lower bound if size_max is set)", {1, 1u << 24})
        .field("size_max", &TrafficClassConfig::size_max, 0u, "if > size: sizes uniform in [size, size_max]", {0, 1u << 24})
        .field("start", &TrafficClassConfig::start, Cycle{0}, "first cycle messages are generated")
        .field("stop", &TrafficClassConfig::stop, kNever, "no messages from this cycle on", {0, kNever, true})
        .field("flows", &TrafficClassConfig::flows, 1u,
               "phase: messages (flows) each source posts at `start`, destinations from the pattern in turn", {1, 4096})
        .field("burst", &TrafficClassConfig::burst, 12.0,
               "bursty: mean messages per burst (geometric on 1, 2, ...; paper 002: 12 one-packet messages)", {1.0, 1e9})
        .field("messages", &TrafficClassConfig::messages, std::uint64_t{0},
               "messages each source generates, after which it stops (0 = no limit)")
        .field("start_after_delivered", &TrafficClassConfig::start_after_delivered, std::uint64_t{0},
               "the class starts (at the first cycle >= start) once this many data packets of any class have been "
               "delivered network-wide (0 = at start)");
    return true;
  }();
  (void)init;
  return s;
}

Cycle TrafficClassConfig::period() const {
  const double p = mean_size() / rate;  // +inf for rate 0
  // Beyond 2^62 cycles a source sends at most once in any run; the cast would overflow.
  if (!(p < 0x1p62)) return Cycle{1} << 62;
  return p < 1.0 ? 1 : static_cast<Cycle>(p + 0.5);
}

double TrafficClassConfig::burst_start_probability() const {
  if (rate <= 0) return 0;
  const double idle = burst * mean_size() * (1.0 - rate) / rate;  // mean idle cycles between bursts
  return 1.0 / (idle + 1.0);  // geometric failures before a success: mean idle
}

const Schema& TrafficConfig::schema() {
  static Schema s("The workload.");
  static bool init = [] {
    Declare<TrafficConfig>(s)
        .sections("groups", &TrafficConfig::groups, 0, "named node groups")
        .sections("classes", &TrafficConfig::classes, 1, "traffic classes (at least one)");
    return true;
  }();
  (void)init;
  return s;
}

const std::vector<NodeId>& find_group(const std::vector<std::pair<std::string, std::vector<NodeId>>>& groups,
                                      const std::string& name, const std::string& path, const config::BindContext& ctx) {
  for (const auto& g : groups)
    if (g.first == name) return g.second;
  std::string known;
  for (const auto& g : groups) known += (known.empty() ? "" : ", ") + g.first;
  ctx.fail(path, "unknown node group '" + name + "' (known: " + known + ")");
}

std::vector<std::pair<std::string, std::vector<NodeId>>> resolve_groups(const TrafficConfig& cfg, std::uint32_t nodes,
                                                                        std::uint64_t seed, const config::BindContext& ctx) {
  std::vector<std::pair<std::string, std::vector<NodeId>>> out;
  std::vector<NodeId> all(nodes);
  for (NodeId n = 0; n < nodes; ++n) all[n] = n;
  out.emplace_back("all", all);
  for (std::size_t i = 0; i < cfg.groups.size(); ++i) {
    const NodeGroupConfig& g = cfg.groups[i];
    const std::string path = "traffic.groups[" + std::to_string(i) + "]";
    if (g.name.empty()) ctx.fail(path + ".name", "a group needs a name");
    for (const auto& o : out)
      if (o.first == g.name) ctx.fail(path + ".name", "duplicate group name '" + g.name + "'");
    std::set<NodeId> members;
    if (!g.nodes.empty() || !g.range.empty()) {
      for (auto n : g.nodes) {
        if (n >= nodes) ctx.fail(path + ".nodes", "node " + std::to_string(n) + " does not exist (" + std::to_string(nodes) + " nodes)");
        members.insert(n);
      }
      if (!g.range.empty()) {
        if (g.range.size() != 2 || g.range[0] > g.range[1] || g.range[1] >= nodes)
          ctx.fail(path + ".range", "expected [first, last] with first <= last < " + std::to_string(nodes));
        for (auto n = g.range[0]; n <= g.range[1]; ++n) members.insert(n);
      }
    } else {
      const auto& from = find_group(out, g.from, path + ".from", ctx);
      std::set<NodeId> excluded;
      for (std::size_t k = 0; k < g.exclude.size(); ++k)
        for (NodeId n : find_group(out, g.exclude[k], path + ".exclude[" + std::to_string(k) + "]", ctx)) excluded.insert(n);
      std::vector<NodeId> cand;
      for (NodeId n : from)
        if (!excluded.count(n)) cand.push_back(n);
      if (g.random > 0) {
        if (g.random > cand.size())
          ctx.fail(path + ".random", "wants " + std::to_string(g.random) + " nodes but only " + std::to_string(cand.size()) +
                                         " candidates remain");
        RngStream rng(seed, "traffic.groups." + g.name);
        for (std::size_t k = 0; k < g.random; ++k) std::swap(cand[k], cand[k + rng.below(cand.size() - k)]);
        cand.resize(g.random);
      }
      members.insert(cand.begin(), cand.end());
    }
    if (members.empty()) ctx.fail(path, "group '" + g.name + "' is empty");
    out.emplace_back(g.name, std::vector<NodeId>(members.begin(), members.end()));
  }
  return out;
}

}  // namespace ccnet
