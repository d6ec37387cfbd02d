// Declarative configuration: each component declares its settings once (key, type, default,
// range, one-line doc) in a Schema next to its config struct. From that one declaration we get
// YAML binding with errors naming file, line and key path; the effective-config dump; and
// docs/config.md. Unknown keys, wrong types and out-of-range values are errors.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#include <yaml-cpp/yaml.h>

#include "core/registry.hpp"

namespace ccnet::config {

using Json = nlohmann::ordered_json;

// A configuration error, already formatted as "<where>: <key path>: <what>".
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where values came from: the file name for marks of the YAML document, and the marks of every
// bound key path so that cross-field validation can also point at a line.
class BindContext {
 public:
  explicit BindContext(std::string file) : file_(std::move(file)) {}
  std::string where(const YAML::Node& node) const;
  std::string where(const std::string& path) const;
  [[noreturn]] void fail(const YAML::Node& node, const std::string& path,
                         const std::string& what) const;
  [[noreturn]] void fail(const std::string& path, const std::string& what) const;
  void record(const std::string& path, const YAML::Node& node);
  void record_override(const std::string& path, const std::string& text);
  const std::string& file() const { return file_; }
  // The file held no settings at all (empty, or only comments): everything takes its default.
  void set_empty_document() { empty_document_ = true; }
  bool empty_document() const { return empty_document_; }

 private:
  std::string file_;
  bool empty_document_ = false;
  // The --set override that supplied this path or one of its parents ("" if none).
  std::string override_for(const std::string& path) const;
  std::map<std::string, std::string> where_;      // key path -> "file:line"
  std::map<std::string, std::string> overrides_;  // key path -> "--set a.b=c"
};

class Schema;

class Field {
 public:
  Field(std::string key, std::string doc) : key_(std::move(key)), doc_(std::move(doc)) {}
  virtual ~Field() = default;
  const std::string& key() const { return key_; }
  const std::string& doc() const { return doc_; }
  virtual void set_default(void* obj) const = 0;
  virtual void bind(void* obj, const YAML::Node& node, BindContext& ctx,
                    const std::string& path) const = 0;
  virtual Json dump(const void* obj) const = 0;
  virtual std::string type_text() const = 0;
  virtual std::string default_text() const = 0;
  // Nested schemas for documentation (sections, lists of sections, polymorphic sections).
  virtual void nested(std::vector<std::pair<std::string, const Schema*>>& /*out*/) const {}
  // Machine-readable declaration (`ccnet list --json`): kind, default, range or choices, nested
  // schemas; tools (scripts/soak, scripts/fuzz) discover keys and registered names from it.
  virtual Json describe() const = 0;

 private:
  std::string key_, doc_;
};

class Schema {
 public:
  explicit Schema(std::string doc = {}) : doc_(std::move(doc)) {}
  Schema(const Schema&) = delete;
  Schema& operator=(const Schema&) = delete;

  void apply_defaults(void* obj) const;
  // Binds a YAML map; keys not declared here (or listed in `ignored`) are errors.
  void bind(void* obj, const YAML::Node& node, BindContext& ctx, const std::string& path,
            const std::vector<std::string>& ignored = {}) const;
  Json dump(const void* obj) const;
  // {"doc": ..., "keys": {key: Field::describe()}}.
  Json describe() const;
  const std::vector<std::unique_ptr<Field>>& fields() const { return fields_; }
  const std::string& doc() const { return doc_; }
  void add(std::unique_ptr<Field> f) { fields_.push_back(std::move(f)); }

