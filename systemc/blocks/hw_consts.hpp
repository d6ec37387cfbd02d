// Hardware constants shared by the C++ model and the RTL: the single source.
//
// It lives with the mirrored blocks (the layer above core/): the block cores, the RTL package and
// the co-simulation benches share it; its packet-kind codes are checked against core/types.hpp.
//
// rtl/ccn_pkg.sv is generated from this file by scripts/gen_ccn_pkg (it compiles a small
// program against this header, so the package holds exactly the values C++ sees). Two ctests
// (label `lint`) keep both sides honest:
//   * lint:ccn_pkg_fresh  regenerates the package into the build tree and diffs it against the
//                         committed rtl/ccn_pkg.sv;
//   * lint:ccn_pkg_verilated  static_asserts every constant of the *Verilated* package
//                         (`/*verilator public*/` localparams) against the values below.
//
// Format (keep it: the generator expands these lists, it does not parse C++):
//   CCN_HW_CONSTANTS(X):    X(Name, value, "doc")  ->  C++ ccnet::hw::kName, SV ccn_pkg::Name
//   CCN_HW_PACKET_KINDS(X): X(Name, code)          ->  C++ ccnet::hw::PacketKindCode::Name,
//                                                      SV ccn_pkg::PktKind<Name> (packet_kind_e):
//                                                      the kernel's kinds; a mechanism's own kinds
//                                                      take the codes from FirstMechanismKind on
//   CCN_HW_LHRP_KINDS(X):   X(Name, code)          ->  C++ ccnet::hw::LhrpKindCode::Name,
//                                                      SV ccn_pkg::LhrpKind<Name> (lhrp_kind_e)
//   CCN_HW_MVCM_ACKS(X):    X(Name, code)          ->  C++ ccnet::hw::MvcmAckCode::Name,
//                                                      SV ccn_pkg::MvcmAck<Name> (mvcm_ack_e)
//   CCN_HW_CRP_OPS(X):      X(Name, code)          ->  C++ ccnet::hw::CrpOpCode::Name,
//                                                      SV ccn_pkg::CrpOp<Name> (crp_op_e)
//   CCN_HW_CRP_RETRIES(X):  X(Name, code)          ->  C++ ccnet::hw::CrpRetryCode::Name,
//                                                      SV ccn_pkg::CrpRetry<Name> (crp_retry_e)
#pragma once

#include <cstdint>

#include "core/types.hpp"

// Limits every mirrored block checks its parameters against (RTL: elaboration assertions;
// C++: static_asserts in the SystemC wrappers, systemc/blocks/*_sc.hpp).
#define CCN_HW_CONSTANTS(X)                                                                          \
  X(MaxCreditLanes, 4u, "Most credits one port returns per cycle (crossbar speedup of a router).")   \
  X(MaxVcs, 16u, "Most virtual channels (or VOQs) per port.")                                        \
  X(MaxPrioLevels, 4u, "Most arbitration priority levels (traffic classes).")                        \
  X(MaxPorts, 64u, "Most ports of one router.")                                                      \
  X(PacketKindWidth, 4u, "Bits of a packet-kind code on the wire (packet_kind_e).")              \
  X(FirstMechanismKind, 2u, "First packet-kind code a mechanism declares (its kinds follow in order).") \
  X(LhrpKindWidth, 2u, "Bits of an LHRP scheduler arrival-lane kind (lhrp_kind_e).")                 \
  X(MvcmAckWidth, 2u, "Bits of an MVCM flow controller ACK class (mvcm_ack_e).")                   \
  X(CrpOpWidth, 3u, "Bits of a CRP reservation-table operation code (crp_op_e).")                    \
  X(CrpRetryWidth, 2u, "Bits of a CRP retry kind (crp_retry_e).")

// The kernel's packet-kind codes on the wire; must equal ccnet::PacketKind (core/types.hpp),
// checked below.
#define CCN_HW_PACKET_KINDS(X) \
  X(Data, 0u)                  \
  X(Ack, 1u)

// Arrival-lane kinds of the LHRP last-hop scheduler (ccn_lhrp_scheduler arr_kind_i); must equal
// ccnet::blocks::LhrpKind (blocks/lhrp_scheduler.hpp checks it). The code 3 is no kind.
#define CCN_HW_LHRP_KINDS(X) \
  X(Data, 0u)                \
  X(Speculative, 1u)         \
  X(Reservation, 2u)

// ACK classes of the MVCM source flow controller (ccn_mvcm_flow_ctrl ack_kind_i, paper 001
// Table 1); must equal ccnet::blocks::MvcmAck (blocks/mvcm_flow_ctrl.hpp checks it). The code 3
// is no class.
#define CCN_HW_MVCM_ACKS(X) \
  X(Cold, 0u)               \
  X(Warm, 1u)               \
  X(Hot, 2u)

// Operations of the CRP reservation table (ccn_crp_table op_i); must equal
// ccnet::blocks::CrpOp (blocks/crp_table.hpp checks it). Codes 5..7 are no op.
#define CCN_HW_CRP_OPS(X) \
  X(Nop, 0u)              \
  X(Request, 1u)          \
  X(Grant, 2u)            \
  X(Release, 3u)          \
  X(Charge, 4u)

