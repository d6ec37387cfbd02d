// NIC waveform registration, trace-only state and packet-watch reports (docs/tracing.md).
// Kept out of nic.cpp: the NIC calls these only when a probe or a watched packet exists.
#include <fmt/format.h>

#include <string>

#include "core/trace_sink.hpp"
#include "core/watch.hpp"
#include "nic/nic.hpp"

namespace ccnet {

void Nic::trace(TraceSink& s) {
  if (!probe_) {
    probe_ = std::make_unique<NicProbe>();
    probe_->inject_credits.assign(env_.num_vcs, 0);
  }
  NicProbe& pr = *probe_;
  // inject: NIC -> router; eject: router -> NIC. Flit counts of the window come from the
  // injection counter (the ejection channel is the router's output, counted there).
  s.flit_channel(flit_out, "inject.flit", &counters_.flits_injected);
  s.credit_channel(credit_in, "inject.credit");
  for (VcId v = 0; v < env_.num_vcs; ++v) s.value(pr.inject_credits[v], "inject.vc_" + std::to_string(v) + ".credits");
  s.flit_channel(flit_in, "eject.flit");
  s.credit_channel(credit_out, "eject.credit");
  s.value(queued_messages_, "queued_messages");
  s.value(control_queued_, "control_queued");
  s.value(data_stream_.packet, "data_stream.packet");
  s.value(retx_stream_.packet, "retx_stream.packet");
  s.value(counters_.unacked, "unacked");
  s.value(counters_.packets_injected, "packets_injected");
  s.value(counters_.packets_ejected, "packets_ejected");
  s.value(counters_.refusals_received, "refusals_received");
  s.value(counters_.retransmissions, "retransmissions");
  if (hooks_) hooks_->trace(s);
  if (policy_ != &round_robin_) policy_->trace(s);
}

void Nic::set_tracing(bool on) {
  probe_live_ = on ? probe_.get() : nullptr;
  if (probe_live_) update_probe();
}

void Nic::update_probe() {
  NicProbe& pr = *probe_live_;
  for (VcId v = 0; v < env_.num_vcs; ++v) pr.inject_credits[v] = arbiter_.credits(v);
}

// ---- packet watch ----------------------------------------------------------------------------------

void Nic::watch_injected(const Packet& p, VcId vc) {
  env_.packets.watch()->event(now_, p, name(), "injected",
                              fmt::format("vc={} waited={}", vc, p.kind == PacketKind::Data ? now_ - p.created : 0));
}

// " name=1" for each mechanism flag the packet carries (e.g. a congestion mark).
std::string Nic::mechanism_flags_text(const Packet& p) const {
  const std::uint32_t f = p.flags & env_.packets.format().mechanism_flags();
  return f ? " " + env_.packets.format().flag_names(f, "=1 ") + "=1" : std::string();
}

void Nic::watch_ejected(const Packet& p) {
  env_.packets.watch()->event(
      now_, p, name(), "ejected",
      fmt::format("latency={} network_latency={} hops={}{}", now_ - p.created,
                  p.injected == kNever ? 0 : now_ - p.injected, p.hops, mechanism_flags_text(p)));
}

}  // namespace ccnet
