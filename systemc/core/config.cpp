#include "core/config.hpp"

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

namespace ccnet::config {

std::string join_path(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

// Offset of the first byte of `s` that does not belong to a well-formed UTF-8 sequence
// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), or npos. Text from a
// config ends up in stats.json, whose writer rejects anything else.
std::size_t first_invalid_utf8(const std::string& s) {
  const auto* b = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned c = b[i];
    std::size_t len = 0;
    unsigned lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c < 0x80) len = 1;
    else if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c == 0xE0) len = 3, lo = 0xA0;
    else if (c >= 0xE1 && c <= 0xEC) len = 3;
    else if (c == 0xED) len = 3, hi = 0x9F;
    else if (c >= 0xEE && c <= 0xEF) len = 3;
    else if (c == 0xF0) len = 4, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3) len = 4;
    else if (c == 0xF4) len = 4, hi = 0x8F;
    else return i;
    if (i + len > n) return i;
    for (std::size_t k = 1; k < len; ++k) {
      const unsigned d = b[i + k];
      if (k == 1 ? (d < lo || d > hi) : (d < 0x80 || d > 0xBF)) return i;
    }
    i += len;
  }
  return std::string::npos;
}

std::string invalid_utf8_text(const std::string& s, std::size_t at) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(s[at])));
  return "not valid UTF-8 text (byte " + std::string(hex) + " at offset " + std::to_string(at) + ")";
}

std::string yaml_type_name(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Null: return "null";
    case YAML::NodeType::Scalar: return "scalar";
    case YAML::NodeType::Sequence: return "list";
    case YAML::NodeType::Map: return "map";
    default: return "undefined value";
  }
}

std::string BindContext::where(const YAML::Node& node) const {
  const YAML::Mark m = node.Mark();
  if (m.is_null() || m.line < 0) return file_;
  return file_ + ":" + std::to_string(m.line + 1);
}

std::string BindContext::where(const std::string& path) const {
  // The most specific recorded location for this path or one of its parents.
  std::string p = path;
  while (true) {
    auto it = where_.find(p);
    if (it != where_.end()) return it->second;
    const auto cut = p.find_last_of(".[");
    if (cut == std::string::npos || cut == 0) break;
    p = p.substr(0, cut);
  }
  return file_;
}

std::string BindContext::override_for(const std::string& path) const {
  std::string p = path;
  while (!p.empty()) {
    auto it = overrides_.find(p);
    if (it != overrides_.end()) return it->second;
    const auto cut = p.find_last_of(".[");
    if (cut == std::string::npos) break;
    p = p.substr(0, cut);
  }
  return {};
}

void BindContext::record(const std::string& path, const YAML::Node& node) {
  const std::string ov = override_for(path);
  where_[path] = ov.empty() ? where(node) : ov;
}

void BindContext::record_override(const std::string& path, const std::string& text) {
  overrides_[path] = text;
}

namespace {
// Keys and values quoted in a message may hold anything a file holds: control characters are
// escaped so that a message stays one readable line.
std::string printable(const std::string& s) {
  std::string out;
  for (const unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}
}  // namespace

void BindContext::fail(const YAML::Node& node, const std::string& path, const std::string& what) const {
  const std::string ov = override_for(path);
  const std::string loc = ov.empty() ? where(node) : ov;
  throw ConfigError(loc + ": " + (path.empty() ? std::string("(top level)") : printable(path)) + ": " + printable(what));
}

void BindContext::fail(const std::string& path, const std::string& what) const {
  const std::string ov = override_for(path);
  throw ConfigError((ov.empty() ? where(path) : ov) + ": " + printable(path) + ": " + printable(what));
}

void Schema::apply_defaults(void* obj) const {
  for (const auto& f : fields_) f->set_default(obj);
}

void Schema::bind(void* obj, const YAML::Node& node, BindContext& ctx, const std::string& path,
                  const std::vector<std::string>& ignored) const {
  if (node.IsNull()) return;  // an empty section keeps its defaults
  if (!node.IsMap()) ctx.fail(node, path, "expected a map of settings, got a " + yaml_type_name(node));
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = it->first.Scalar();
    const std::string sub = join_path(path, key);
    ctx.record(sub, it->first);
    bool skip = false;
    for (const auto& ig : ignored) skip = skip || ig == key;
    if (skip) continue;
    const Field* field = nullptr;
    for (const auto& f : fields_)
      if (f->key() == key) field = f.get();
    if (!field) {
      std::string known;
      for (const auto& f : fields_) known += (known.empty() ? "" : ", ") + f->key();
      for (const auto& ig : ignored) known += (known.empty() ? "" : ", ") + ig;
      ctx.fail(it->first, sub, "unknown key '" + key + "' (known keys: " + known + ")");
    }
    field->bind(obj, it->second, ctx, sub);
  }
}

Json Schema::describe() const {
  Json keys = Json::object();
  for (const auto& f : fields_) keys[f->key()] = f->describe();
  return {{"doc", doc_}, {"keys", keys}};
}

