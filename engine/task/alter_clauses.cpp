#include "engine/task/alter_clauses.h"

#include <algorithm>
#include <cctype>

#include "engine/filter/name_case.h"
#include "engine/filter/sql_tokenizer.h"

namespace syncscope::task {

namespace {

using filter::SqlToken;
using Tokens = std::vector<SqlToken>;

bool sameName(std::string_view a, std::string_view b) {
    return filter::foldNameCase(a, false) == filter::foldNameCase(b, false);
}

std::string trimmed(std::string_view text) {
    size_t begin = 0;
    size_t end = text.size();
    while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) {
        ++begin;
    }
    while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) {
        --end;
    }
    return std::string(text.substr(begin, end - begin));
}

// Reads one clause's tokens [at, end) of `sql`.
class ClauseReader {
public:
    ClauseReader(std::string_view sql, const Tokens& tokens, size_t begin, size_t end)
        : sql_(sql), tokens_(tokens), at_(begin), end_(end) {}

    AlterClause read() {
        AlterClause clause;
        clause.text = trimmed(sql_.substr(tokens_[at_].begin, tokens_[end_ - 1].end - tokens_[at_].begin));
        if (accept("ADD")) {
            readAdd(clause);
        } else if (accept("DROP")) {
            readDrop(clause);
        } else if (accept("MODIFY")) {
            accept("COLUMN");
            skipIfExists();
            readColumn(clause, AlterClause::Kind::ModifyColumn);
        } else if (accept("CHANGE")) {
            accept("COLUMN");
            skipIfExists();
            if (!atName()) {
                return clause;
            }
            std::string old = tokens_[at_++].text;
            readColumn(clause, AlterClause::Kind::ModifyColumn);
            if (!sameName(old, clause.name)) {
                clause.kind = AlterClause::Kind::Other;  // a rename
            }
        }
        return clause;
    }

private:
    bool more() const { return at_ < end_; }
    bool atName() const { return more() && tokens_[at_].isName(); }
    bool at(std::string_view keyword) const { return more() && tokens_[at_].isKeyword(keyword); }
    bool accept(std::string_view keyword) {
        if (at(keyword)) {
            ++at_;
            return true;
        }
        return false;
    }
    void skipIfExists() {
        if (at("IF") && at_ + 1 < end_ && tokens_[at_ + 1].isKeyword("EXISTS")) {
            at_ += 2;
        } else if (at("IF") && at_ + 2 < end_ && tokens_[at_ + 1].isKeyword("NOT") &&
                   tokens_[at_ + 2].isKeyword("EXISTS")) {
            at_ += 3;
        }
    }

    void readAdd(AlterClause& clause) {
        if (accept("COLUMN")) {
            skipIfExists();
            readColumn(clause, AlterClause::Kind::AddColumn);
            return;
        }
        if (accept("CONSTRAINT")) {
            if (atName() && !at("UNIQUE")) {
                ++at_;  // the constraint's symbol
            }
            if (!at("UNIQUE")) {
                return;  // PRIMARY KEY, FOREIGN KEY, CHECK: Other
            }
        }
        if (accept("UNIQUE")) {
            clause.unique = true;
            accept("INDEX") || accept("KEY");
            readIndex(clause);
            return;
        }
        if (accept("FULLTEXT") || accept("SPATIAL")) {
            accept("INDEX") || accept("KEY");
            readIndex(clause);
            return;
        }
        if (accept("INDEX") || accept("KEY")) {
            readIndex(clause);
            return;
        }
        for (std::string_view other : {"PRIMARY", "FOREIGN", "CHECK", "PARTITION", "PERIOD", "SYSTEM"}) {
            if (at(other)) {
                return;
            }
        }
        skipIfExists();
        readColumn(clause, AlterClause::Kind::AddColumn);
    }

