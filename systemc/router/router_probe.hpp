// Trace-only state of a router (docs/tracing.md): values a waveform shows that the router does
// not keep as plain members (credit counts inside the block cores, output-queue sizes, this
// cycle's switch requests and grants). It exists only for routers selected by --trace-scope,
// and the router fills it at the end of its clock edge only while the trace window is open
// (Router::set_tracing); otherwise the router's only cost is one null-pointer test per cycle.
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace ccnet {

struct RouterProbe {
  std::uint32_t vcs = 0;
  std::vector<std::uint32_t> out_credits;  // [port * vcs + vc]: downstream credits available
  std::vector<std::uint32_t> out_queue;    // [port * vcs + vc]: output-queue flits (CIOQ)
  std::vector<std::uint32_t> out_waiting;  // per output: input queues whose head packet is routed there, not yet sent
  std::vector<std::uint32_t> sa_requests;  // per output: switch requests this cycle
  std::vector<std::uint64_t> sa_grants;    // per output: bit i set = input i won it this cycle
};

}  // namespace ccnet