Json Schema::dump(const void* obj) const {
  Json j = Json::object();
  for (const auto& f : fields_) j[f->key()] = f->dump(obj);
  return j;
}

namespace {

void apply_override(YAML::Node root, const std::string& text, BindContext& ctx,
                    std::set<std::string>& seen) {
  const auto eq = text.find('=');
  if (const std::size_t bad = first_invalid_utf8(text); bad != std::string::npos)
    throw ConfigError(bad < eq ? "--set: the key path is " + invalid_utf8_text(text, bad)
                               : "--set " + text.substr(0, eq) + ": the value is " +
                                     invalid_utf8_text(text.substr(eq + 1), bad - eq - 1));
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set " + text + ": expected key.path=value");
  const std::string path = text.substr(0, eq);
  const std::string value = text.substr(eq + 1);
  YAML::Node parsed;
  try {
    parsed = YAML::Load(value);
  } catch (const YAML::Exception& e) {
    throw ConfigError("--set " + text + ": value is not valid YAML: " + e.msg);
  }
  if (!parsed.IsDefined() || parsed.IsNull()) parsed = YAML::Node(value);
  // Walk/create maps along the dotted path. List elements are addressed as key[i].
  std::vector<std::string> parts;
  std::stringstream ss(path);
  for (std::string part; std::getline(ss, part, '.');) {
    if (part.empty()) throw ConfigError("--set " + text + ": empty component in key path");
    parts.push_back(part);
  }
  // yaml-cpp node handles alias the tree, so we keep a chain of handles.
  YAML::Node cur = root;
  std::string sofar;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    std::string key = parts[i];
    long index = -1;
    const auto lb = key.find('[');
    if (lb != std::string::npos) {
      const auto rb = key.find(']', lb);
      if (rb == std::string::npos || rb != key.size() - 1)
        throw ConfigError("--set " + text + ": malformed index in '" + parts[i] + "'");
      try {
        index = std::stol(key.substr(lb + 1, rb - lb - 1));
      } catch (...) {
        throw ConfigError("--set " + text + ": malformed index in '" + parts[i] + "'");
      }
      key = key.substr(0, lb);
    }
    sofar = join_path(sofar, parts[i]);
    if (!cur.IsMap() && !cur.IsNull())
      throw ConfigError("--set " + text + ": '" + sofar + "' is inside a " + yaml_type_name(cur) +
                        ", not a map");
    const bool last = i + 1 == parts.size();
    if (index < 0) {
      if (last) {
        cur[key] = parsed;
      } else {
        if (!cur[key] || cur[key].IsNull()) cur[key] = YAML::Node(YAML::NodeType::Map);
        YAML::Node next = cur[key];
        cur.reset(next);
      }
    } else {
      YAML::Node seq = cur[key];
      if (!seq.IsSequence() || index >= static_cast<long>(seq.size()))
        throw ConfigError("--set " + text + ": '" + key + "' has no element " + std::to_string(index));
      if (last) {
        seq[index] = parsed;
      } else {
        YAML::Node next = seq[index];
        cur.reset(next);
      }
    }
  }
  seen.insert(path);
  (void)ctx;
}

}  // namespace

namespace {

// yaml-cpp keeps every pair of a map with a repeated key (lookups find the first, binding saw
// the last): a repeated key is a mistake whichever value was meant, so it is an error. Keys and
// values that are not UTF-8 text are errors too (stats.json echoes the configuration).
// `budget` bounds the walk: aliases can make a short document expand exponentially.
void check_keys_and_text(const YAML::Node& node, const std::string& path, const BindContext& ctx, long& budget) {
  if (--budget < 0)
    ctx.fail(node, path, "the document expands to more than 10^6 values (through aliases?); not a configuration");
  if (node.IsScalar()) {
    const std::size_t bad = first_invalid_utf8(node.Scalar());
    if (bad != std::string::npos) ctx.fail(node, path, "the value is " + invalid_utf8_text(node.Scalar(), bad));
  } else if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i)
      check_keys_and_text(node[i], path + "[" + std::to_string(i) + "]", ctx, budget);
  } else if (node.IsMap()) {
    std::map<std::string, int> lines;  // key -> line of its first occurrence
    for (auto it = node.begin(); it != node.end(); ++it) {
      const std::string key = it->first.IsScalar() ? it->first.Scalar() : std::string();
      if (!it->first.IsScalar()) ctx.fail(it->first, path, "a key must be a plain name, got a " + yaml_type_name(it->first));
      const std::size_t bad = first_invalid_utf8(key);
      if (bad != std::string::npos)
        ctx.fail(it->first, path, "a key in " + (path.empty() ? std::string("the top level") : path) + " is " +
                                      invalid_utf8_text(key, bad));
      const std::string sub = join_path(path, key);
      const auto [first, inserted] = lines.emplace(key, it->first.Mark().line + 1);
      if (!inserted)
        ctx.fail(it->first, sub, "duplicate key '" + key + "' (first given on line " + std::to_string(first->second) + ")");
      check_keys_and_text(it->second, sub, ctx, budget);
    }
  }
}

}  // namespace