// Retry kinds of a CRP destination's pick (ccn_crp_table retry_o); must equal
// ccnet::blocks::CrpRetry (blocks/crp_table.hpp checks it).
#define CCN_HW_CRP_RETRIES(X) \
  X(None, 0u)                 \
  X(Short, 1u)                \
  X(Long, 2u)

namespace ccnet::hw {

#define CCN_HW_DECLARE_CONSTANT(name, value, doc) inline constexpr std::uint32_t k##name = value;
CCN_HW_CONSTANTS(CCN_HW_DECLARE_CONSTANT)
#undef CCN_HW_DECLARE_CONSTANT

enum class PacketKindCode : std::uint8_t {
#define CCN_HW_DECLARE_KIND(name, code) name = code,
  CCN_HW_PACKET_KINDS(CCN_HW_DECLARE_KIND)
#undef CCN_HW_DECLARE_KIND
};

// The wire codes are the model's PacketKind values, one for one.
#define CCN_HW_CHECK_KIND(name, code)                                                  \
  static_assert(static_cast<unsigned>(::ccnet::PacketKind::name) == (code),            \
                "hw_consts.hpp: packet-kind code of " #name " differs from PacketKind");
CCN_HW_PACKET_KINDS(CCN_HW_CHECK_KIND)
#undef CCN_HW_CHECK_KIND

enum class LhrpKindCode : std::uint8_t {
#define CCN_HW_DECLARE_KIND(name, code) name = code,
  CCN_HW_LHRP_KINDS(CCN_HW_DECLARE_KIND)
#undef CCN_HW_DECLARE_KIND
};

enum class MvcmAckCode : std::uint8_t {
#define CCN_HW_DECLARE_KIND(name, code) name = code,
  CCN_HW_MVCM_ACKS(CCN_HW_DECLARE_KIND)
#undef CCN_HW_DECLARE_KIND
};

enum class CrpOpCode : std::uint8_t {
#define CCN_HW_DECLARE_KIND(name, code) name = code,
  CCN_HW_CRP_OPS(CCN_HW_DECLARE_KIND)
#undef CCN_HW_DECLARE_KIND
};

enum class CrpRetryCode : std::uint8_t {
#define CCN_HW_DECLARE_KIND(name, code) name = code,
  CCN_HW_CRP_RETRIES(CCN_HW_DECLARE_KIND)
#undef CCN_HW_DECLARE_KIND
};

#define CCN_HW_COUNT_KIND(name, code) +1
inline constexpr int kNumPacketKindCodes = 0 CCN_HW_PACKET_KINDS(CCN_HW_COUNT_KIND);
inline constexpr int kNumLhrpKindCodes = 0 CCN_HW_LHRP_KINDS(CCN_HW_COUNT_KIND);
inline constexpr int kNumMvcmAckCodes = 0 CCN_HW_MVCM_ACKS(CCN_HW_COUNT_KIND);
inline constexpr int kNumCrpOpCodes = 0 CCN_HW_CRP_OPS(CCN_HW_COUNT_KIND);
inline constexpr int kNumCrpRetryCodes = 0 CCN_HW_CRP_RETRIES(CCN_HW_COUNT_KIND);
#undef CCN_HW_COUNT_KIND
static_assert(kNumPacketKindCodes == static_cast<int>(::ccnet::kFirstMechanismKind) &&
                  kFirstMechanismKind == ::ccnet::kFirstMechanismKind,
              "hw_consts.hpp: every kernel PacketKind needs a wire code, and mechanisms' codes follow");
static_assert((1u << kPacketKindWidth) == ::ccnet::kMaxPacketKinds,
              "hw_consts.hpp: PacketKindWidth must hold exactly the kinds a network may declare");
static_assert((1u << kLhrpKindWidth) >= static_cast<unsigned>(kNumLhrpKindCodes),
              "hw_consts.hpp: LhrpKindWidth too small for the LHRP lane kinds");
static_assert((1u << kMvcmAckWidth) >= static_cast<unsigned>(kNumMvcmAckCodes),
              "hw_consts.hpp: MvcmAckWidth too small for the MVCM ACK classes");
static_assert((1u << kCrpOpWidth) >= static_cast<unsigned>(kNumCrpOpCodes) &&
                  (1u << kCrpRetryWidth) >= static_cast<unsigned>(kNumCrpRetryCodes),
              "hw_consts.hpp: CrpOpWidth / CrpRetryWidth too small");
static_assert(kMaxCreditLanes >= 1 && kMaxVcs >= 1 && kMaxPrioLevels >= 1 && kMaxPorts >= 1);

// Width of an index into `n` things as the RTL declares it ($clog2, at least one bit).
constexpr unsigned index_width(unsigned n) {
  unsigned w = 0;
  while ((1u << w) < n) ++w;
  return w == 0 ? 1u : w;
}
// Width of a count 0..n ($clog2(n + 1)).
constexpr unsigned count_width(unsigned n) { return index_width(n + 1); }

}  // namespace ccnet::hw
