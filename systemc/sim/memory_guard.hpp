// Memory guard: an estimate, made before anything is allocated, of the memory a network will
// take once built, so that a configuration asking for absurd sizes (a million-flit buffer on
// every global port, a 256x256 mesh) is refused with the key to change instead of running the
// machine out of memory. `sim.memory_limit_mb` sets the limit (0: half the machine's memory).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/config.hpp"

namespace ccnet {

struct MemoryEstimate {
  // One part of the estimate and the key that controls it.
  struct Term {
    std::string key;   // e.g. "router.buffer.global"
    std::string what;  // e.g. "router input buffers on global ports: 72 ports x 4 VCs x 1048576 flits"
    double bytes = 0;
  };
  std::vector<Term> terms;  // largest first
  double bytes = 0;         // total (the fixed cost of the process is a term too)
  std::string text() const;  // "26 MB" / "7.6 GB"
};

// Estimates the memory of the network of `cfg` once elaborated (peak resident size at the start
// of the run; traffic adds packets and queued messages on top). `buffer_depth` is the input
// buffer depth per link class of `topo`, `vnets` the number of virtual networks of the
// configured mechanism, `vc_levels` that of the routing function. The coefficients are
// calibrated against measured peak RSS (tests/robust memory_guard keeps them honest). The walk
// over every router port is skipped, and only the size-driven part returned, when that part
// alone already exceeds `stop_above` bytes (a network of 2^31 routers is refused at once).
MemoryEstimate estimate_memory(const Config& cfg, const Topology& topo, const std::vector<std::uint32_t>& buffer_depth,
                               unsigned vnets, unsigned vc_levels, double stop_above);

// The limit in bytes for `sim.memory_limit_mb` (0: half of physical memory, or of the cgroup's
// limit when lower); `how` says where it came from, for messages.
double memory_limit_bytes(const SimConfig& sim, std::string& how);

// "3.63e+07 TB", "1.5 GB", "26 MB", "512 kB".
std::string human_bytes(double bytes);

}  // namespace ccnet
