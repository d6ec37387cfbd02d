#include "sim/memory_guard.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace ccnet {

namespace {

// Bytes per unit, fitted (least squares on relative error) to the peak RSS of 28 networks just
// after elaboration (meshes 16..4096 nodes with concentration, fat trees, dragonflies; buffer
// depths 8..4096, 2..32 VCs per port); every fit was within 2% (ccnet 0.1, Debian 12 x86-64).
constexpr double kProcess = 10.5e6;       // SystemC kernel, libraries, configuration
constexpr double kPerRouter = 6.3e3;      // module, processes, allocator
constexpr double kPerPort = 4.8e3;        // SystemC ports and signals of one router port
constexpr double kPerNode = 12.1e3;       // NIC module, its ports, the traffic socket
constexpr double kPerNodePair = 31.5;     // a NIC's state per destination (send queue, injection-rate state)
constexpr double kPerPortVc = 246;        // per input/output VC state of one port
constexpr double kPerBufferSlot = 33;     // one flit slot of an input buffer (router.buffer.*, control_queue)
constexpr double kPerOutputSlot = 16;     // one flit of a full output queue (grows on demand)
constexpr double kPerVoq = 24;            // one virtual output queue

}  // namespace

std::string human_bytes(double b) {
  char buf[32];
  if (b >= 1e12) std::snprintf(buf, sizeof buf, "%.3g TB", b / 1e12);
  else if (b >= 1e9) std::snprintf(buf, sizeof buf, "%.1f GB", b / 1e9);
  else if (b >= 1e6) std::snprintf(buf, sizeof buf, "%.0f MB", b / 1e6);
  else std::snprintf(buf, sizeof buf, "%.0f kB", b / 1e3);
  return buf;
}

std::string MemoryEstimate::text() const { return human_bytes(bytes); }

MemoryEstimate estimate_memory(const Config& cfg, const Topology& topo, const std::vector<std::uint32_t>& buffer_depth,
                               unsigned vnets, unsigned vc_levels, double stop_above) {
  MemoryEstimate e;
  const double nodes = topo.num_nodes(), routers = topo.num_routers();
  auto add = [&](const std::string& key, const std::string& what, double bytes) {
    if (bytes > 0) e.terms.push_back({key, what, bytes});
    e.bytes += bytes;
  };
  auto count = [](double v) { return std::to_string(static_cast<std::uint64_t>(v)); };
  // When the fixed cost dominates, the limit itself is what is too small.
  add("sim.memory_limit_mb", "the simulator itself (SystemC kernel, libraries)", kProcess);
  add("topology", "NIC per-destination state: " + count(nodes) + " nodes x " + count(nodes) + " destinations",
      nodes * nodes * kPerNodePair + nodes * kPerNode);
  add("topology", count(routers) + " routers", routers * kPerRouter);
  if (e.bytes <= stop_above) {
    const RouterConfig& rc = cfg.router;
    const double vcs = static_cast<double>(vnets) * vc_levels * rc.vcs_per_level;
    double ports = 0, voqs = 0;
    const auto& classes = topo.link_classes();
    std::vector<double> ports_by_link(classes.size(), 0.0);  // connected router ports per link class
    for (RouterId r = 0; r < topo.num_routers(); ++r) {
      const PortId np = topo.num_ports(r);
      ports += np;
      if (rc.voq) voqs += (np + 1.0) * np * vcs;
      for (PortId p = 0; p < np; ++p) {
        const PortPeer peer = topo.peer(r, p);
        if (peer.kind != PortPeer::Kind::None) ++ports_by_link[peer.link];
      }
    }
    add("topology", count(ports) + " router ports", ports * kPerPort);
    double connected = 0;
    for (std::size_t lc = 0; lc < classes.size(); ++lc) {
      const double n = ports_by_link[lc], depth = buffer_depth[lc];
      connected += n;
      add("router.buffer." + classes[lc].name,
          "router input buffers on " + classes[lc].name + " ports: " + count(n) + " ports x " + count(vcs) + " VCs x " +
              count(depth) + " flits",
          n * vcs * depth * kPerBufferSlot);
    }
    add("router.control_queue",
        "switch control-packet sources: " + count(routers) + " routers x " + count(vcs) + " VCs x " +
            count(rc.control_queue) + " flits",
        routers * vcs * rc.control_queue * kPerBufferSlot);
    add("router.vcs_per_level", "per-VC state: " + count(ports) + " ports x " + count(vcs) + " VCs",
        ports * vcs * kPerPortVc);
    add("router.output_buffer",
        "output queues when full: " + count(connected) + " ports x " + count(vcs) + " VCs x " + count(rc.output_buffer) +
            " flits",
        connected * vcs * rc.output_buffer * kPerOutputSlot);
    add("router.voq", "virtual output queues: " + count(voqs), voqs * kPerVoq);
  }
  std::stable_sort(e.terms.begin(), e.terms.end(), [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
  return e;
}

double memory_limit_bytes(const SimConfig& sim, std::string& how) {
  if (sim.memory_limit_mb > 0) {
    how = "sim.memory_limit_mb " + std::to_string(sim.memory_limit_mb);
    return static_cast<double>(sim.memory_limit_mb) * 1e6;
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  double total = pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0;
  how = "sim.memory_limit_mb 0: half of this machine's memory";
  // A container's memory limit (cgroup v2), when it is below the machine's.
  std::ifstream cg("/sys/fs/cgroup/memory.max");
  double cg_limit = 0;
  if (cg >> cg_limit && cg_limit > 0 && (total == 0 || cg_limit < total)) {
    total = cg_limit;
    how = "sim.memory_limit_mb 0: half of this container's memory limit";
  }
  return total > 0 ? total / 2 : 8e9;
}

}  // namespace ccnet
