#include "core/types.hpp"

#include <cstdlib>

namespace ccnet {

const char* to_string(PacketKind kind) {
  switch (kind) {
    case PacketKind::Data: return "data";
    case PacketKind::Ack: return "ack";
    case PacketKind::Nack: return "nack";
    case PacketKind::Reservation: return "reservation";
    case PacketKind::Grant: return "grant";
    case PacketKind::Retry: return "retry";
    case PacketKind::CongestionNotification: return "cnp";
  }
  return "?";
}

}  // namespace ccnet

namespace {
// SystemC prints a copyright banner on stdout at start-up unless this variable is set; ccnet's
// stdout carries results, so silence it before main() runs (static initialisation).
struct QuietSystemC {
  QuietSystemC() { setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0); }
} quiet_systemc;
}  // namespace
