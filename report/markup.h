#pragma once
// The characters the HTML report and the JUnit XML write as entities (markup_entity), one table.
namespace kvz {

// "&amp;" for '&' and likewise '<', '>', '"'; null for any other character.
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

}  // namespace kvz
