// Trace-only state of a NIC (docs/tracing.md): values a waveform shows that the NIC does not
// keep as plain members. It exists only for NICs selected by --trace-scope and is refreshed at
// the end of the NIC's clock edge only while the trace window is open (Nic::set_tracing).
#pragma once

#include <cstdint>
#include <vector>

namespace ccnet {

struct NicProbe {
  std::vector<std::uint32_t> inject_credits;  // per VC of the router's terminal input
};

}  // namespace ccnet
