// Splits the SQL text of a QUERY event into words, quoted identifiers, strings, numbers and symbols,
// with byte offsets, so that DDL can be classified (and its table names rewritten) without a full SQL
// parser. Comments are dropped, except MySQL's executable comments (/*!40005 ... */ and MariaDB's
// /*M!100100 ... */), whose content the server ran and which therefore count as SQL.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace syncscope::filter {

struct SqlToken {
    enum class Kind { Word, QuotedIdentifier, String, Number, Symbol };

    Kind kind;
    std::string text;  // a word as written; an identifier or string with its quotes removed and unescaped
    size_t begin;      // byte offsets of the token in the SQL, quotes included
    size_t end;

    // A word equal to `keyword`, ignoring case (keyword given in upper case).
    bool isKeyword(std::string_view keyword) const;
    bool isSymbol(char symbol) const { return kind == Kind::Symbol && text.size() == 1 && text[0] == symbol; }
    // A word or a quoted identifier: something that can name a schema or a table.
    bool isName() const { return kind == Kind::Word || kind == Kind::QuotedIdentifier; }
};

class SqlTokenizer {
public:
    // ansiQuotes: the statement ran with sql_mode ANSI_QUOTES, so "x" is an identifier, not a string.
    explicit SqlTokenizer(std::string_view sql, bool ansiQuotes = false);

    std::vector<SqlToken> tokens();
    // Why tokenizing stopped early ("unterminated string" ...), "" when the whole text was read.
    const std::string& problem() const { return problem_; }

private:
    void skipSpaceAndComments();
    SqlToken quoted(char quote, SqlToken::Kind kind);

    std::string_view sql_;
    bool ansiQuotes_;
    size_t at_ = 0;
    int openExecutableComments_ = 0;
    std::string problem_;
};

}  // namespace syncscope::filter
