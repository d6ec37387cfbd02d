// The routing words a dragonfly route keeps in Packet::route (routing-owned; core never reads
// them): route[0] bits 0-7 = global channels crossed (minimal routing's VC level), bits 8-15 =
// UGAL phase (0 undecided, 1 minimal, 2 Valiant toward the intermediate group); route[1] = the
// Valiant intermediate group.
#pragma once

#include "core/packet.hpp"

namespace ccnet {

struct DragonflyRoute {
  enum Phase : std::uint8_t { Undecided = 0, Minimal = 1, Valiant = 2 };
  static std::uint8_t global_hops(const Packet& p) { return static_cast<std::uint8_t>(p.route[0] & 0xFFu); }
  static void add_global_hop(Packet& p) {
    p.route[0] = (p.route[0] & ~0xFFu) | ((p.route[0] + 1) & 0xFFu);
  }
  static std::uint8_t phase(const Packet& p) { return static_cast<std::uint8_t>((p.route[0] >> 8) & 0xFFu); }
  static void set_phase(Packet& p, Phase phase) { p.route[0] = (p.route[0] & ~0xFF00u) | (std::uint32_t{phase} << 8); }
  static std::uint32_t intermediate(const Packet& p) { return p.route[1]; }
  static void set_intermediate(Packet& p, std::uint32_t group) { p.route[1] = group; }
};

}  // namespace ccnet
