// String-keyed registry for pluggable parts (topologies, routing functions, traffic patterns,
// congestion-control mechanisms). Entries register themselves from their own translation unit
// with a static Registrar; the model is linked as an OBJECT library so none is dropped.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ccnet {

template <class Entry>
class Registry {
 public:
  static Registry& instance() {
    static Registry r;
    return r;
  }
  void add(const std::string& name, Entry entry) {
    if (!entries_.emplace(name, std::move(entry)).second)
      throw std::logic_error("duplicate registry entry '" + name + "'");
  }
  const Entry* find(const std::string& name) const {
    auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : &it->second;
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& kv : entries_) out.push_back(kv.first);
    return out;
  }
  const std::map<std::string, Entry>& entries() const { return entries_; }

 private:
  std::map<std::string, Entry> entries_;
};

template <class Entry>
struct Registrar {
  Registrar(const std::string& name, Entry entry) {
    Registry<Entry>::instance().add(name, std::move(entry));
  }
};

}  // namespace ccnet
