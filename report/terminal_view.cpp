#include "report/terminal_view.h"

#include <map>
#include <string>

#include "results/results.h"
#include "util/text.h"

namespace kvz {

namespace {

void escape(std::string& s) { s = one_line(s); }

void escape(std::map<std::string, std::string>& m) {
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : m) out.emplace(one_line(key), one_line(value));
  m = std::move(out);
}

void escape(RunMeta& m) {
  for (std::string* s : {&m.kvzbench_version, &m.git_revision, &m.compiler, &m.build_type, &m.cxx_flags, &m.cpu_model,
                         &m.cpu_flags, &m.timer, &m.started_at, &m.hostname, &m.command_line, &m.profile})
    escape(*s);
  escape(m.store_versions);
  escape(m.extra);
  for (auto& v : m.codec_versions)
    for (std::string* s : {&v.codec, &v.library, &v.version}) escape(*s);
  for (auto& c : m.corpora)
    for (std::string* s : {&c.name, &c.path, &c.sha256, &c.detail, &c.table, &c.host}) escape(*s);
}

void escape(CellResult& c) {
  CellKey& k = c.key;
  for (std::string* s : {&k.source, &k.record_mode, &k.layout, &k.codec, &k.params, &k.cache, &k.profile, &k.host,
                         &k.cpu, &c.failure, &c.dict_method})
    escape(*s);
  if (c.store_file_parts.empty()) return;
  std::map<std::string, uint64_t> parts;
  for (const auto& [name, bytes] : c.store_file_parts) parts.emplace(one_line(name), bytes);
  c.store_file_parts = std::move(parts);
}

}  // namespace

RunResults terminal_view(const RunResults& run) {
  RunResults view = run;
  escape(view.meta);
  for (auto& c : view.cells) escape(c);
  return view;
}

}  // namespace kvz