 private:
  std::string doc_;
  std::vector<std::unique_ptr<Field>> fields_;
};

std::string join_path(const std::string& path, const std::string& key);
std::string yaml_type_name(const YAML::Node& n);
// Offset of the first byte of `s` that is not part of well-formed UTF-8, or npos; and the
// phrase "not valid UTF-8 text (byte 0xNN at offset K)" for messages (never echoing the bytes).
std::size_t first_invalid_utf8(const std::string& s);
std::string invalid_utf8_text(const std::string& s, std::size_t at);

// ---- value parsing ---------------------------------------------------------------------------

template <class V>
struct Range {
  V min = std::numeric_limits<V>::lowest();
  V max = std::numeric_limits<V>::max();
  bool allow_inf = false;  // accept the string "inf" as the maximum value
};

template <class V>
std::string number_text(V v) {
  if constexpr (std::is_floating_point_v<V>) {
    if (v == std::numeric_limits<V>::infinity()) return "inf";
    // Shortest decimal text that reads back as the same value ("0", "0.1", "100", "1e-06").
    char buf[32];
    if (v == static_cast<V>(static_cast<long long>(v)) && v < static_cast<V>(1e15) && v > static_cast<V>(-1e15)) {
      std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
      return buf;
    }
    for (int prec = 1; prec <= 17; ++prec) {
      std::snprintf(buf, sizeof buf, "%.*g", prec, static_cast<double>(v));
      if (static_cast<V>(std::strtod(buf, nullptr)) == v) break;
    }
    return buf;
  } else if constexpr (std::is_same_v<V, bool>) {
    return v ? "true" : "false";
  } else {
    if (v == std::numeric_limits<V>::max() && v > 1000000000) return "inf";
    return std::to_string(v);
  }
}

template <class V>
V parse_scalar(const YAML::Node& node, BindContext& ctx, const std::string& path,
               const Range<V>& range) {
  if (!node.IsScalar()) ctx.fail(node, path, "expected a " + std::string(
      std::is_same_v<V, bool> ? "boolean" : std::is_floating_point_v<V> ? "number" : "integer") +
      ", got a " + yaml_type_name(node));
  const std::string text = node.Scalar();
  if constexpr (std::is_same_v<V, bool>) {
    bool b;
    if (!YAML::convert<bool>::decode(node, b))
      ctx.fail(node, path, "expected a boolean (true/false), got '" + text + "'");
    return b;
  } else {
    if (range.allow_inf && (text == "inf" || text == ".inf" || text == "infinity")) return range.max;
    if constexpr (std::is_floating_point_v<V>) {
      double d;
      if (!YAML::convert<double>::decode(node, d))
        ctx.fail(node, path, "expected a number, got '" + text + "'");
      // NaN compares false with everything and would pass the range check below; an infinity
      // passes it when the range is unbounded. Neither is a usable setting.
      if (!std::isfinite(d))
        ctx.fail(node, path, "expected a finite number, got '" + text + "'");
      if (d < static_cast<double>(range.min) || d > static_cast<double>(range.max))
        ctx.fail(node, path, "value " + text + " out of range [" + number_text(range.min) +
                                 ", " + number_text(range.max) + "]");
      return static_cast<V>(d);
    } else {
      // Integers: reject fractions and garbage rather than truncating.
      long double d;
      std::size_t used = 0;
      bool ok = !text.empty();
      try {
        if constexpr (std::is_unsigned_v<V>) {
          if (text[0] == '-') {  // stoull would wrap a negative value around
            d = static_cast<long double>(std::stoll(text, &used, 0));
          } else {
            d = static_cast<long double>(std::stoull(text, &used, 0));
          }
        } else {
          d = static_cast<long double>(std::stoll(text, &used, 0));
        }
        ok = ok && used == text.size();
      } catch (const std::out_of_range&) {
        d = text[0] == '-' ? -HUGE_VALL : HUGE_VALL;  // beyond 64 bits: reported as out of range below
        used = text.size();
      } catch (...) {
        ok = false;
        d = 0;
      }
      if (!ok) ctx.fail(node, path, "expected an integer, got '" + text + "'");
      if (d < static_cast<long double>(range.min) || d > static_cast<long double>(range.max))
        ctx.fail(node, path, "value " + text + " out of range [" + number_text(range.min) + ", " +
                                 number_text(range.max) + "]");
      return static_cast<V>(d);
    }
  }
}

template <class V>
Json describe_scalar(const std::string& doc, V def, const Range<V>& r) {
  Json j = {{"kind", std::is_same_v<V, bool> ? "bool" : std::is_floating_point_v<V> ? "number" : "integer"}};
  j["default"] = def;
  if constexpr (!std::is_same_v<V, bool>) {
    j["min"] = r.min;
    j["max"] = r.max;
    j["allow_inf"] = r.allow_inf;
  }
  j["doc"] = doc;
  return j;
}

template <class V>
std::string scalar_type_text(const Range<V>& r) {
  std::string t = std::is_same_v<V, bool>            ? "bool"
                  : std::is_floating_point_v<V>      ? "number"
                                                      : "integer";
  if constexpr (!std::is_same_v<V, bool>) {
    const bool has_min = r.min != std::numeric_limits<V>::lowest();
    const bool has_max = r.max != std::numeric_limits<V>::max() &&
                         !(std::is_floating_point_v<V> && r.max == std::numeric_limits<V>::infinity());
    if (has_min && has_max) t += " in [" + number_text(r.min) + ", " + number_text(r.max) + "]";
    else if (has_min) t += " >= " + number_text(r.min);
    else if (has_max) t += " <= " + number_text(r.max);
    if (r.allow_inf) t += " or inf";
  }
  return t;
}

// ---- field kinds -------------------------------------------------------------------------------

template <class T, class V>
class ScalarField : public Field {
 public:
  ScalarField(std::string key, V T::*m, V def, std::string doc, Range<V> r)
      : Field(std::move(key), std::move(doc)), m_(m), def_(def), range_(r) {}
  void set_default(void* obj) const override { static_cast<T*>(obj)->*m_ = def_; }
  void bind(void* obj, const YAML::Node& node, BindContext& ctx, const std::string& path) const override {
    static_cast<T*>(obj)->*m_ = parse_scalar<V>(node, ctx, path, range_);
  }
  Json dump(const void* obj) const override {
    const V v = static_cast<const T*>(obj)->*m_;
    if constexpr (!std::is_same_v<V, bool>)
      if (range_.allow_inf && v == range_.max) return "inf";
    return v;
  }
  std::string type_text() const override { return scalar_type_text(range_); }
  std::string default_text() const override { return number_text(def_); }
  Json describe() const override { return describe_scalar(doc(), def_, range_); }

