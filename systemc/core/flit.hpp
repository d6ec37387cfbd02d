// What travels on the wires between modules: a small flit (packet-level data lives in the
// PacketPool the flit refers to) forward, and credit lanes backward. Both are sc_signal
// payloads, so they carry operator==, operator<< and sc_trace.
//
// Channel protocol: the sender stamps every flit (every non-empty set of credit lanes) it writes
// with a sequence number `seq` one above the previous one on that channel; the receiver takes a
// value iff it is valid (non-empty) and its seq differs from the last value it took. So a value
// left on a channel is not taken twice, and a sender need not clear its channel the cycle after
// each flit or credit (a second kernel update): it does so only while the channel must carry the
// exact value every cycle (`exact`: a traced run, docs/performance.md). seq is neither traced
// nor printed, so waveforms are the same either way.
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
  std::uint8_t seq = 0;  // channel protocol (above)

  bool valid() const { return packet != kNoPacket; }
  // A flit the receiver has not taken yet (`taken`: the seq of the last one it took).
  bool fresh(std::uint8_t taken) const { return valid() && seq != taken; }
  bool operator==(const Flit& o) const {
    return packet == o.packet && index == o.index && vc == o.vc && head == o.head && tail == o.tail && seq == o.seq;
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
  std::uint8_t seq = 0;  // channel protocol (above)
  std::array<VcId, kMaxCreditLanes> vc{};

  bool empty() const { return count == 0; }
  bool fresh(std::uint8_t taken) const { return count != 0 && seq != taken; }
  void push(VcId v) { vc[count++] = v; }
  bool operator==(const CreditLanes& o) const {
    if (count != o.count || seq != o.seq) return false;
    for (int i = 0; i < count; ++i)
      if (vc[i] != o.vc[i]) return false;
    return true;
  }
  bool operator!=(const CreditLanes& o) const { return !(*this == o); }
};

std::ostream& operator<<(std::ostream& os, const CreditLanes& c);
void sc_trace(sc_core::sc_trace_file* tf, const CreditLanes& c, const std::string& name);

}  // namespace ccnet
