// What travels on the wires between modules: a small flit (packet-level data lives in the
// PacketPool the flit refers to) forward, and credit lanes backward. Both are sc_signal
// payloads, so they carry operator==, operator<< and sc_trace.
#pragma once

#include <array>
#include <cstdint>
#include <ostream>
#include <string>

#include "core/types.hpp"

namespace sc_core {
class sc_trace_file;
}

namespace ccnet {

struct Flit {
  PacketId packet = kNoPacket;  // kNoPacket: the channel is idle this cycle
  std::uint16_t index = 0;      // position of this flit in its packet (0 = head)
  VcId vc = 0;                  // virtual channel at the receiving input port
  bool head = false;
  bool tail = false;

  bool valid() const { return packet != kNoPacket; }
  bool operator==(const Flit& o) const {
    return packet == o.packet && index == o.index && vc == o.vc && head == o.head && tail == o.tail;
  }
  bool operator!=(const Flit& o) const { return !(*this == o); }
};

std::ostream& operator<<(std::ostream& os, const Flit& f);
std::string to_text(const Flit& f);
void sc_trace(sc_core::sc_trace_file* tf, const Flit& f, const std::string& name);

// Credits returned upstream in one cycle. A crossbar with speedup S can free up to S buffer
// slots of one input port per cycle, so the credit channel has S lanes (each names a VC).
constexpr int kMaxCreditLanes = 4;

struct CreditLanes {
  std::uint8_t count = 0;
  std::array<VcId, kMaxCreditLanes> vc{};

  bool empty() const { return count == 0; }
  void push(VcId v) { vc[count++] = v; }
  bool operator==(const CreditLanes& o) const {
    if (count != o.count) return false;
    for (int i = 0; i < count; ++i)
      if (vc[i] != o.vc[i]) return false;
    return true;
  }
  bool operator!=(const CreditLanes& o) const { return !(*this == o); }
};

std::ostream& operator<<(std::ostream& os, const CreditLanes& c);
void sc_trace(sc_core::sc_trace_file* tf, const CreditLanes& c, const std::string& name);

}  // namespace ccnet