 private:
  V T::*m_;
  V def_;
  Range<V> range_;
};

template <class T>
class StringField : public Field {
 public:
  StringField(std::string key, std::string T::*m, std::string def, std::string doc)
      : Field(std::move(key), std::move(doc)), m_(m), def_(std::move(def)) {}
  void set_default(void* obj) const override { static_cast<T*>(obj)->*m_ = def_; }
  void bind(void* obj, const YAML::Node& node, BindContext& ctx, const std::string& path) const override {
    if (!node.IsScalar()) ctx.fail(node, path, "expected a string, got a " + yaml_type_name(node));
    static_cast<T*>(obj)->*m_ = node.Scalar();
  }
  Json dump(const void* obj) const override { return static_cast<const T*>(obj)->*m_; }
  std::string type_text() const override { return "string"; }
  Json describe() const override { return {{"kind", "string"}, {"default", def_}, {"doc", doc()}}; }
  std::string default_text() const override { return def_.empty() ? "\"\"" : def_; }

 private:
  std::string T::*m_;
  std::string def_;
};

template <class T, class E>
class ChoiceField : public Field {
 public:
  ChoiceField(std::string key, E T::*m, E def, std::vector<std::pair<std::string, E>> choices,
              std::string doc)
      : Field(std::move(key), std::move(doc)), m_(m), def_(def), choices_(std::move(choices)) {}
  void set_default(void* obj) const override { static_cast<T*>(obj)->*m_ = def_; }
  void bind(void* obj, const YAML::Node& node, BindContext& ctx, const std::string& path) const override {
    if (!node.IsScalar()) ctx.fail(node, path, "expected one of " + names() + ", got a " + yaml_type_name(node));
    for (const auto& [name, value] : choices_)
      if (name == node.Scalar()) {
        static_cast<T*>(obj)->*m_ = value;
        return;
      }
    ctx.fail(node, path, "unknown value '" + node.Scalar() + "', expected one of " + names());
  }
  Json dump(const void* obj) const override { return name_of(static_cast<const T*>(obj)->*m_); }
  std::string type_text() const override { return "one of " + names(); }
  Json describe() const override {
    Json c = Json::array();
    for (const auto& ch : choices_) c.push_back(ch.first);
    return {{"kind", "choice"}, {"choices", c}, {"default", name_of(def_)}, {"doc", doc()}};
  }
  std::string default_text() const override { return name_of(def_); }

