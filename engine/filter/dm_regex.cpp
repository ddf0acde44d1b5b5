#include "engine/filter/dm_regex.h"

#include <re2/re2.h>

#include "engine/filter/filter_error.h"

namespace syncscope::filter {

namespace {

std::shared_ptr<const re2::RE2> compile(const std::string& pattern, bool caseSensitive) {
    re2::RE2::Options options;
    options.set_case_sensitive(caseSensitive);
    options.set_log_errors(false);
    auto compiled = std::make_shared<const re2::RE2>(pattern, options);
    if (!compiled->ok()) {
        throw FilterError("regular expression '" + pattern + "' does not compile: " + compiled->error());
    }
    return compiled;
}

}  // namespace

DmRegex::DmRegex(const std::string& pattern, bool caseSensitive)
    : pattern_(pattern), compiled_(compile(pattern, caseSensitive)) {}

bool DmRegex::search(std::string_view text) const {
    return re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *compiled_);
}

std::optional<std::string> DmRegex::firstGroup(std::string_view text) const {
    std::string group;
    if (compiled_->NumberOfCapturingGroups() < 1 ||
        !re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *compiled_, &group)) {
        return std::nullopt;
    }
    return group;
}

int DmRegex::groupCount() const {
    return compiled_->NumberOfCapturingGroups();
}

std::string DmRegex::problemWith(const std::string& pattern) {
    try {
        compile(pattern, true);
    } catch (const FilterError& error) {
        return error.what();
    }
    return {};
}

}  // namespace syncscope::filter
