#include "engine/task/ddl_statement.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "engine/filter/block_allow_list.h"
#include "engine/filter/event_filter.h"
#include "engine/filter/table_router.h"

namespace syncscope::task {

namespace {

struct Token {
    std::string text;     // upper-cased for words, verbatim (unquoted) for quoted names
    bool quoted = false;  // `name`
    bool isDot = false;
    bool isComma = false;
};

// Words, `quoted names`, dots and commas; comments and string literals are dropped.
std::vector<Token> tokenize(std::string_view sql) {
    std::vector<Token> tokens;
    size_t i = 0;
    auto isWordChar = [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '$' || c >= 0x80; };
    while (i < sql.size()) {
        unsigned char c = static_cast<unsigned char>(sql[i]);
        if (std::isspace(c)) {
            ++i;
        } else if (sql.compare(i, 2, "/*") == 0) {
            size_t end = sql.find("*/", i + 2);
            i = end == std::string_view::npos ? sql.size() : end + 2;
        } else if (sql.compare(i, 2, "--") == 0 || c == '#') {
            size_t end = sql.find('\n', i);
            i = end == std::string_view::npos ? sql.size() : end + 1;
        } else if (c == '`') {
            std::string name;
            ++i;
            while (i < sql.size()) {
                if (sql[i] == '`') {
                    if (i + 1 < sql.size() && sql[i + 1] == '`') {
                        name += '`';
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                name += sql[i++];
            }
            tokens.push_back({name, true, false, false});
        } else if (c == '\'' || c == '"') {
            char quote = static_cast<char>(c);
            ++i;
            while (i < sql.size() && sql[i] != quote) {
                i += sql[i] == '\\' ? 2 : 1;
            }
            ++i;
        } else if (c == '.') {
            tokens.push_back({".", false, true, false});
            ++i;
        } else if (c == ',') {
            tokens.push_back({",", false, false, true});
            ++i;
        } else if (isWordChar(c)) {
            size_t start = i;
            while (i < sql.size() && isWordChar(static_cast<unsigned char>(sql[i]))) {
                ++i;
            }
            std::string word(sql.substr(start, i - start));
            tokens.push_back({word, false, false, false});
        } else {
            tokens.push_back({std::string(1, static_cast<char>(c)), false, false, false});
            ++i;
        }
    }
    return tokens;
}

class TokenCursor {
public:
    explicit TokenCursor(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

    bool atEnd() const { return pos_ >= tokens_.size(); }
    // Consumes the keyword when the next token is it (unquoted, any case).
    bool accept(std::string_view keyword) {
        if (atEnd() || tokens_[pos_].quoted) {
            return false;
        }
        std::string upper = tokens_[pos_].text;
        std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char ch) { return std::toupper(ch); });
        if (upper != keyword) {
            return false;
        }
        ++pos_;
        return true;
    }
    bool acceptSequence(std::initializer_list<std::string_view> keywords) {
        size_t saved = pos_;
        for (std::string_view keyword : keywords) {
            if (!accept(keyword)) {
                pos_ = saved;
                return false;
            }
        }
        return true;
    }
    bool acceptComma() {
        if (!atEnd() && tokens_[pos_].isComma) {
            ++pos_;
            return true;
        }
        return false;
    }
    void skip(size_t n = 1) { pos_ += n; }

    // [schema.]name with the default schema applied.
    std::optional<filter::TableName> name(const std::string& defaultSchema) {
        if (atEnd() || tokens_[pos_].isDot || tokens_[pos_].isComma) {
            return std::nullopt;
        }
        std::string first = tokens_[pos_++].text;
        if (!atEnd() && tokens_[pos_].isDot && pos_ + 1 < tokens_.size()) {
            std::string second = tokens_[pos_ + 1].text;
            pos_ += 2;
            return filter::TableName{first, second};
        }
        return filter::TableName{defaultSchema, first};
    }

private:
    std::vector<Token> tokens_;
    size_t pos_ = 0;
};

void skipIfExists(TokenCursor& cursor) {
    if (!cursor.acceptSequence({"IF", "NOT", "EXISTS"})) {
        cursor.acceptSequence({"IF", "EXISTS"});
    }
}

DdlStatement tableStatement(TokenCursor& cursor, const std::string& defaultSchema, std::string eventName, bool list) {
    DdlStatement statement{std::move(eventName), {}, true};
    skipIfExists(cursor);
    do {
        if (auto table = cursor.name(defaultSchema)) {
            statement.tables.push_back(*table);
        }
    } while (list && cursor.acceptComma());
    return statement;
}

DdlStatement databaseStatement(TokenCursor& cursor, std::string eventName) {
    DdlStatement statement{std::move(eventName), {}, true};
    skipIfExists(cursor);
    if (auto name = cursor.name("")) {
        statement.tables.push_back({name->table, ""});
    }
    return statement;
}

}  // namespace

DdlStatement analyseDdl(std::string_view sql, const std::string& defaultSchema) {
    TokenCursor cursor(tokenize(sql));
    if (cursor.accept("CREATE")) {
        cursor.acceptSequence({"OR", "REPLACE"});
        cursor.accept("TEMPORARY");
        if (cursor.accept("TABLE")) {
            return tableStatement(cursor, defaultSchema, "create table", false);
        }
        if (cursor.accept("DATABASE") || cursor.accept("SCHEMA")) {
            return databaseStatement(cursor, "create database");
        }
        cursor.accept("UNIQUE") || cursor.accept("FULLTEXT") || cursor.accept("SPATIAL");
        if (cursor.accept("INDEX")) {
            skipIfExists(cursor);
            cursor.skip();  // index name
            if (cursor.accept("ON")) {
                return tableStatement(cursor, defaultSchema, "create index", false);
            }
            return {"create index", {}, true};
        }
        if (cursor.accept("VIEW")) {
            return tableStatement(cursor, defaultSchema, "create view", false);
        }
        return {};
    }
    if (cursor.accept("ALTER")) {
        cursor.accept("ONLINE");
        cursor.accept("IGNORE");
        if (cursor.accept("TABLE")) {
            return tableStatement(cursor, defaultSchema, "alter table", false);
        }
        if (cursor.accept("DATABASE") || cursor.accept("SCHEMA")) {
            return databaseStatement(cursor, "alter database");
        }
        if (cursor.accept("VIEW")) {
            return tableStatement(cursor, defaultSchema, "alter view", false);
        }
        return {};
    }
    if (cursor.accept("DROP")) {
        cursor.accept("TEMPORARY");
        if (cursor.accept("TABLE")) {
            return tableStatement(cursor, defaultSchema, "drop table", true);
        }
        if (cursor.accept("DATABASE") || cursor.accept("SCHEMA")) {
            return databaseStatement(cursor, "drop database");
        }
        if (cursor.accept("INDEX")) {
            skipIfExists(cursor);
            cursor.skip();
            if (cursor.accept("ON")) {
                return tableStatement(cursor, defaultSchema, "drop index", false);
            }
            return {"drop index", {}, true};
        }
        if (cursor.accept("VIEW")) {
            return tableStatement(cursor, defaultSchema, "drop view", true);
        }
        return {};
    }
    if (cursor.accept("RENAME") && cursor.accept("TABLE")) {
        DdlStatement statement{"rename table", {}, true};
        do {
            if (auto from = cursor.name(defaultSchema)) {
                statement.tables.push_back(*from);
            }
            if (cursor.accept("TO")) {
                if (auto to = cursor.name(defaultSchema)) {
                    statement.tables.push_back(*to);
                }
            }
        } while (cursor.acceptComma());
        return statement;
    }
    if (cursor.accept("TRUNCATE")) {
        cursor.accept("TABLE");
        return tableStatement(cursor, defaultSchema, "truncate table", false);
    }
    return {};
}

DdlPlan planDdl(const TaskSetup& setup, const std::string& defaultSchema, const std::string& sql) {
    DdlPlan plan;
    plan.sql = sql;
    plan.defaultSchema = defaultSchema;
    DdlStatement statement = analyseDdl(sql, defaultSchema);
    plan.tables = statement.tables;
    if (!statement.isDdl) {
        plan.action = DdlPlan::Action::Ignore;
        plan.reason = "not a DDL the sync unit replicates (grants, users, flush and the like)";
        return plan;
    }
    if (statement.tables.empty()) {
        plan.action = DdlPlan::Action::Error;
        plan.reason =
            "cannot tell which table this " + statement.eventName + " changes; apply it downstream by hand and skip it";
        return plan;
    }
    bool anyAllowed = false;
    for (const filter::TableName& table : statement.tables) {
        if (setup.blockAllow && !setup.blockAllow->allows(table)) {
            continue;
        }
        anyAllowed = true;
        if (setup.eventFilter && !setup.eventFilter->empty()) {
            auto decision = setup.eventFilter->decide(table, statement.eventName, sql);
            if (decision.action == filter::FilterAction::Ignore) {
                plan.action = DdlPlan::Action::Ignore;
                plan.reason = "filter rule " + decision.ruleName;
                return plan;
            }
            if (decision.action == filter::FilterAction::Error) {
                plan.action = DdlPlan::Action::Error;
                plan.reason = "filter rule " + decision.ruleName + " says Error for " + statement.eventName + " on " +
                              table.quoted();
                return plan;
            }
        }
        if (setup.router && !setup.router->empty() && !table.isSchemaOnly()) {
            filter::TableName target = setup.router->route(table);
            if (!(target == table)) {
                plan.action = DdlPlan::Action::Error;
                plan.reason = "the DDL changes " + table.quoted() + ", which is routed to " + target.quoted() +
                              "; this version does not rewrite DDL for routes: apply it downstream by hand "
                              "and skip it";
                return plan;
            }
        }
    }
    if (!anyAllowed) {
        plan.action = DdlPlan::Action::Ignore;
        plan.reason = "block-allow list";
    }
    return plan;
}

}  // namespace syncscope::task