 private:
  std::string names() const {
    std::string s;
    for (const auto& c : choices_) s += (s.empty() ? "" : ", ") + c.first;
    return s;
  }
  std::string name_of(E v) const {
    for (const auto& c : choices_)
      if (c.second == v) return c.first;
    return "?";
  }
  E T::*m_;
  E def_;
  std::vector<std::pair<std::string, E>> choices_;
};

// A list of scalars, e.g. a node list. Accepts a single scalar as a one-element list.
template <class T, class V>
class ScalarListField : public Field {
 public:
  ScalarListField(std::string key, std::vector<V> T::*m, std::vector<V> def, std::string doc,
                  Range<V> r)
      : Field(std::move(key), std::move(doc)), m_(m), def_(std::move(def)), range_(r) {}
  void set_default(void* obj) const override { static_cast<T*>(obj)->*m_ = def_; }
  void bind(void* obj, const YAML::Node& node, BindContext& ctx, const std::string& path) const override {
    auto& out = static_cast<T*>(obj)->*m_;
    out.clear();
    if (node.IsScalar()) {
      out.push_back(parse_scalar<V>(node, ctx, path, range_));
      return;
    }
    if (!node.IsSequence()) ctx.fail(node, path, "expected a list, got a " + yaml_type_name(node));
    for (std::size_t i = 0; i < node.size(); ++i)
      out.push_back(parse_scalar<V>(node[i], ctx, path + "[" + std::to_string(i) + "]", range_));
  }
  Json dump(const void* obj) const override {
    Json j = Json::array();
    for (const V& v : static_cast<const T*>(obj)->*m_) j.push_back(v);
    return j;
  }
  std::string type_text() const override { return "list of " + scalar_type_text(range_); }
  Json describe() const override {
    Json j = {{"kind", "list"}, {"element", describe_scalar(std::string(), V{}, range_)}, {"doc", doc()}};
    j["element"].erase("default");
    j["element"].erase("doc");
    j["default"] = def_;
    return j;
  }
  std::string default_text() const override {
    std::string s = "[";
    for (std::size_t i = 0; i < def_.size(); ++i) s += (i ? ", " : "") + number_text(def_[i]);
    return s + "]";
  }

 private:
  std::vector<V> T::*m_;
  std::vector<V> def_;
  Range<V> range_;
};

template <class T>
class StringListField : public Field {
 public:
  StringListField(std::string key, std::vector<std::string> T::*m, std::vector<std::string> def, std::string doc)
      : Field(std::move(key), std::move(doc)), m_(m), def_(std::move(def)) {}
  void set_default(void* obj) const override { static_cast<T*>(obj)->*m_ = def_; }
  void bind(void* obj, const YAML::Node& node, BindContext& ctx, const std::string& path) const override {
    auto& out = static_cast<T*>(obj)->*m_;
    out.clear();
    if (node.IsScalar()) {
      out.push_back(node.Scalar());
      return;
    }
    if (!node.IsSequence()) ctx.fail(node, path, "expected a list of names, got a " + yaml_type_name(node));
    for (std::size_t i = 0; i < node.size(); ++i) {
      if (!node[i].IsScalar())
        ctx.fail(node[i], path + "[" + std::to_string(i) + "]", "expected a name, got a " + yaml_type_name(node[i]));
      out.push_back(node[i].Scalar());
    }
  }
  Json dump(const void* obj) const override { return static_cast<const T*>(obj)->*m_; }
  std::string type_text() const override { return "list of names"; }
  Json describe() const override { return {{"kind", "names"}, {"default", def_}, {"doc", doc()}}; }
  std::string default_text() const override {
    std::string s = "[";
    for (std::size_t i = 0; i < def_.size(); ++i) s += (i ? ", " : "") + def_[i];
    return s + "]";
  }

