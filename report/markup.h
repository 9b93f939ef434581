#pragma once
// Names read from files, stores and the environment are data: each format's one escaping, used
// wherever that format prints one (report/README.md "Names are data"). The console's is
// util/text.h one_line; JUnit XML's is check_writers.h xml_escape; HTML's the entities below.
#include <string>
#include <string_view>

namespace kvz {

// "&amp;" for '&' and likewise '<', '>', '"'; null for any other character. The HTML report and
// the JUnit XML write these as entities.
inline const char* markup_entity(char c) {
  switch (c) {
    case '&':
      return "&amp;";
    case '<':
      return "&lt;";
    case '>':
      return "&gt;";
    case '"':
      return "&quot;";
    default:
      return nullptr;
  }
}

// `text` as HTML text or an attribute value: control characters as escapes (one_line), & < > "
// as entities.
std::string html_escape(std::string_view text);

// `text` as one line of literal text in Markdown (GitHub Flavored; a table cell too): control
// characters as escapes (one_line), Markdown's punctuation and `|` backslash-escaped, & < > as
// entities. So no name breaks a table row, starts a line, opens a link (`[x](javascript:...)`)
// or passes an HTML tag.
std::string markdown_escape(std::string_view text);

// `text` as one CSV field (RFC 4180): control characters as escapes (one_line); a field that a
// spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return; OWASP's
// "CSV Injection") gets a leading ' and quotes; a field with a comma, a quote or that ' is
// quoted, its quotes doubled.
std::string csv_escape(std::string_view text);

}  // namespace kvz
