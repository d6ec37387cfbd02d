#include "core/network_stats.hpp"

namespace ccnet {

NetworkStats::NetworkStats(std::uint32_t nodes, std::vector<std::string> class_names, Cycle warmup, Cycle measure,
                           Cycle series_window, const PacketFormat& format)
    : nodes_(nodes), names_(std::move(class_names)), window_begin_(warmup), window_end_(warmup + measure), format_(format) {
  classes_.resize(names_.size());
  for (auto& c : classes_) {
    c.offered_flits.assign(nodes, 0);
    c.delivered_flits.assign(nodes, 0);
    c.ejected_flits.assign(nodes, 0);
    c.series.configure(series_window);
  }
  ejected_data_flits_.assign(nodes, 0);
  offered_flits_.assign(nodes, 0);
  series_.configure(series_window);
}

void NetworkStats::packet_ejected(const Packet& p, NodeId at, Cycle now) {
  ++ejected_packets_total_;
  ejected_flits_total_ += p.size;
  const bool window = in_window(now);
  if (window) {
    ejected_flits_by_kind_[static_cast<int>(p.kind)] += p.size;
    ++ejected_packets_by_kind_[static_cast<int>(p.kind)];
  }
  if (p.kind != PacketKind::Data) return;
  ejected_data_flits_total_ += p.size;
  ++ejected_data_packets_total_;
  ClassStats& c = classes_[p.traffic_class];
  const Cycle plat = now - p.created;
  const Cycle nlat = now - p.injected;
  series_.add_ejection(now, p.size, plat, nlat);
  c.series.add_ejection(now, p.size, plat, nlat);
  if (window) {
    ejected_data_flits_[at] += p.size;
    c.delivered_flits[p.src] += p.size;
    c.ejected_flits[at] += p.size;
  }
  if (p.has(kFlagMeasured)) {
    measured_outstanding_ -= p.size;
    c.packet_latency.add(plat);
    c.network_latency.add(nlat);
    for (std::uint32_t m = p.flags & format_.mechanism_flags(); m != 0; m &= m - 1) ++c.flagged[__builtin_ctz(m)];
  }
}

Json NetworkStats::latency_json() const {
  Json j;
  j["packet"] = packet_latency().to_json();
  j["network"] = network_latency().to_json();
  j["message"] = message_latency().to_json();
  return j;
}

namespace {
Json rate_summary(const std::vector<std::uint64_t>& flits, const std::vector<NodeId>* subset, Cycle cycles) {
  std::vector<double> v;
  const double c = static_cast<double>(cycles ? cycles : 1);
  if (subset) {
    for (NodeId n : *subset) v.push_back(static_cast<double>(flits[n]) / c);
  } else {
    for (auto f : flits) v.push_back(static_cast<double>(f) / c);
  }
  return Summary::of(v).to_json();
}
}  // namespace

Json NetworkStats::throughput_json() const {
  const Cycle m = window_end_ - window_begin_;
  Json j;
  j["offered"] = rate_summary(offered_flits_, nullptr, m);
  j["accepted"] = rate_summary(ejected_data_flits_, nullptr, m);
  return j;
}

Json NetworkStats::classes_json(const std::vector<std::vector<NodeId>>& class_sources,
                                const std::vector<std::vector<NodeId>>& class_destinations) const {
  const Cycle m = window_end_ - window_begin_;
  Json j = Json::object();
  for (std::size_t k = 0; k < classes_.size(); ++k) {
    const ClassStats& c = classes_[k];
    Json cj;
    cj["latency"]["packet"] = c.packet_latency.to_json();
    cj["latency"]["network"] = c.network_latency.to_json();
    cj["latency"]["message"] = c.message_latency.to_json();
    cj["throughput"]["offered"] = rate_summary(c.offered_flits, &class_sources[k], m);
    cj["throughput"]["accepted"] = rate_summary(c.delivered_flits, &class_sources[k], m);
    cj["throughput"]["ejected"] = rate_summary(c.ejected_flits, &class_destinations[k], m);
    // Measured packets delivered with each of the mechanism's flags (e.g. a congestion mark).
    Json flagged = Json::object();
    for (unsigned bit = 0; bit < format_.num_flags(); ++bit)
      if (format_.mechanism_flags() & (1u << bit)) flagged[format_.flag_name(bit)] = c.flagged[bit];
    cj["flagged_packets"] = flagged;
    cj["sources"] = class_sources[k].size();
    cj["destinations"] = class_destinations[k].size();
    j[names_[k]] = cj;
  }
  return j;
}

Json NetworkStats::protocol_json() const {
  Json j;
  Json inj = Json::object(), ej = Json::object(), ejp = Json::object();
  std::uint64_t inj_total = 0, inj_control = 0;
  for (unsigned k = 0; k < format_.num_kinds(); ++k) {
    const std::string& name = format_.kind_name(static_cast<PacketKind>(k));
    inj[name] = injected_flits_by_kind_[k];
    ej[name] = ejected_flits_by_kind_[k];
    ejp[name] = ejected_packets_by_kind_[k];
    inj_total += injected_flits_by_kind_[k];
    if (k != static_cast<unsigned>(PacketKind::Data)) inj_control += injected_flits_by_kind_[k];
  }
  j["injected_flits"] = inj;
  j["ejected_flits"] = ej;
  j["ejected_packets"] = ejp;
  j["control_flit_fraction"] = inj_total ? static_cast<double>(inj_control) / static_cast<double>(inj_total) : 0.0;
  return j;
}

Json NetworkStats::timeseries_json() const {
  Json j;
  j["all"] = series_.to_json(nodes_);
  for (std::size_t k = 0; k < classes_.size(); ++k) j["classes"][names_[k]] = classes_[k].series.to_json(nodes_);
  return j;
}

}  // namespace ccnet