 private:
  std::vector<std::string> T::*m_;
  std::vector<std::string> def_;
};

// A map from names to values whose names are open-ended (e.g. per link class: the topology
// declares its classes). Declared with defaults for some names; the binder accepts any name and
// remembers which ones the configuration set, so a later check can reject names that do not
// apply and report names that have no value.
template <class V>
struct NamedValues {
  std::vector<std::pair<std::string, V>> entries;  // defaults first, then names the configuration added
  std::vector<std::string> set_by_config;          // names the file or an override set, in that order
  const V* find(const std::string& name) const {
    for (const auto& e : entries)
      if (e.first == name) return &e.second;
    return nullptr;
  }
  void set(const std::string& name, V value) {
    for (auto& e : entries)
      if (e.first == name) {
        e.second = value;
        return;
      }
    entries.emplace_back(name, value);
  }
};

template <class T, class V>
class NamedValuesField : public Field {
 public:
  NamedValuesField(std::string key, NamedValues<V> T::*m, std::vector<std::pair<std::string, V>> def, std::string doc,
                   Range<V> r)
      : Field(std::move(key), std::move(doc)), m_(m), def_(std::move(def)), range_(r) {}
  void set_default(void* obj) const override {
    auto& v = static_cast<T*>(obj)->*m_;
    v.entries = def_;
    v.set_by_config.clear();
  }
  void bind(void* obj, const YAML::Node& node, BindContext& ctx, const std::string& path) const override {
    if (node.IsNull()) return;
    if (!node.IsMap()) ctx.fail(node, path, "expected a map of name: value, got a " + yaml_type_name(node));
    auto& v = static_cast<T*>(obj)->*m_;
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string name = it->first.Scalar();
      const std::string sub = join_path(path, name);
      ctx.record(sub, it->first);
      v.set(name, parse_scalar<V>(it->second, ctx, sub, range_));
      bool seen = false;
      for (const auto& n : v.set_by_config) seen = seen || n == name;
      if (!seen) v.set_by_config.push_back(name);
    }
  }
  Json dump(const void* obj) const override {
    Json j = Json::object();
    for (const auto& [name, value] : (static_cast<const T*>(obj)->*m_).entries) j[name] = value;
    return j;
  }
  std::string type_text() const override { return "map of name to " + scalar_type_text(range_); }
  Json describe() const override {
    Json j = {{"kind", "named"}, {"element", describe_scalar(std::string(), V{}, range_)}, {"doc", doc()}};
    j["element"].erase("default");
    j["element"].erase("doc");
    Json d = Json::object();
    for (const auto& [name, value] : def_) d[name] = value;
    j["default"] = d;
    return j;
  }
  std::string default_text() const override {
    std::string s = "{";
    for (std::size_t i = 0; i < def_.size(); ++i) s += (i ? ", " : "") + def_[i].first + ": " + number_text(def_[i].second);
    return s + "}";
  }

 private:
  NamedValues<V> T::*m_;
  std::vector<std::pair<std::string, V>> def_;
  Range<V> range_;
};

template <class T, class S>
class SectionField : public Field {
 public:
  SectionField(std::string key, S T::*m, std::string doc)
      : Field(std::move(key), std::move(doc)), m_(m) {}
  void set_default(void* obj) const override { S::schema().apply_defaults(&(static_cast<T*>(obj)->*m_)); }
  void bind(void* obj, const YAML::Node& node, BindContext& ctx, const std::string& path) const override {
    S::schema().bind(&(static_cast<T*>(obj)->*m_), node, ctx, path);
  }
  Json dump(const void* obj) const override { return S::schema().dump(&(static_cast<const T*>(obj)->*m_)); }
  std::string type_text() const override { return "section"; }
  Json describe() const override {
    Json j = S::schema().describe();
    j["kind"] = "section";
    j["doc"] = doc();
    return j;
  }
  std::string default_text() const override { return ""; }
  void nested(std::vector<std::pair<std::string, const Schema*>>& out) const override {
    out.emplace_back(key(), &S::schema());
  }

 private:
  S T::*m_;
};

