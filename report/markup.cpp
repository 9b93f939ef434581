#include "report/markup.h"

#include "util/text.h"

namespace kvz {

std::string html_escape(std::string_view text) {
  std::string out;
  for (const char ch : one_line(text)) {
    const char* entity = markup_entity(ch);
    out += entity ? std::string_view(entity) : std::string_view(&ch, 1);
  }
  return out;
}

std::string markdown_escape(std::string_view text) {
  std::string out;
  for (const char ch : one_line(text)) {
    if (ch != '"') {  // a quote is plain text in Markdown
      if (const char* entity = markup_entity(ch)) {
        out += entity;
        continue;
      }
    }
    switch (ch) {
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '|':
      case '~':
      case '#':
      case '!':
      case '$':  // GitHub renders $...$ as math
        out += '\\';
        out += ch;
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string csv_escape(std::string_view text) {
  static constexpr std::string_view kFormulaStart = "=+-@\t\r";
  const bool formula = !text.empty() && kFormulaStart.find(text.front()) != std::string_view::npos;
  std::string field(formula ? 1 : 0, '\'');
  field += one_line(text);
  if (!formula && field.find_first_of(",\"") == std::string::npos) return field;
  std::string quoted = "\"";
  for (const char c : field) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

}  // namespace kvz
