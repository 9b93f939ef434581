#pragma once
// Text helpers every stage uses for option values and names.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kvz {

// Split at any of `separators`, keeping empty pieces ("a,,b" -> "a", "", "b"; "" -> one "").
std::vector<std::string_view> split(std::string_view text, std::string_view separators);
// A comma list as the CLI takes it: pieces trimmed, empty ones dropped ("4K, 64K," -> 4K, 64K).
std::vector<std::string> split_list(std::string_view text, char separator = ',');
std::string_view trim(std::string_view text);
std::string to_lower(std::string_view text);
// `text` made safe for a one-line message, and the console's one escaping of a name (report/
// terminal_view.h): control characters (a newline in a file name, ESC, DEL) become escapes like
// "\\n", "\\x1b" and "\\x7f", and C1 controls (U+0080-U+009F, UTF-8 C2 80-9F) "\\u009b".
std::string one_line(std::string_view text);
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");
// `lead` and `text`'s words joined by spaces, cut into lines of at most `width` code points
// (a longer word stands alone), continuation lines indented by three; width 0: one line.
// No trailing newline.
std::string wrap_words(std::string_view lead, std::string_view text, size_t width);
// The same without a lead: the first line starts at the first word.
std::string wrap_text(std::string_view text, size_t width);
// `text`'s words filled into lines of at most `width` code points, no indent; a longer word
// breaks after its commas (its pieces joined with no space on a line), else stands alone. An
// empty text is no line.
std::vector<std::string> fill_lines(std::string_view text, size_t width);
// The width messages on stderr wrap to: a terminal's, less one column (a full line would
// scroll), else an explicit $COLUMNS, less one; 0 (one line per message) when stderr is a file
// or a pipe that no $COLUMNS sizes: its reader greps and logs whole lines.
size_t stderr_wrap_width();
// The terminal's width (stderr), read each time so a resized window is followed; else
// $COLUMNS; 80 if neither says.
size_t terminal_columns();
// The width the console report (stdout) is laid out for: the terminal's when stdout is one, else
// an explicit $COLUMNS, else 100 (a file or a pipe); never under kMinConsoleColumns, the
// narrowest the tables can shrink to.
inline constexpr size_t kMinConsoleColumns = 60;
size_t console_columns();
// Columns `text` takes on a terminal: its UTF-8 code points (the report's characters, µ ≈ × —,
// are one column each), not its bytes.
size_t display_width(std::string_view text);
// The candidates a mistyped `name` most likely meant, for "did you mean": those at the
// smallest edit distance (insertions, deletions, substitutions and swaps of neighbours, case
// ignored) when it is small enough for a typo (1 for names of up to 4 characters, 2 up to 8, else
// 3), at most three, in the candidates' order. None when `name` is one of them as written.
std::vector<std::string> closest_names(std::string_view name, const std::vector<std::string>& candidates);
// "did you mean 'zstd'?", "did you mean 'lz4' or 'lzo'?" (the first three names); "" for none.
std::string did_you_mean(const std::vector<std::string>& names);
// The same for the candidates closest to a mistyped `name` (closest_names).
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);
// Whole-string integer parses: false on empty input, trailing bytes or overflow.
bool parse_int(std::string_view text, int& out);
bool parse_u64(std::string_view text, uint64_t& out);
// A finite double, the whole string ("1e3" yes, "nan", "inf", "1x" no).
bool parse_double(std::string_view text, double& out);

}  // namespace kvz
