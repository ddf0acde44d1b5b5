#include "engine/task/replayed_ddl_judge.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <regex>

#include <spdlog/spdlog.h>

#include "engine/common/server_errors.h"
#include "engine/filter/ddl_classifier.h"
#include "engine/filter/sql_tokenizer.h"

namespace syncscope::task {

namespace {

using filter::ClassifiedStatement;
using filter::DdlClassifier;
using filter::SqlToken;
using filter::StatementKind;
using filter::TableRole;

// What an ALTER TABLE (or CREATE/DROP INDEX) adds by name, and the statement with IF EXISTS after each
// DROP of a column or index, so that it runs on a table that lacks them. Clauses it does not know
// (ADD of several columns in parentheses, partitions, ...) make it unusable (known = false).
struct AlterElements {
    bool known = true;
    std::vector<std::string> addedColumns;
    std::vector<std::string> addedIndexes;
    std::vector<std::string> droppedColumns;
    std::string dropsIfExist;  // the SQL with "IF EXISTS" after every DROP [COLUMN|INDEX|KEY] that lacks it
};

bool isIndexWord(const SqlToken& token) {
    return token.isKeyword("INDEX") || token.isKeyword("KEY");
}

AlterElements alterElements(const std::string& sql, const ClassifiedStatement& statement) {
    AlterElements elements;
    filter::SqlTokenizer tokenizer(sql);
    std::vector<SqlToken> tokens = tokenizer.tokens();
    if (!tokenizer.problem().empty() || statement.tables.empty()) {
        elements.known = false;
        return elements;
    }
    std::vector<size_t> insertIfExistsAt;  // byte offsets
    auto nameAt = [&](size_t i) -> std::optional<std::string> {
        if (i < tokens.size() && tokens[i].isName()) {
            return tokens[i].text;
        }
        return std::nullopt;
    };
    auto skipIf = [&](size_t i, bool notExists) {
        // "IF [NOT] EXISTS" at i: the index after it
        if (i < tokens.size() && tokens[i].isKeyword("IF")) {
            return i + (notExists ? 3 : 2);
        }
        return i;
    };
    if (statement.kind == StatementKind::CreateIndex) {
        // CREATE [UNIQUE|FULLTEXT|SPATIAL] INDEX [IF NOT EXISTS] name ON t (...)
        for (size_t i = 0; i < tokens.size(); ++i) {
            if (tokens[i].isKeyword("INDEX")) {
                if (auto name = nameAt(skipIf(i + 1, true))) {
                    elements.addedIndexes.push_back(*name);
                    elements.dropsIfExist = sql;
                    return elements;
                }
            }
        }
        elements.known = false;
        return elements;
    }
    if (statement.kind == StatementKind::DropIndex) {
        for (size_t i = 0; i < tokens.size(); ++i) {
            if (tokens[i].isKeyword("INDEX")) {
                elements.dropsIfExist = sql;
                if (i + 1 < tokens.size() && !tokens[i + 1].isKeyword("IF")) {
                    elements.dropsIfExist.insert(tokens[i].end, " IF EXISTS");
                }
                return elements;
            }
        }
        elements.known = false;
        return elements;
    }
    // ALTER TABLE t clause, clause, ...: clauses start after the table name and after top-level commas.
    size_t tableEnd = statement.tables.front().end;
    int depth = 0;
    bool clauseStart = false;
    for (size_t i = 0; i < tokens.size(); ++i) {
        const SqlToken& token = tokens[i];
        if (token.begin < tableEnd) {
            continue;
        }
        if (token.begin >= tableEnd && !clauseStart && i > 0 && tokens[i - 1].end <= tableEnd) {
            clauseStart = true;
        }
        if (token.isSymbol('(')) {
            ++depth;
        } else if (token.isSymbol(')')) {
            --depth;
        }
        if (depth != 0) {
            clauseStart = false;
            continue;
        }
        if (token.isSymbol(',')) {
            clauseStart = true;
            continue;
        }
        if (!clauseStart) {
            continue;
        }
        clauseStart = false;
        if (token.isKeyword("ADD")) {
            size_t next = i + 1;
            if (next < tokens.size() && tokens[next].isKeyword("COLUMN")) {
                ++next;
            } else if (next < tokens.size() &&
                       (isIndexWord(tokens[next]) || tokens[next].isKeyword("UNIQUE") ||
                        tokens[next].isKeyword("FULLTEXT") || tokens[next].isKeyword("SPATIAL"))) {
                ++next;
                if (next < tokens.size() && isIndexWord(tokens[next])) {
                    ++next;
                }
                if (auto name = nameAt(skipIf(next, true)); name && !tokens[skipIf(next, true)].isSymbol('(')) {
                    elements.addedIndexes.push_back(*name);
                    continue;
                }
                elements.known = false;  // an unnamed index: the server names it
                continue;
            } else if (next < tokens.size() &&
                       (tokens[next].isKeyword("PRIMARY") || tokens[next].isKeyword("CONSTRAINT") ||
                        tokens[next].isKeyword("FOREIGN") || tokens[next].isKeyword("PARTITION") ||
                        tokens[next].isKeyword("CHECK") || tokens[next].isSymbol('('))) {
                elements.known = false;
                continue;
            }
            if (auto name = nameAt(skipIf(next, true))) {
                elements.addedColumns.push_back(*name);
            } else {
                elements.known = false;
            }
        } else if (token.isKeyword("DROP")) {
            size_t next = i + 1;
            if (next < tokens.size() && (tokens[next].isKeyword("COLUMN") || isIndexWord(tokens[next]))) {
                ++next;
            } else if (next < tokens.size() &&
                       (tokens[next].isKeyword("PRIMARY") || tokens[next].isKeyword("FOREIGN") ||
                        tokens[next].isKeyword("CONSTRAINT") || tokens[next].isKeyword("PARTITION") ||
                        tokens[next].isKeyword("CHECK"))) {
                elements.known = false;
                continue;
            }
            bool column = !isIndexWord(tokens[next - 1]);
            if (next < tokens.size() && !tokens[next].isKeyword("IF")) {
                insertIfExistsAt.push_back(tokens[next - 1].end);
            }
            if (auto name = nameAt(skipIf(next, false)); name && column) {
                elements.droppedColumns.push_back(*name);
            }
        } else if (!(token.isKeyword("MODIFY") || token.isKeyword("CHANGE") || token.isKeyword("ALTER") ||
                     token.isKeyword("RENAME") || token.isKeyword("ENGINE") || token.isKeyword("COMMENT") ||
                     token.isKeyword("DEFAULT") || token.isKeyword("CHARACTER") || token.isKeyword("CONVERT") ||
                     token.isKeyword("ALGORITHM") || token.isKeyword("LOCK") || token.isKeyword("FORCE"))) {
            elements.known = false;
        }
    }
    elements.dropsIfExist = sql;
    for (auto it = insertIfExistsAt.rbegin(); it != insertIfExistsAt.rend(); ++it) {
        elements.dropsIfExist.insert(*it, " IF EXISTS");
    }
    return elements;
}

// A CREATE TABLE statement with `from` named `to` instead.
std::string renamedIn(const std::string& create, const TableName& from, const TableName& to) {
    ClassifiedStatement classified = DdlClassifier::classify(create, from.schema);
    return DdlClassifier::rewriteTables(create, classified,
                                        [&](const TableName& name) { return name == from ? to : name; });
}

bool alreadyAppliedFamily(int code) {
    using namespace server_error;
    return code == kDuplicateColumn || code == kDuplicateKeyName || code == kCannotDropField;
}

// A definition on one line, for messages: SHOW CREATE TABLE's line breaks and indents as single spaces.
std::string oneLine(const std::string& definition) {
    if (definition.empty()) {
        return "(no such table)";
    }
    static const std::regex breaks("\\s*\\n\\s*");
    return std::regex_replace(definition, breaks, " ");
}

}  // namespace

ReplayedDdlJudge::ReplayedDdlJudge(sql::Connection& control, std::string probePrefix)
    : control_(control), probePrefix_(std::move(probePrefix)) {}

ReplayedDdlJudge::~ReplayedDdlJudge() {
    std::string left = dropProbes();
    if (!left.empty()) {
        spdlog::warn("replayed DDL judge: {}", left);
    }
}

std::string ReplayedDdlJudge::probePrefixFor(const std::string& taskName, const std::string& sourceId) {
    constexpr uint32_t kFnvOffset = 2166136261U;
    constexpr uint32_t kFnvPrime = 16777619U;
    uint32_t hash = kFnvOffset;
    for (char c : taskName + "/" + sourceId) {
        hash = (hash ^ static_cast<uint8_t>(c)) * kFnvPrime;
    }
    char hex[9];
    std::snprintf(hex, sizeof hex, "%08x", hash);
    return std::string("_syncscope_replay_") + hex;
}

namespace {

// The databases named `prefix`_N on the server, N a number.
std::vector<std::string> probeDatabasesUnder(sql::Connection& control, const std::string& prefix) {
    std::unique_ptr<sql::PreparedStatement> statement(control.prepareStatement(
        "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ? ORDER BY SCHEMA_NAME"));
    std::string pattern;
    for (char c : prefix + "_") {
        if (c == '_' || c == '%' || c == '\\') {
            pattern += '\\';
        }
        pattern += c;
    }
    statement->setString(1, pattern + "%");
    std::unique_ptr<sql::ResultSet> result(statement->executeQuery());
    std::vector<std::string> names;
    while (result->next()) {
        std::string name = result->getString(1);
        if (name.rfind(prefix + "_", 0) != 0) {
            continue;
        }
        std::string number = name.substr(prefix.size() + 1);
        if (!number.empty() && number.find_first_not_of("0123456789") == std::string::npos) {
            names.push_back(std::move(name));
        }
    }
    return names;
}

}  // namespace

std::vector<std::string> ReplayedDdlJudge::dropLeftProbes(sql::Connection& control, const std::string& probePrefix) {
    std::vector<std::string> names = probeDatabasesUnder(control, probePrefix);
    for (const std::string& name : names) {
        std::unique_ptr<sql::Statement> statement(control.createStatement());
        statement->execute("DROP DATABASE IF EXISTS " + TableName::quote(name));
    }
    return names;
}

std::string ReplayedDdlJudge::dropProbes() {
    std::vector<std::string> probes = probeDatabases_;
    try {
        // Also any probe under this prefix the list does not hold (a judge that ended without its
        // destructor, in a run that was killed).
        for (std::string& name : probeDatabasesUnder(control_, probePrefix_)) {
            if (std::find(probes.begin(), probes.end(), name) == probes.end()) {
                probes.push_back(std::move(name));
            }
        }
    } catch (const sql::SQLException&) {
        // The list made here is dropped all the same; a failure to list shows in the drops below.
    }
    std::string left;
    for (const std::string& probe : probes) {
        std::string error;
        try {
            if (run("", "DROP DATABASE IF EXISTS " + TableName::quote(probe), &error) != 0) {
                left += (left.empty() ? "" : "; ") + ("probe database `" + probe + "` was not dropped: " + error);
            }
        } catch (const sql::SQLException& e) {
            left += (left.empty() ? "" : "; ") + ("probe database `" + probe + "` was not dropped: " + e.what());
        }
    }
    probeDatabases_.clear();
    tracked_.clear();
    return left;
}

int ReplayedDdlJudge::run(const std::string& schema, const std::string& sql, std::string* error) {
    try {
        std::unique_ptr<sql::Statement> statement(control_.createStatement());
        if (!schema.empty()) {
            statement->execute("USE " + TableName::quote(schema));
        }
        statement->execute(sql);
        return 0;
    } catch (const sql::SQLException& e) {
        if (connectionLost(e)) {
            throw;  // not a verdict on the definitions: the session retries, and judges again
        }
        if (error != nullptr) {
            *error = e.what();
        }
        return e.getErrorCode() != 0 ? e.getErrorCode() : -1;
    }
}

bool ReplayedDdlJudge::connectionLost(const sql::SQLException& e) {
    return e.getErrorCode() == server_error::kServerGone || e.getErrorCode() == server_error::kServerLost;
}

std::optional<std::string> ReplayedDdlJudge::showCreate(const TableName& table) {
    try {
        std::unique_ptr<sql::Statement> statement(control_.createStatement());
        std::unique_ptr<sql::ResultSet> result(statement->executeQuery("SHOW CREATE TABLE " + table.quoted()));
        if (!result->next()) {
            return std::nullopt;
        }
        return std::string(result->getString(2));
    } catch (const sql::SQLException& e) {
        if (e.getErrorCode() == server_error::kNoSuchTable || e.getErrorCode() == server_error::kUnknownTable) {
            return std::nullopt;
        }
        throw;
    }
}

std::optional<std::string> ReplayedDdlJudge::definitionOf(const TableName& table, const std::string& ownSchema) {
    std::optional<std::string> shown = showCreate(table);
    if (!shown) {
        return std::nullopt;
    }
    std::string text = std::move(*shown);
    // "CREATE TABLE `name` (" -> "CREATE TABLE (": a probe has another name.
    if (size_t open = text.find(" ("); open != std::string::npos) {
        text = "CREATE TABLE" + text.substr(open);
    }
    static const std::regex autoIncrement(" AUTO_INCREMENT=[0-9]+");
    text = std::regex_replace(text, autoIncrement, "");
    // A probe lives in its own database: references to the table's database are written qualified there.
    std::string qualified = "REFERENCES " + TableName::quote(ownSchema) + ".";
    for (size_t at = text.find(qualified); at != std::string::npos; at = text.find(qualified, at)) {
        text.replace(at, qualified.size(), "REFERENCES ");
    }
    return text;
}

std::optional<std::string> ReplayedDdlJudge::downstreamDefinition(const TableName& table) {
    return definitionOf(table, table.schema);
}

std::string ReplayedDdlJudge::trackedDefinition(const TableName& table) {
    auto found = tracked_.find(table);
    if (found == tracked_.end()) {
        return {};
    }
    return definitionOf(found->second, table.schema).value_or("");
}

TableName ReplayedDdlJudge::newProbe(const std::string& schema) {
    // One probe database per probe table: a foreign key's constraint name is unique per database, and
    // a table may have several probes at once (its tracked definition and a proof).
    auto charset = charsets_.find(schema);
    if (charset == charsets_.end()) {
        std::pair<std::string, std::string> found{"utf8mb4", "utf8mb4_general_ci"};
        std::unique_ptr<sql::PreparedStatement> statement(control_.prepareStatement(
            "SELECT DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE "
            "SCHEMA_NAME = ?"));
        statement->setString(1, schema);
        std::unique_ptr<sql::ResultSet> result(statement->executeQuery());
        if (result->next()) {
            found = {result->getString(1), result->getString(2)};
        }
        charset = charsets_.emplace(schema, std::move(found)).first;
    }
    std::string probe = probePrefix_ + "_" + std::to_string(probeDatabases_.size() + 1);
    std::string error;
    run("", "DROP DATABASE IF EXISTS " + TableName::quote(probe));
    if (run("",
            "CREATE DATABASE " + TableName::quote(probe) + " CHARACTER SET " + charset->second.first + " COLLATE " +
                charset->second.second,
            &error) != 0) {
        throw std::runtime_error("cannot create the probe database `" + probe + "`: " + error);
    }
    probeDatabases_.push_back(probe);
    return TableName{probe, "t"};
}

std::string ReplayedDdlJudge::onProbe(const DdlPlan& plan, const TableName& table, const TableName& probe) const {
    ClassifiedStatement statement = DdlClassifier::classify(plan.sql, plan.defaultSchema);
    return DdlClassifier::rewriteTables(plan.sql, statement, [&](const TableName& name) {
        if (name == table) {
            return probe;
        }
        if (auto tracked = tracked_.find(name); tracked != tracked_.end()) {
            for (const auto& reference : statement.tables) {
                if (reference.name == name && reference.role == TableRole::CopiedFrom) {
                    return tracked->second;  // CREATE ... LIKE a table the window created or changed
                }
            }
        }
        return name;
    });
}

std::string ReplayedDdlJudge::createStatementAs(const TableName& probe, const TableName& table) {
    std::optional<std::string> create = showCreate(probe);
    return create ? renamedIn(*create, probe, table) : std::string();
}

bool ReplayedDdlJudge::trackFrom(const TableName& table, const std::string& createStatement, std::string& error) {
    TableName probe;
    try {
        probe = newProbe(table.schema);
        if (run(table.schema, renamedIn(createStatement, table, probe), &error) != 0) {
            return false;
        }
    } catch (const std::exception& e) {
        error = e.what();  // a lost connection: the DDLs are then judged without it, and run on a live one
        return false;
    }
    tracked_[table] = probe;
    return true;
}

std::optional<TableName> ReplayedDdlJudge::copyOfDownstream(const TableName& table, std::string& error) {
    std::optional<std::string> create;
    try {
        create = showCreate(table);
    } catch (const sql::SQLException& e) {
        if (connectionLost(e)) {
            throw;
        }
        error = e.what();
        return std::nullopt;
    }
    if (!create) {
        error = "it is not downstream";
        return std::nullopt;
    }
    TableName probe = newProbe(table.schema);
    if (run(table.schema, renamedIn(*create, table, probe), &error) != 0) {
        return std::nullopt;
    }
    return probe;
}

// Whether information_schema's `view` has a row for the table's `element` (named in `nameColumn`); the
// names are bound, never pasted into the SQL.
bool ReplayedDdlJudge::listedIn(const char* view, const char* nameColumn, const TableName& table,
                                const std::string& element) {
    std::unique_ptr<sql::PreparedStatement> statement(
        control_.prepareStatement(std::string("SELECT 1 FROM information_schema.") + view +
                                  " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND " + nameColumn + " = ? LIMIT 1"));
    statement->setString(1, table.schema);
    statement->setString(2, table.table);
    statement->setString(3, element);
    std::unique_ptr<sql::ResultSet> result(statement->executeQuery());
    return result->next();
}

ReplayVerdict ReplayedDdlJudge::defer(const TableName& table, const DdlPlan& plan, const std::string& where,
                                      const std::string& downstream, const std::string& expected,
                                      const std::string& why) {
    open_.try_emplace(table, Conflict{plan.sql, where, downstream, expected});
    return {ReplayVerdict::Kind::Deferred, why};
}

void ReplayedDdlJudge::settle(const TableName& table) {
    open_.erase(table);
}

void ReplayedDdlJudge::rowsUnfit(const TableName& table, const std::vector<std::string>& absentColumns,
                                 const std::string& where) {
    UnfitRows& rows = unfitRows_[table];
    if (rows.where.empty()) {
        rows.where = where;
    }
    rows.tableAbsent = rows.tableAbsent || absentColumns.empty();
    for (const std::string& column : absentColumns) {
        if (std::find(rows.columns.begin(), rows.columns.end(), column) == rows.columns.end()) {
            rows.columns.push_back(column);
        }
    }
}

ReplayVerdict ReplayedDdlJudge::judge(const DdlPlan& plan, const std::string& where) {
    ClassifiedStatement statement = DdlClassifier::classify(plan.sql, plan.defaultSchema);
    std::vector<TableName> changed = statement.tablesIn(TableRole::Changed);
    // Rows fitted to the downstream earlier in the window are explained by a DDL that drops or renames
    // their table, or drops their columns.
    if (statement.kind == StatementKind::DropTable || statement.kind == StatementKind::RenameTable) {
        for (const TableName& table : changed) {
            unfitRows_.erase(table);
        }
    } else if (statement.kind == StatementKind::AlterTable && changed.size() == 1) {
        if (auto rows = unfitRows_.find(changed.front()); rows != unfitRows_.end()) {
            for (const std::string& column : alterElements(plan.sql, statement).droppedColumns) {
                std::erase(rows->second.columns, column);
            }
            if (!rows->second.tableAbsent && rows->second.columns.empty()) {
                unfitRows_.erase(rows);
            }
        }
    }
    try {
        switch (statement.kind) {
            case StatementKind::CreateDatabase:
            case StatementKind::DropDatabase: {
                if (changed.empty()) {
                    break;
                }
                std::unique_ptr<sql::Statement> query(control_.createStatement());
                std::unique_ptr<sql::ResultSet> result(
                    query->executeQuery("SHOW DATABASES LIKE '" + changed.front().schema + "'"));
                bool exists = result->next();
                bool create = statement.kind == StatementKind::CreateDatabase;
                if (exists == create) {
                    return {
                        ReplayVerdict::Kind::AlreadyApplied,
                        "database `" + changed.front().schema + (create ? "` exists" : "` is gone") + " downstream"};
                }
                break;
            }
            case StatementKind::CreateTable:
                return judgeCreateTable(plan, where);
            case StatementKind::AlterTable:
            case StatementKind::CreateIndex:
            case StatementKind::DropIndex:
                if (changed.size() != 1 || !statement.tablesIn(TableRole::RenamedTo).empty()) {
                    break;  // ALTER ... RENAME and the like: run as outside a window
                }
                return judgeAlter(plan, where, changed.front());
            case StatementKind::DropTable:
                return judgeDropTables(changed);
            case StatementKind::TruncateTable:
                if (changed.size() == 1 && !downstreamDefinition(changed.front())) {
                    return defer(changed.front(), plan, where, "", trackedDefinition(changed.front()),
                                 "the table is not downstream; a later DDL of the replayed window must drop or "
                                 "rename it");
                }
                return {ReplayVerdict::Kind::Apply,
                        "TRUNCATE runs again: the table's later rows are replayed after it"};
            case StatementKind::RenameTable:
                return judgeRename(plan, where, changed, statement.tablesIn(TableRole::RenamedTo));
            default:
                break;
        }
    } catch (const sql::SQLException& e) {
        if (connectionLost(e)) {
            throw;
        }
        return {ReplayVerdict::Kind::Apply, std::string("it could not be judged (") + e.what() + ")"};
    } catch (const std::exception& e) {
        return {ReplayVerdict::Kind::Apply, std::string("it could not be judged (") + e.what() + ")"};
    }
    return {ReplayVerdict::Kind::Apply, "it runs as outside a replay"};
}

ReplayVerdict ReplayedDdlJudge::judgeCreateTable(const DdlPlan& plan, const std::string& where) {
    ClassifiedStatement statement = DdlClassifier::classify(plan.sql, plan.defaultSchema);
    TableName table = statement.tablesIn(TableRole::Changed).front();
    TableName probe = newProbe(table.schema);
    std::string error;
    if (run(plan.defaultSchema, onProbe(plan, table, probe), &error) != 0) {
        return {ReplayVerdict::Kind::Apply, "its definition could not be made on a probe (" + error + ")"};
    }
    tracked_[table] = probe;
    std::string expected = definitionOf(probe, table.schema).value_or("");
    std::optional<std::string> downstream = downstreamDefinition(table);
    if (!downstream) {
        settle(table);
        recreated_.push_back(table);
        ReplayVerdict verdict{ReplayVerdict::Kind::Apply, "`" + table.text() + "` is not downstream", {}};
        for (const TableName& source : statement.tablesIn(TableRole::CopiedFrom)) {
            if (tracked_.count(source) != 0) {
                verdict.sqlToRun = createStatementAs(probe, table);
            }
        }
        return verdict;
    }
    if (*downstream == expected) {
        settle(table);
        return {ReplayVerdict::Kind::AlreadyApplied,
                "`" + table.text() + "` exists downstream with the definition this CREATE gives"};
    }
    return defer(table, plan, where, *downstream, expected,
                 "`" + table.text() +
                     "` exists downstream with another definition; a later DDL of the replayed window may explain it");
}

ReplayVerdict ReplayedDdlJudge::judgeAlter(const DdlPlan& plan, const std::string& where, const TableName& table) {
    std::optional<std::string> downstream = downstreamDefinition(table);
    auto tracked = tracked_.find(table);
    if (tracked == tracked_.end()) {
        if (!downstream) {
            return defer(table, plan, where, "", "",
                         "the table is not downstream; a later DDL of the replayed window must drop or rename it");
        }
        return judgeAlterWithoutTracking(plan, where, table, *downstream);
    }
    TableName probe = tracked->second;
    std::string before = definitionOf(probe, table.schema).value_or("");
    std::string error;
    if (run(plan.defaultSchema, onProbe(plan, table, probe), &error) != 0) {
        // The tracked definition does not take a DDL the upstream ran: it is not to be trusted.
        tracked_.erase(table);
        if (!downstream) {
            return {ReplayVerdict::Kind::Apply, "it could not be judged (" + error + ")"};
        }
        return judgeAlterWithoutTracking(plan, where, table, *downstream);
    }
    std::string after = definitionOf(probe, table.schema).value_or("");
    if (downstream && *downstream == after) {
        settle(table);
        return {ReplayVerdict::Kind::AlreadyApplied,
                "`" + table.text() + "` downstream already has the definition after this DDL"};
    }
    if (downstream && *downstream == before) {
        settle(table);
        return {ReplayVerdict::Kind::Apply, "`" + table.text() + "` downstream has the definition before this DDL"};
    }
    return defer(table, plan, where, downstream.value_or(""), after,
                 "`" + table.text() +
                     "` downstream has neither the definition before nor after this DDL; a later DDL of the "
                     "replayed window may explain it");
}

ReplayVerdict ReplayedDdlJudge::judgeAlterWithoutTracking(const DdlPlan& plan, const std::string& where,
                                                          const TableName& table, const std::string& downstream) {
    std::string error;
    std::optional<TableName> probe = copyOfDownstream(table, error);
    if (!probe) {
        return {ReplayVerdict::Kind::Apply, "the downstream table could not be copied to a probe (" + error + ")"};
    }
    int code = run(plan.defaultSchema, onProbe(plan, table, *probe), &error);
    if (code == 0) {
        tracked_[table] = *probe;
        if (definitionOf(*probe, table.schema).value_or("") == downstream) {
            return {ReplayVerdict::Kind::AlreadyApplied,
                    "run on a copy of `" + table.text() + "` it changes nothing: the downstream has its effect"};
        }
        return {ReplayVerdict::Kind::Apply, "`" + table.text() + "` downstream lacks its effect"};
    }
    if (!alreadyAppliedFamily(code)) {
        return {ReplayVerdict::Kind::Apply, "it does not run on a copy of the downstream table (" + error + ")"};
    }
    // The downstream already has what it adds (or lacks what it drops). The proof: a copy without the
    // columns and indexes it adds, given the DDL (its drops as DROP IF EXISTS), must equal the downstream.
    ClassifiedStatement statement = DdlClassifier::classify(plan.sql, plan.defaultSchema);
    AlterElements elements = alterElements(plan.sql, statement);
    if (!elements.known) {
        return defer(
            table, plan, where, downstream, "",
            "its error [" + std::to_string(code) + "] says it may have run, but its clauses cannot be checked");
    }
    std::optional<TableName> proof = copyOfDownstream(table, error);
    if (!proof) {
        return {ReplayVerdict::Kind::Apply, "the downstream table could not be copied to a probe (" + error + ")"};
    }
    std::string evidence;
    for (const std::string& column : elements.addedColumns) {
        if (listedIn("COLUMNS", "COLUMN_NAME", *proof, column)) {
            run(proof->schema, "ALTER TABLE " + proof->quoted() + " DROP COLUMN " + TableName::quote(column));
            evidence += (evidence.empty() ? "" : ", ") + ("column `" + column + "` already there");
        }
    }
    for (const std::string& index : elements.addedIndexes) {
        if (listedIn("STATISTICS", "INDEX_NAME", *proof, index)) {
            run(proof->schema, "ALTER TABLE " + proof->quoted() + " DROP INDEX " + TableName::quote(index));
            evidence += (evidence.empty() ? "" : ", ") + ("index `" + index + "` already there");
        }
    }
    DdlPlan idempotent = plan;
    idempotent.sql = elements.dropsIfExist;
    if (run(plan.defaultSchema, onProbe(idempotent, table, *proof), &error) != 0) {
        return defer(table, plan, where, downstream, "",
                     "it does not run on a copy of the downstream table without what it adds (" + error + ")");
    }
    std::string expected = definitionOf(*proof, table.schema).value_or("");
    if (expected == downstream) {
        tracked_[table] = *proof;
        if (evidence.empty()) {
            evidence = "what it drops is already gone";
        }
        return {ReplayVerdict::Kind::AlreadyApplied, evidence + ", with the definition this DDL gives"};
    }
    return defer(table, plan, where, downstream, expected,
                 "what it adds is downstream with another definition; a later DDL of the replayed window may "
                 "explain it");
}

ReplayVerdict ReplayedDdlJudge::judgeDropTables(const std::vector<TableName>& tables) {
    bool anyThere = false;
    for (const TableName& table : tables) {
        anyThere = anyThere || downstreamDefinition(table).has_value();
        tracked_.erase(table);
        settle(table);  // a table missing for an earlier DDL of the window: dropped by this one
    }
    if (!anyThere) {
        return {ReplayVerdict::Kind::AlreadyApplied, "the table is already gone downstream"};
    }
    return {ReplayVerdict::Kind::Apply, "the table is still downstream"};
}

ReplayVerdict ReplayedDdlJudge::judgeRename(const DdlPlan& plan, const std::string& where,
                                            const std::vector<TableName>& from, const std::vector<TableName>& to) {
    if (from.size() != to.size() || from.empty()) {
        return {ReplayVerdict::Kind::Apply, "it runs as outside a replay"};
    }
    size_t done = 0;
    size_t todo = 0;
    for (size_t i = 0; i < from.size(); ++i) {
        bool fromThere = downstreamDefinition(from[i]).has_value();
        std::optional<std::string> toThere = downstreamDefinition(to[i]);
        bool recreated = std::find(recreated_.begin(), recreated_.end(), from[i]) != recreated_.end();
        if (fromThere && toThere && recreated && trackedDefinition(from[i]) == *toThere) {
            // This replay made `from` again (it had been renamed away before); the rename was done then.
            std::string error;
            if (run(from[i].schema, "DROP TABLE " + from[i].quoted(), &error) != 0) {
                return {ReplayVerdict::Kind::Apply,
                        "the table this replay made again could not be dropped (" + error + ")"};
            }
            std::erase(recreated_, from[i]);
            settle(from[i]);
            spdlog::info("replayed RENAME: `{}` made again by this replay was dropped: `{}` already has its definition",
                         from[i].text(), to[i].text());
            ++done;
        } else if (!fromThere && toThere) {
            std::string tracked = trackedDefinition(from[i]);
            if (!tracked.empty() && tracked != *toThere) {
                return defer(
                    to[i], plan, where, *toThere, tracked,
                    "`" + to[i].text() + "` is downstream with another definition than `" + from[i].text() + "` had");
            }
            ++done;
        } else if (fromThere && !toThere) {
            ++todo;
        }
    }
    for (size_t i = 0; i < from.size(); ++i) {
        if (auto tracked = tracked_.find(from[i]); tracked != tracked_.end()) {
            tracked_[to[i]] = tracked->second;
            tracked_.erase(tracked);
        }
        if (auto open = open_.find(from[i]); open != open_.end()) {
            if (open->second.downstreamDefinition.empty()) {
                open_.erase(open);  // missing for an earlier DDL: renamed away by this one
            }
        }
    }
    if (done == from.size()) {
        return {ReplayVerdict::Kind::AlreadyApplied, "the rename is already done downstream"};
    }
    if (todo == from.size()) {
        return {ReplayVerdict::Kind::Apply, "the tables still have their old names downstream"};
    }
    return defer(from.front(), plan, where, "", "", "the tables of the rename are neither all renamed nor all not");
}

std::vector<std::string> ReplayedDdlJudge::conflicts() const {
    std::vector<std::string> texts;
    for (const auto& [table, rows] : unfitRows_) {
        std::string what =
            rows.tableAbsent ? "`" + table.text() + "` is not downstream" : "`" + table.text() + "` downstream lacks";
        if (!rows.tableAbsent) {
            for (const std::string& column : rows.columns) {
                what += (column == rows.columns.front() ? " column `" : ", `") + column + "`";
            }
        }
        texts.push_back("rows of `" + table.text() + "` replayed from " + rows.where + " were not applied in full: " +
                        what + ", and no DDL of the replayed window drops or renames it");
    }
    for (const auto& [table, conflict] : open_) {
        texts.push_back(
            "the DDL at " + conflict.where + " (" + conflict.ddl + ") does not match the downstream: `" + table.text() +
            "` downstream is " + oneLine(conflict.downstreamDefinition) + "; the replayed history gives " +
            (conflict.expectedDefinition.empty() ? std::string("(unknown)") : oneLine(conflict.expectedDefinition)));
    }
    return texts;
}

}  // namespace syncscope::task
