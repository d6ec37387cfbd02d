// The shared constants seen from the Verilated side: every public parameter of ccn_pkg in a
// Verilated model (rtl/CMakeLists.txt, prefix Vccn_pkg_check) equals its C++ value in
// systemc/blocks/hw_consts.hpp. Checked at compile time (static_assert); the run prints the table.
#include <cstdio>

#include <systemc>

#include "Vccn_pkg_check_ccn_pkg.h"
#include "blocks/hw_consts.hpp"

using Pkg = Vccn_pkg_check_ccn_pkg;

#define CCN_CHECK_CONSTANT(name, value, doc)                                       \
  static_assert(Pkg::name == ccnet::hw::k##name, "ccn_pkg::" #name " differs from hw_consts.hpp");
CCN_HW_CONSTANTS(CCN_CHECK_CONSTANT)
#undef CCN_CHECK_CONSTANT

#define CCN_CHECK_KIND(name, code)                                                          \
  static_assert(Pkg::PktKind##name##Code == static_cast<unsigned>(ccnet::hw::PacketKindCode::name), \
                "ccn_pkg::PktKind" #name " differs from hw_consts.hpp");
CCN_HW_PACKET_KINDS(CCN_CHECK_KIND)
#undef CCN_CHECK_KIND
static_assert(Pkg::NumPacketKinds == static_cast<unsigned>(ccnet::hw::kNumPacketKindCodes),
              "ccn_pkg::NumPacketKinds differs from hw_consts.hpp");

#define CCN_CHECK_LHRP_KIND(name, code)                                                       \
  static_assert(Pkg::LhrpKind##name##Code == static_cast<unsigned>(ccnet::hw::LhrpKindCode::name), \
                "ccn_pkg::LhrpKind" #name " differs from hw_consts.hpp");
CCN_HW_LHRP_KINDS(CCN_CHECK_LHRP_KIND)
#undef CCN_CHECK_LHRP_KIND
static_assert(Pkg::NumLhrpKinds == static_cast<unsigned>(ccnet::hw::kNumLhrpKindCodes),
              "ccn_pkg::NumLhrpKinds differs from hw_consts.hpp");

#define CCN_CHECK_MVCM_ACK(name, code)                                                        \
  static_assert(Pkg::MvcmAck##name##Code == static_cast<unsigned>(ccnet::hw::MvcmAckCode::name), \
                "ccn_pkg::MvcmAck" #name " differs from hw_consts.hpp");
CCN_HW_MVCM_ACKS(CCN_CHECK_MVCM_ACK)
#undef CCN_CHECK_MVCM_ACK
static_assert(Pkg::NumMvcmAcks == static_cast<unsigned>(ccnet::hw::kNumMvcmAckCodes),
              "ccn_pkg::NumMvcmAcks differs from hw_consts.hpp");

// libsystemc.so owns main(): the entry point is sc_main.
int sc_main(int, char*[]) {
  int n = 0;
#define CCN_PRINT_CONSTANT(name, value, doc)                                                                    \
  std::printf("ccn_pkg::%-30s = %u (C++ %u)\n", #name, static_cast<unsigned>(Pkg::name), ccnet::hw::k##name); \
  ++n;
  CCN_HW_CONSTANTS(CCN_PRINT_CONSTANT)
#define CCN_PRINT_KIND(name, code)                                                                      \
  std::printf("ccn_pkg::PktKind%-23s = %u (C++ %u)\n", #name, static_cast<unsigned>(Pkg::PktKind##name##Code), \
              static_cast<unsigned>(ccnet::hw::PacketKindCode::name));
  CCN_HW_PACKET_KINDS(CCN_PRINT_KIND)
#define CCN_PRINT_LHRP_KIND(name, code)                                                                   \
  std::printf("ccn_pkg::LhrpKind%-22s = %u (C++ %u)\n", #name, static_cast<unsigned>(Pkg::LhrpKind##name##Code), \
              static_cast<unsigned>(ccnet::hw::LhrpKindCode::name));
  CCN_HW_LHRP_KINDS(CCN_PRINT_LHRP_KIND)
#define CCN_PRINT_MVCM_ACK(name, code)                                                                    \
  std::printf("ccn_pkg::MvcmAck%-23s = %u (C++ %u)\n", #name, static_cast<unsigned>(Pkg::MvcmAck##name##Code), \
              static_cast<unsigned>(ccnet::hw::MvcmAckCode::name));
  CCN_HW_MVCM_ACKS(CCN_PRINT_MVCM_ACK)
  std::printf("all %d constants, %d packet-kind codes, %d LHRP lane-kind codes and %d MVCM ACK classes agree\n", n,
              ccnet::hw::kNumPacketKindCodes, ccnet::hw::kNumLhrpKindCodes, ccnet::hw::kNumMvcmAckCodes);
  return 0;
}
