#include "engine/filter/sql_tokenizer.h"

#include <cctype>

namespace syncscope::filter {

namespace {

bool isWordByte(unsigned char c) {
    return std::isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

}  // namespace

bool SqlToken::isKeyword(std::string_view keyword) const {
    if (kind != Kind::Word || text.size() != keyword.size())
        return false;
    for (size_t i = 0; i < text.size(); ++i) {
        if (std::toupper(static_cast<unsigned char>(text[i])) != keyword[i])
            return false;
    }
    return true;
}

SqlTokenizer::SqlTokenizer(std::string_view sql, bool ansiQuotes) : sql_(sql), ansiQuotes_(ansiQuotes) {}

void SqlTokenizer::skipSpaceAndComments() {
    while (at_ < sql_.size()) {
        const char c = sql_[at_];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++at_;
        } else if (c == '#' || (c == '-' && sql_.substr(at_, 2) == "--" &&
                                (at_ + 2 >= sql_.size() || std::isspace(static_cast<unsigned char>(sql_[at_ + 2]))))) {
            const size_t newline = sql_.find('\n', at_);
            at_ = newline == std::string_view::npos ? sql_.size() : newline + 1;
        } else if (sql_.substr(at_, 3) == "/*!" || sql_.substr(at_, 4) == "/*M!") {
            // Executable comment: skip the marker and the version number, keep the content.
            at_ += sql_[at_ + 2] == 'M' ? 4 : 3;
            while (at_ < sql_.size() && std::isdigit(static_cast<unsigned char>(sql_[at_])))
                ++at_;
            ++openExecutableComments_;
        } else if (sql_.substr(at_, 2) == "/*") {
            const size_t close = sql_.find("*/", at_ + 2);
            if (close == std::string_view::npos) {
                problem_ = "unterminated comment";
                at_ = sql_.size();
            } else {
                at_ = close + 2;
            }
        } else if (openExecutableComments_ > 0 && sql_.substr(at_, 2) == "*/") {
            at_ += 2;
            --openExecutableComments_;
        } else {
            return;
        }
    }
}

SqlToken SqlTokenizer::quoted(char quote, SqlToken::Kind kind) {
    const size_t begin = at_;
    std::string text;
    ++at_;
    while (at_ < sql_.size()) {
        const char c = sql_[at_];
        if (c == quote) {
            if (at_ + 1 < sql_.size() && sql_[at_ + 1] == quote) {  // doubled quote stands for itself
                text += quote;
                at_ += 2;
                continue;
            }
            ++at_;
            return {kind, text, begin, at_};
        }
        if (c == '\\' && kind == SqlToken::Kind::String && at_ + 1 < sql_.size()) {
            text += sql_[at_ + 1];
            at_ += 2;
            continue;
        }
        text += c;
        ++at_;
    }
    problem_ = std::string("unterminated ") + (kind == SqlToken::Kind::String ? "string" : "quoted identifier");
    return {kind, text, begin, at_};
}

std::vector<SqlToken> SqlTokenizer::tokens() {
    std::vector<SqlToken> list;
    for (skipSpaceAndComments(); at_ < sql_.size() && problem_.empty(); skipSpaceAndComments()) {
        const char c = sql_[at_];
        const size_t begin = at_;
        if (c == '`') {
            list.push_back(quoted('`', SqlToken::Kind::QuotedIdentifier));
        } else if (c == '"') {
            list.push_back(quoted('"', ansiQuotes_ ? SqlToken::Kind::QuotedIdentifier : SqlToken::Kind::String));
        } else if (c == '\'') {
            list.push_back(quoted('\'', SqlToken::Kind::String));
        } else if (isWordByte(static_cast<unsigned char>(c))) {
            bool allDigits = true;
            while (at_ < sql_.size() && isWordByte(static_cast<unsigned char>(sql_[at_]))) {
                allDigits = allDigits && std::isdigit(static_cast<unsigned char>(sql_[at_]));
                ++at_;
            }
            list.push_back({allDigits ? SqlToken::Kind::Number : SqlToken::Kind::Word,
                            std::string(sql_.substr(begin, at_ - begin)), begin, at_});
        } else {
            ++at_;
            list.push_back({SqlToken::Kind::Symbol, std::string(1, c), begin, at_});
        }
    }
    return list;
}

}  // namespace syncscope::filter