template <class T, class S>
class SectionListField : public Field {
 public:
  SectionListField(std::string key, std::vector<S> T::*m, std::size_t min_size, std::string doc)
      : Field(std::move(key), std::move(doc)), m_(m), min_size_(min_size) {}
  void set_default(void* obj) const override { (static_cast<T*>(obj)->*m_).clear(); }
  void bind(void* obj, const YAML::Node& node, BindContext& ctx, const std::string& path) const override {
    if (!node.IsSequence()) ctx.fail(node, path, "expected a list, got a " + yaml_type_name(node));
    if (node.size() < min_size_)
      ctx.fail(node, path, "needs at least " + std::to_string(min_size_) + " entries");
    auto& out = static_cast<T*>(obj)->*m_;
    out.clear();
    out.resize(node.size());
    for (std::size_t i = 0; i < node.size(); ++i) {
      const std::string item = path + "[" + std::to_string(i) + "]";
      ctx.record(item, node[i]);
      S::schema().apply_defaults(&out[i]);
      S::schema().bind(&out[i], node[i], ctx, item);
    }
  }
  Json dump(const void* obj) const override {
    Json j = Json::array();
    for (const S& s : static_cast<const T*>(obj)->*m_) j.push_back(S::schema().dump(&s));
    return j;
  }
  std::string type_text() const override { return "list of sections"; }
  Json describe() const override {
    Json j = S::schema().describe();
    j["kind"] = "sections";
    j["min_size"] = min_size_;
    j["doc"] = doc();
    return j;
  }
  std::string default_text() const override { return "[]"; }
  void nested(std::vector<std::pair<std::string, const Schema*>>& out) const override {
    out.emplace_back(key() + "[]", &S::schema());
  }

 private:
  std::vector<S> T::*m_;
  std::size_t min_size_;
};

// ---- polymorphic sections ----------------------------------------------------------------------
// A section whose schema is chosen by a selector key (e.g. topology.type, cc.mechanism) among
// the entries of a registry. Base is the common base class of the parameter structs.

template <class Base>
struct PolyEntry {
  std::string doc;
  const Schema* schema = nullptr;
  std::function<std::shared_ptr<Base>()> make;  // default-constructed params (defaults applied)
};

template <class Base>
struct Poly {
  std::string type;
  std::shared_ptr<Base> params;
  template <class P>
  const P& as() const { return *std::static_pointer_cast<const P>(params); }
};

template <class T, class Base>
class PolyField : public Field {
 public:
  PolyField(std::string key, Poly<Base> T::*m, std::string selector, std::string def, std::string doc)
      : Field(std::move(key), std::move(doc)), m_(m), selector_(std::move(selector)), def_(std::move(def)) {}
  void set_default(void* obj) const override { make(static_cast<T*>(obj)->*m_, def_, nullptr, nullptr, ""); }
  void bind(void* obj, const YAML::Node& node, BindContext& ctx, const std::string& path) const override {
    if (!node.IsMap()) ctx.fail(node, path, "expected a map, got a " + yaml_type_name(node));
    std::string type = def_;
    if (node[selector_]) {
      if (!node[selector_].IsScalar())
        ctx.fail(node[selector_], join_path(path, selector_), "expected a name");
      type = node[selector_].Scalar();
      ctx.record(join_path(path, selector_), node[selector_]);
    }
    auto& poly = static_cast<T*>(obj)->*m_;
    make(poly, type, &node, &ctx, path);
    registry_entry(type)->schema->bind(poly.params.get(), node, ctx, path, {selector_});
  }
  Json dump(const void* obj) const override {
    const auto& poly = static_cast<const T*>(obj)->*m_;
    Json j = Json::object();
    j[selector_] = poly.type;
    Json rest = registry_entry(poly.type)->schema->dump(poly.params.get());
    for (auto& [k, v] : rest.items()) j[k] = v;
    return j;
  }
  std::string type_text() const override { return "section selected by `" + selector_ + "`"; }
  Json describe() const override {
    Json opts = Json::object();
    for (const auto& [name, e] : Registry<PolyEntry<Base>>::instance().entries()) opts[name] = e.schema->describe();
    return {{"kind", "poly"}, {"selector", selector_}, {"default", def_}, {"options", opts}, {"doc", doc()}};
  }
  std::string default_text() const override { return selector_ + ": " + def_; }
  void nested(std::vector<std::pair<std::string, const Schema*>>& out) const override {
    for (const auto& [name, e] : Registry<PolyEntry<Base>>::instance().entries())
      out.emplace_back(key() + " (" + selector_ + ": " + name + ")", e.schema);
  }
  const std::string& selector() const { return selector_; }

 private:
  static const PolyEntry<Base>* registry_entry(const std::string& type) {
    return Registry<PolyEntry<Base>>::instance().find(type);
  }
  void make(Poly<Base>& poly, const std::string& type, const YAML::Node* node, BindContext* ctx,
            const std::string& path) const {
    const auto* e = registry_entry(type);
    if (!e) {
      std::string names;
      for (const auto& n : Registry<PolyEntry<Base>>::instance().names())
        names += (names.empty() ? "" : ", ") + n;
      const std::string what = "unknown " + selector_ + " '" + type + "', expected one of " + names;
      if (ctx) ctx->fail((*node)[selector_] ? (*node)[selector_] : *node, join_path(path, selector_), what);
      throw std::logic_error(what);
    }
    poly.type = type;
    poly.params = e->make();
    e->schema->apply_defaults(poly.params.get());
  }