    void readDrop(AlterClause& clause) {
        if (accept("INDEX") || accept("KEY")) {
            skipIfExists();
            if (atName()) {
                clause.kind = AlterClause::Kind::DropIndex;
                clause.name = tokens_[at_].text;
            }
            return;
        }
        for (std::string_view other :
             {"PRIMARY", "FOREIGN", "CONSTRAINT", "CHECK", "PARTITION", "PERIOD", "SYSTEM", "UNIQUE"}) {
            if (at(other)) {
                return;
            }
        }
        accept("COLUMN");
        skipIfExists();
        if (atName() && at_ + 1 == end_) {
            clause.kind = AlterClause::Kind::DropColumn;
            clause.name = tokens_[at_].text;
        }
    }

    // name definition [FIRST | AFTER column]
    void readColumn(AlterClause& clause, AlterClause::Kind kind) {
        if (!atName()) {
            return;
        }
        std::string name = tokens_[at_++].text;
        if (!more()) {
            return;
        }
        size_t definitionBegin = tokens_[at_].begin;
        size_t definitionEnd = tokens_[end_ - 1].end;
        int depth = 0;
        for (size_t i = at_; i < end_; ++i) {
            const SqlToken& token = tokens_[i];
            depth += token.isSymbol('(') ? 1 : token.isSymbol(')') ? -1 : 0;
            if (depth == 0 && (token.isKeyword("FIRST") || token.isKeyword("AFTER"))) {
                definitionEnd = i > at_ ? tokens_[i - 1].end : definitionBegin;
                break;
            }
        }
        clause.kind = kind;
        clause.name = std::move(name);
        clause.definition = trimmed(sql_.substr(definitionBegin, definitionEnd - definitionBegin));
    }

    // [IF NOT EXISTS] [name] [USING type] (column[(length)] [ASC|DESC], ...)
    void readIndex(AlterClause& clause) {
        skipIfExists();
        if (atName() && !at("USING")) {
            clause.name = tokens_[at_++].text;
        }
        if (accept("USING")) {
            ++at_;
        }
        if (!more() || !tokens_[at_].isSymbol('(')) {
            return;
        }
        ++at_;
        int depth = 1;
        bool expectName = true;
        for (; more() && depth > 0; ++at_) {
            const SqlToken& token = tokens_[at_];
            if (token.isSymbol('(')) {
                ++depth;
            } else if (token.isSymbol(')')) {
                --depth;
            } else if (depth == 1 && token.isSymbol(',')) {
                expectName = true;
            } else if (depth == 1 && expectName) {
                if (!token.isName()) {
                    return;  // an expression: Other
                }
                clause.indexColumns.push_back(token.text);
                expectName = false;
            }
        }
        if (!clause.indexColumns.empty()) {
            clause.kind = AlterClause::Kind::AddIndex;
        }
    }

    std::string_view sql_;
    const Tokens& tokens_;
    size_t at_;
    size_t end_;
};

size_t skipKeywords(const Tokens& tokens, size_t at, std::initializer_list<std::string_view> keywords) {
    bool moved = true;
    while (moved && at < tokens.size()) {
        moved = false;
        for (std::string_view keyword : keywords) {
            if (tokens[at].isKeyword(keyword)) {
                ++at;
                moved = true;
                break;
            }
        }
    }
    return at;
}

// After a (possibly qualified) table name at `at`.
size_t afterTableName(const Tokens& tokens, size_t at) {
    if (at < tokens.size() && tokens[at].isName()) {
        ++at;
        if (at + 1 < tokens.size() && tokens[at].isSymbol('.') && tokens[at + 1].isName()) {
            at += 2;
        }
    }
    return at;
}

AlterClauses splitAlterTable(std::string_view sql, const Tokens& tokens) {
    AlterClauses result;
    size_t at = skipKeywords(tokens, 1, {"ONLINE", "IGNORE"});
    if (at >= tokens.size() || !tokens[at].isKeyword("TABLE")) {
        return result;
    }
    ++at;
    if (at + 1 < tokens.size() && tokens[at].isKeyword("IF") && tokens[at + 1].isKeyword("EXISTS")) {
        at += 2;
    }
    at = afterTableName(tokens, at);
    if (at < tokens.size() && tokens[at].isKeyword("NOWAIT")) {
        ++at;
    } else if (at + 1 < tokens.size() && tokens[at].isKeyword("WAIT")) {
        at += 2;
    }
    if (at >= tokens.size()) {
        return result;
    }
    result.head = trimmed(sql.substr(0, tokens[at].begin));
    int depth = 0;
    size_t begin = at;
    for (size_t i = at; i <= tokens.size(); ++i) {
        if (i == tokens.size() || (depth == 0 && tokens[i].isSymbol(','))) {
            if (i > begin) {
                result.clauses.push_back(ClauseReader(sql, tokens, begin, i).read());
            }
            begin = i + 1;
            continue;
        }
        depth += tokens[i].isSymbol('(') ? 1 : tokens[i].isSymbol(')') ? -1 : 0;
    }
    return result;
}