YAML::Node load_document(const std::string& file, const std::vector<std::string>& overrides,
                         BindContext& ctx) {
  YAML::Node root;
  std::ifstream in(file);
  if (!in) throw ConfigError(file + ": cannot open config file");
  try {
    root = YAML::Load(in);
  } catch (const YAML::Exception& e) {
    throw ConfigError(file + (e.mark.is_null() ? "" : ":" + std::to_string(e.mark.line + 1)) + ": YAML syntax error: " + e.msg);
  }
  if (root.IsNull()) {
    ctx.set_empty_document();
    root = YAML::Node(YAML::NodeType::Map);
  }
  long budget = 1000000;
  check_keys_and_text(root, "", ctx, budget);
  if (!root.IsMap()) ctx.fail(root, "", "expected a map of sections, got a " + yaml_type_name(root));
  std::set<std::string> seen;
  for (const auto& o : overrides) {
    apply_override(root, o, ctx, seen);
    // Errors about this key now point at the override, not the file.
    const auto eq = o.find('=');
    ctx.record_override(o.substr(0, eq), "--set " + o);
  }
  return root;
}

// ---- YAML printing of the effective configuration ---------------------------------------------

namespace {
bool needs_quotes(const std::string& s) {
  if (s.empty()) return true;
  for (char c : s)
    if (c == ':' || c == '#' || c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == '"' ||
        c == '\'' || c == '\n')
      return true;
  return s == "true" || s == "false" || s == "null" || s.front() == ' ' || s.back() == ' ';
}
std::string scalar(const Json& j) {
  if (j.is_string()) {
    const auto s = j.get<std::string>();
    return needs_quotes(s) ? Json(s).dump() : s;
  }
  return j.dump();
}
void emit(std::ostringstream& os, const Json& j, int indent, bool in_list_item) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  if (j.is_object()) {
    bool first = true;
    for (auto& [k, v] : j.items()) {
      const std::string lead = (first && in_list_item) ? "" : pad;
      first = false;
      if ((v.is_object() && !v.empty()) || (v.is_array() && !v.empty())) {
        os << lead << k << ":\n";
        emit(os, v, indent + 2, false);
      } else if (v.is_object()) {
        os << lead << k << ": {}\n";
      } else if (v.is_array()) {
        os << lead << k << ": []\n";
      } else {
        os << lead << k << ": " << scalar(v) << "\n";
      }
    }
  } else if (j.is_array()) {
    bool scalars = true;
    for (const auto& v : j) scalars = scalars && !v.is_structured();
    if (scalars) {
      // Short scalar lists stay on one line: the caller printed "key:" already.
      os.seekp(-1, std::ios_base::cur);
      os << " [";
      bool first = true;
      for (const auto& v : j) {
        os << (first ? "" : ", ") << scalar(v);
        first = false;
      }
      os << "]\n";
      return;
    }
    for (const auto& v : j) {
      os << pad << "- ";
      if (v.is_structured()) emit(os, v, indent + 2, true);
      else os << scalar(v) << "\n";
    }
  } else {
    os << pad << scalar(j) << "\n";
  }
}
}  // namespace

std::string to_yaml(const Json& j) {
  std::ostringstream os;
  emit(os, j, 0, false);
  return os.str();
}

// ---- docs/config.md ----------------------------------------------------------------------------

namespace {
std::string md_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else out += c;
  }
  return out;
}
void document(std::ostringstream& os, const Schema& s, const std::string& path) {
  os << "\n### `" << (path.empty() ? "(top level)" : path) << "`\n\n";
  if (!s.doc().empty()) os << s.doc() << "\n\n";
  std::vector<std::pair<std::string, const Schema*>> nested;
  bool any_leaf = false;
  for (const auto& f : s.fields()) {
    std::vector<std::pair<std::string, const Schema*>> n;
    f->nested(n);
    if (n.empty() || f->type_text().rfind("section selected", 0) == 0) any_leaf = true;
  }
  if (any_leaf) {
    os << "| key | type | default | meaning |\n|---|---|---|---|\n";
    for (const auto& f : s.fields()) {
      std::vector<std::pair<std::string, const Schema*>> n;
      f->nested(n);
      if (!n.empty() && f->type_text().rfind("section selected", 0) != 0) continue;
      os << "| `" << f->key() << "` | " << md_escape(f->type_text()) << " | "
         << (f->default_text().empty() ? "" : "`" + md_escape(f->default_text()) + "`") << " | "
         << md_escape(f->doc()) << " |\n";
    }
  }
  for (const auto& f : s.fields()) {
    std::vector<std::pair<std::string, const Schema*>> n;
    f->nested(n);
    for (const auto& [name, sub] : n) {
      if (name == f->key() || name == f->key() + "[]") {
        document(os, *sub, join_path(path, name));
      } else {
        document(os, *sub, join_path(path, name));
      }
    }
  }
}
}  // namespace

std::string markdown_reference(const Schema& root, const std::string& title, const std::string& intro) {
  std::ostringstream os;
  os << "# " << title << "\n\n" << intro << "\n";
  document(os, root, "");
  return os.str();
}

}  // namespace ccnet::config
