// Router waveform registration, trace-only state and packet-watch reports (docs/tracing.md).
// Kept out of router.cpp: the router calls these only when a probe or a watched packet exists.
#include <algorithm>
#include <string>

#include "core/trace_sink.hpp"
#include "core/watch.hpp"
#include "router/router.hpp"

namespace ccnet {

void Router::trace(TraceSink& s) {
  const auto nports = num_ports();
  if (!probe_) {
    probe_ = std::make_unique<RouterProbe>();
    RouterProbe& pr = *probe_;
    pr.vcs = num_vcs_;
    pr.out_credits.assign(static_cast<std::size_t>(nports) * num_vcs_, 0);
    pr.out_queue.assign(static_cast<std::size_t>(nports) * num_vcs_, 0);
    pr.out_waiting.assign(nports, 0);
    pr.sa_requests.assign(nports, 0);
    pr.sa_grants.assign(nports, 0);
  }
  RouterProbe& pr = *probe_;
  // Switch inputs: the ports and the control source (bit nports); a grant vector is one word.
  const int grant_width = std::min(64, static_cast<int>(nports) + 1);
  for (PortId p = 0; p < nports; ++p) {
    if (!ports_[p].spec.connected()) continue;
    const std::string in = "in_" + std::to_string(p), out = "out_" + std::to_string(p);
    s.flit_channel(flit_in[p], in + ".flit");
    s.credit_channel(credit_out[p], in + ".credit");
    for (VcId v = 0; v < num_vcs_; ++v) s.value(inputs_[p].vcs[v].used, in + ".vc_" + std::to_string(v) + ".occupancy");
    s.flit_channel(flit_out[p], out + ".flit", &counters_.flits_out[p]);
    s.credit_channel(credit_in[p], out + ".credit");
    for (VcId v = 0; v < num_vcs_; ++v) {
      const std::string vc = out + ".vc_" + std::to_string(v);
      const std::size_t i = static_cast<std::size_t>(p) * num_vcs_ + v;
      s.value(pr.out_credits[i], vc + ".credits");
      s.value(ports_[p].owned[v], vc + ".allocated");
      if (cioq_) s.value(pr.out_queue[i], vc + ".queue");
    }
    s.value(pr.out_waiting[p], out + ".waiting");
    s.value(pr.sa_requests[p], out + ".sa_requests");
    s.value(pr.sa_grants[p], out + ".sa_grants", grant_width);
    s.value(counters_.flits_out[p], out + ".flits");
  }
  for (VcId v = 0; v < num_vcs_; ++v) s.value(inputs_.back().vcs[v].used, "ctl.vc_" + std::to_string(v) + ".occupancy");
  s.value(buffered_, "buffered");
  s.value(counters_.packets_dropped, "dropped_packets");
  if (hooks_) hooks_->trace(s);
}

void Router::set_tracing(bool on) {
  probe_live_ = on ? probe_.get() : nullptr;
  idle_ = false;  // a live probe is updated every cycle
  if (asleep_) domain_->wake(slot_);
  if (!probe_live_) return;
  sa_requests_.clear();  // from an earlier cycle: no allocation to show yet
  sa_grants_.clear();
  update_probe();
}

void Router::update_probe() {
  RouterProbe& pr = *probe_live_;
  const auto nports = num_ports();
  for (PortId p = 0; p < nports; ++p) {
    const OutputPort& out = ports_[p];
    if (!out.spec.connected()) continue;
    for (VcId v = 0; v < num_vcs_; ++v) {
      const std::size_t i = static_cast<std::size_t>(p) * num_vcs_ + v;
      pr.out_credits[i] = credits(p, v);
      if (cioq_) pr.out_queue[i] = static_cast<std::uint32_t>(out.vcs[v].queue.size());
    }
  }
  std::fill(pr.out_waiting.begin(), pr.out_waiting.end(), 0u);
  for (const std::uint32_t ref : va_list_) ++pr.out_waiting[queue_ref(ref).out_port];
  for (const std::uint32_t ref : sa_list_) ++pr.out_waiting[queue_ref(ref).out_port];
  // This cycle's switch allocation: allocate_switch() leaves its requests and grants in the
  // scratch vectors; they are cleared here so a cycle without allocation shows none.
  std::fill(pr.sa_requests.begin(), pr.sa_requests.end(), 0u);
  std::fill(pr.sa_grants.begin(), pr.sa_grants.end(), 0u);
  for (const auto& r : sa_requests_) ++pr.sa_requests[r.output];
  for (const auto& g : sa_grants_)
    if (g.input < 64) pr.sa_grants[g.output] |= 1ull << g.input;
  sa_requests_.clear();
  sa_grants_.clear();
}

// ---- packet watch ----------------------------------------------------------------------------------

void Router::watch_vc_granted(std::uint32_t ref) {
  // The queue whose head packet just got its output VC. The head's arrival is reported here
  // too, from the cycle kept in its buffer slot, so the per-flit arrival path has no watch code.
  const auto in_port = static_cast<PortId>(ref >> 16);
  const auto in_vc = static_cast<VcId>((ref & 0xffff) / queues_per_vc_);
  const Queue& q = queue_ref(ref);
  const Slot& s = inputs_[in_port].vcs[in_vc].slots[q.head];
  const Packet& p = env_.packets[s.flit.packet];
  PacketWatch& w = *env_.packets.watch();
  w.hop_arrived(name(), p, s.arrival, inputs_[in_port].internal ? kNoPort : in_port, in_vc, q.out_port,
                s.arrival + env_.config.delays.routing);
  w.hop_vc_granted(name(), p, now_, q.out_vc, q.ready);
}

void Router::watch_switch_granted(PacketId id) {
  const Packet& p = env_.packets[id];
  if (!p.has(kFlagWatched)) return;
  env_.packets.watch()->hop_switch_granted(name(), p, now_,
                                           now_ + env_.config.delays.sw_alloc + env_.config.delays.traversal);
}

void Router::watch_departed(PacketId id) {
  const Packet& p = env_.packets[id];
  if (p.has(kFlagWatched)) env_.packets.watch()->hop_departed(name(), p, now_);
}

void Router::watch_ended(const Packet& p, PortId port, VcId vc, const char* what, const char* where) {
  env_.packets.watch()->hop_ended(name(), p, now_, what,
                                  "in=" + std::to_string(port) + " in_vc=" + std::to_string(vc) + " at=" + where);
}

}  // namespace ccnet