AlterClauses splitIndexStatement(std::string_view sql, const Tokens& tokens, bool create) {
    AlterClauses result;
    AlterClause clause;
    clause.text = trimmed(sql);
    size_t at = 1;
    if (create) {
        if (at + 1 < tokens.size() && tokens[at].isKeyword("OR") && tokens[at + 1].isKeyword("REPLACE")) {
            return result;  // may drop an index of the same name first: not weighed
        }
        if (at < tokens.size() && tokens[at].isKeyword("UNIQUE")) {
            clause.unique = true;
            ++at;
        }
        at = skipKeywords(tokens, at, {"FULLTEXT", "SPATIAL", "ONLINE", "OFFLINE"});
    }
    if (at >= tokens.size() || !tokens[at].isKeyword("INDEX")) {
        return result;
    }
    ++at;
    if (at + 2 < tokens.size() && tokens[at].isKeyword("IF") && tokens[at + 1].isKeyword("NOT") &&
        tokens[at + 2].isKeyword("EXISTS")) {
        at += 3;
    } else if (at + 1 < tokens.size() && tokens[at].isKeyword("IF") && tokens[at + 1].isKeyword("EXISTS")) {
        at += 2;
    }
    if (at >= tokens.size() || !tokens[at].isName()) {
        return result;
    }
    clause.name = tokens[at++].text;
    if (!create) {
        clause.kind = AlterClause::Kind::DropIndex;
        result.clauses.push_back(std::move(clause));
        return result;
    }
    if (at >= tokens.size() || !tokens[at].isKeyword("ON")) {
        return result;
    }
    at = afterTableName(tokens, at + 1);
    if (at >= tokens.size() || !tokens[at].isSymbol('(')) {
        return result;
    }
    bool expectName = true;
    int depth = 0;
    for (; at < tokens.size(); ++at) {
        const SqlToken& token = tokens[at];
        if (token.isSymbol('(')) {
            ++depth;
        } else if (token.isSymbol(')')) {
            if (--depth == 0) {
                break;
            }
        } else if (depth == 1 && token.isSymbol(',')) {
            expectName = true;
        } else if (depth == 1 && expectName) {
            if (!token.isName()) {
                return result;
            }
            clause.indexColumns.push_back(token.text);
            expectName = false;
        }
    }
    if (!clause.indexColumns.empty()) {
        clause.kind = AlterClause::Kind::AddIndex;
        result.clauses.push_back(std::move(clause));
    }
    return result;
}

}  // namespace

std::string AlterClauses::withOnly(const std::vector<size_t>& kept, std::string_view statement) const {
    if (head.empty()) {
        return std::string(statement);
    }
    std::string sql = head;
    for (size_t i = 0; i < kept.size(); ++i) {
        sql += (i == 0 ? " " : ", ") + clauses[kept[i]].text;
    }
    return sql;
}

AlterClauses splitAlterClauses(std::string_view sql) {
    filter::SqlTokenizer tokenizer(sql);
    Tokens tokens = tokenizer.tokens();
    if (!tokenizer.problem().empty() || tokens.size() < 3) {
        return {};
    }
    if (tokens[0].isKeyword("ALTER")) {
        return splitAlterTable(sql, tokens);
    }
    if (tokens[0].isKeyword("CREATE")) {
        return splitIndexStatement(sql, tokens, true);
    }
    if (tokens[0].isKeyword("DROP")) {
        return splitIndexStatement(sql, tokens, false);
    }
    return {};
}

}  // namespace syncscope::task