  Poly<Base> T::*m_;
  std::string selector_, def_;
};

// ---- declaration helper ------------------------------------------------------------------------

template <class T>
class Declare {
 public:
  explicit Declare(Schema& s) : s_(s) {}
  // C may be T or a base class of T (members declared in a shared base).
  template <class V, class C>
  Declare& field(const char* key, V C::*m, V def, const char* doc, Range<V> r = {}) {
    static_assert(std::is_arithmetic_v<V>, "use str()/choice()/section() for non-numbers");
    static_assert(std::is_base_of_v<C, T>, "member of an unrelated class");
    V T::*mt = m;
    s_.add(std::make_unique<ScalarField<T, V>>(key, mt, def, doc, r));
    return *this;
  }
  Declare& str(const char* key, std::string T::*m, std::string def, const char* doc) {
    s_.add(std::make_unique<StringField<T>>(key, m, std::move(def), doc));
    return *this;
  }
  template <class E, class C>
  Declare& choice(const char* key, E C::*m, E def, std::vector<std::pair<std::string, E>> choices,
                  const char* doc) {
    static_assert(std::is_base_of_v<C, T>, "member of an unrelated class");
    E T::*mt = m;
    s_.add(std::make_unique<ChoiceField<T, E>>(key, mt, def, std::move(choices), doc));
    return *this;
  }
  template <class V>
  Declare& list(const char* key, std::vector<V> T::*m, std::vector<V> def, const char* doc,
                Range<V> r = {}) {
    s_.add(std::make_unique<ScalarListField<T, V>>(key, m, std::move(def), doc, r));
    return *this;
  }
  Declare& strings(const char* key, std::vector<std::string> T::*m, std::vector<std::string> def, const char* doc) {
    s_.add(std::make_unique<StringListField<T>>(key, m, std::move(def), doc));
    return *this;
  }
  template <class V>
  Declare& named(const char* key, NamedValues<V> T::*m, std::vector<std::pair<std::string, V>> def, const char* doc,
                 Range<V> r = {}) {
    s_.add(std::make_unique<NamedValuesField<T, V>>(key, m, std::move(def), doc, r));
    return *this;
  }
  template <class S>
  Declare& section(const char* key, S T::*m, const char* doc) {
    s_.add(std::make_unique<SectionField<T, S>>(key, m, doc));
    return *this;
  }
  template <class S>
  Declare& sections(const char* key, std::vector<S> T::*m, std::size_t min_size, const char* doc) {
    s_.add(std::make_unique<SectionListField<T, S>>(key, m, min_size, doc));
    return *this;
  }
  template <class Base>
  Declare& poly(const char* key, Poly<Base> T::*m, const char* selector, const char* def,
                const char* doc) {
    s_.add(std::make_unique<PolyField<T, Base>>(key, m, selector, def, doc));
    return *this;
  }

 private:
  Schema& s_;
};

// Registers a polymorphic parameter struct P (deriving from Base) under `name`.
// P must provide `static const Schema& schema()`.
template <class Base, class P>
struct PolyRegistrar {
  PolyRegistrar(const std::string& name, const std::string& doc) {
    Registry<PolyEntry<Base>>::instance().add(
        name, PolyEntry<Base>{doc, &P::schema(), [] { return std::make_shared<P>(); }});
  }
};

// ---- documents and overrides -------------------------------------------------------------------

// Loads a YAML file and applies "a.b=c" overrides (each value parsed as YAML). Errors name the
// file (and line) or the offending override.
YAML::Node load_document(const std::string& file, const std::vector<std::string>& overrides,
                         BindContext& ctx);

// Writes a JSON value as YAML (used to print the effective configuration).
std::string to_yaml(const Json& j);

// Markdown reference of a schema tree (docs/config.md).
std::string markdown_reference(const Schema& root, const std::string& title, const std::string& intro);

}  // namespace ccnet::config
