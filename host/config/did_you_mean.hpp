// The hint an error message gives for a misspelt name: a key, a section or an enumerated value.
#pragma once
#include <string>
#include <vector>

namespace ls {

// The option fewest edits from `given` (an edit: insert, delete or replace a character, or swap
// two neighbours), if that is at most a third of the longer of the two (at least one edit);
// "" where none is that close. The first of equally close options wins.
std::string closest_name(const std::string& given, const std::vector<std::string>& options);

// " (did you mean <quote>X<quote>?)" for closest_name's X, or "" where it found none.
std::string did_you_mean(const std::string& given, const std::vector<std::string>& options,
                         const std::string& quote = "");

}  // namespace ls
