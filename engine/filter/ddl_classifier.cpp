#include "engine/filter/ddl_classifier.h"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <vector>

#include "engine/filter/sql_tokenizer.h"

namespace syncscope::filter {

namespace {

// How much of an unknown statement to quote in a note.
constexpr size_t kQuotedWords = 3;

// Walks the tokens of one statement. Every helper leaves `at` on the first token it did not use.
class StatementReader {
public:
    StatementReader(std::vector<SqlToken> tokens, std::string_view defaultDatabase)
        : tokens_(std::move(tokens)), defaultDatabase_(defaultDatabase) {}

    bool atEnd() const { return at_ >= tokens_.size() || tokens_[at_].isSymbol(';'); }
    const SqlToken* peek(size_t ahead = 0) const {
        return at_ + ahead < tokens_.size() ? &tokens_[at_ + ahead] : nullptr;
    }
    bool keywordAt(size_t ahead, std::string_view keyword) const {
        const SqlToken* token = peek(ahead);
        return token != nullptr && token->isKeyword(keyword);
    }
    // Consumes the keyword when it is next.
    bool accept(std::string_view keyword) {
        if (!keywordAt(0, keyword))
            return false;
        ++at_;
        return true;
    }
    bool acceptSequence(std::initializer_list<std::string_view> keywords) {
        size_t ahead = 0;
        for (auto keyword : keywords) {
            if (!keywordAt(ahead++, keyword))
                return false;
        }
        at_ += keywords.size();
        return true;
    }
    bool acceptSymbol(char symbol) {
        if (peek() == nullptr || !peek()->isSymbol(symbol))
            return false;
        ++at_;
        return true;
    }
    void skip(size_t count = 1) { at_ = std::min(at_ + count, tokens_.size()); }

    // DEFINER = user@host (as `u`@`h`, 'u'@'h', u@h or CURRENT_USER[()]).
    void skipDefiner() {
        if (!keywordAt(0, "DEFINER") || peek(1) == nullptr || !peek(1)->isSymbol('='))
            return;
        skip(2);
        skip();  // user
        if (acceptSymbol('('))
            acceptSymbol(')');
        if (acceptSymbol('@'))
            skip();  // host
    }

    // A possibly qualified name; nullopt (and a note) when the next tokens are not one.
    std::optional<TableReference> tableName(TableRole role, std::string& note) {
        const SqlToken* first = peek();
        if (first == nullptr || !first->isName()) {
            note = "expected a table name" + (first ? " at '" + first->text + "'" : std::string(" at the end"));
            return std::nullopt;
        }
        TableReference reference;
        reference.role = role;
        reference.begin = first->begin;
        reference.end = first->end;
        skip();
        if (peek() != nullptr && peek()->isSymbol('.') && peek(1) != nullptr && peek(1)->isName()) {
            reference.name = {first->text, peek(1)->text};
            reference.end = peek(1)->end;
            skip(2);
        } else {
            reference.name = {std::string(defaultDatabase_), first->text};
            if (defaultDatabase_.empty()) {
                note = "table " + TableName::quote(first->text) +
                       " is named without a database and the statement ran with no default database";
                return std::nullopt;
            }
        }
        return reference;
    }

    // A schema name (CREATE DATABASE x); the default database when `optional` and none is written.
    std::optional<TableReference> schemaName(bool optional, std::string& note) {
        const SqlToken* token = peek();
        static const std::vector<std::string_view> kOptionWords = {"DEFAULT", "CHARACTER", "CHARSET",
                                                                   "COLLATE", "COMMENT",   "UPGRADE"};
        const bool isOption = token != nullptr && std::any_of(kOptionWords.begin(), kOptionWords.end(),
                                                              [&](auto word) { return token->isKeyword(word); });
        if (token == nullptr || !token->isName() || isOption) {
            if (optional && !defaultDatabase_.empty()) {
                return TableReference{{std::string(defaultDatabase_), ""}, TableRole::Changed, 0, 0};
            }
            note = "expected a database name";
            return std::nullopt;
        }
        skip();
        return TableReference{{token->text, ""}, TableRole::Changed, token->begin, token->end};
    }

    // Every `REFERENCES tbl` from here to the end: foreign key parents.
    bool collectReferences(std::vector<TableReference>& tables, std::string& note) {
        while (!atEnd()) {
            if (accept("REFERENCES")) {
                auto reference = tableName(TableRole::Referenced, note);
                if (!reference)
                    return false;
                tables.push_back(*reference);
            } else {
                skip();
            }
        }
        return true;
    }

    // Words from the start of the statement, for notes.
    std::string opening() const {
        std::string text;
        for (size_t i = 0; i < tokens_.size() && i < kQuotedWords; ++i)
            text += (i ? " " : "") + tokens_[i].text;
        return text;
    }

    size_t position() const { return at_; }
    void rewind(size_t position) { at_ = position; }

private:
    std::vector<SqlToken> tokens_;
    std::string_view defaultDatabase_;
    size_t at_ = 0;
};

ClassifiedStatement make(StatementKind kind, std::string event = {}, std::string note = {}) {
    ClassifiedStatement statement;
    statement.kind = kind;
    statement.filterEvent = std::move(event);
    statement.note = std::move(note);
    return statement;
}

ClassifiedStatement unclassified(const std::string& note) {
    return make(StatementKind::Unclassified, {}, note);
}

// A statement with one Changed name (and whatever follows it) read by `readName`.
template <typename ReadRest>
ClassifiedStatement withTable(StatementReader& reader, StatementKind kind, const char* event, ReadRest readRest) {
    ClassifiedStatement statement = make(kind, event);
    std::string note;
    auto reference = reader.tableName(TableRole::Changed, note);
    if (!reference)
        return unclassified(std::string(event) + ": " + note);
    statement.tables.push_back(*reference);
    if (!readRest(statement, note))
        return unclassified(std::string(event) + ": " + note);
    return statement;
}

// Statements DM never replicates (its built-in skip list), after CREATE/ALTER/DROP and their modifiers.
std::optional<std::string> notReplicatedObject(StatementReader& reader) {
    static const std::vector<std::pair<std::string_view, std::string_view>> kObjects = {
        {"VIEW", "views"},
        {"TRIGGER", "triggers"},
        {"PROCEDURE", "stored procedures"},
        {"FUNCTION", "functions"},
        {"EVENT", "scheduled events"},
        {"TABLESPACE", "tablespaces"},
        {"USER", "accounts"},
        {"ROLE", "roles"},
        {"SERVER", "federated servers"},
        {"LOGFILE", "logfile groups"},
        {"PACKAGE", "stored packages"}};
    for (const auto& [word, what] : kObjects) {
        if (reader.keywordAt(0, word))
            return "DM does not replicate " + std::string(what);
    }
    return std::nullopt;
}

// View and routine modifiers that come before the object word: DEFINER = x, ALGORITHM = y, SQL SECURITY z.
void skipObjectModifiers(StatementReader& reader) {
    static const std::vector<std::string_view> kModifiers = {"ALGORITHM", "AGGREGATE",   "SQL",           "SECURITY",
                                                             "DEFINER",   "INVOKER",     "UNDEFINED",     "MERGE",
                                                             "TEMPTABLE", "EDITIONABLE", "NONEDITIONABLE"};
    for (;;) {
        if (reader.keywordAt(0, "DEFINER") && reader.peek(1) != nullptr && reader.peek(1)->isSymbol('=')) {
            reader.skipDefiner();
            continue;
        }
        if (reader.peek() != nullptr && reader.peek()->isSymbol('=')) {
            reader.skip(2);
            continue;
        }
        const bool consumed =
            std::any_of(kModifiers.begin(), kModifiers.end(), [&](auto word) { return reader.accept(word); });
        if (!consumed)
            return;
    }
}

// DROP or ALTER SEQUENCE [IF EXISTS] name: named, and refused as unsupported.
ClassifiedStatement sequenceStatement(StatementReader& reader) {
    reader.acceptSequence({"IF", "EXISTS"});
    ClassifiedStatement statement =
        withTable(reader, StatementKind::Unsupported, "", [](ClassifiedStatement&, std::string&) { return true; });
    statement.note = "sequences are not replicated by this version";
    return statement;
}

ClassifiedStatement classifyCreate(StatementReader& reader) {
    reader.acceptSequence({"OR", "REPLACE"});
    if (reader.accept("DATABASE") || reader.accept("SCHEMA")) {
        reader.acceptSequence({"IF", "NOT", "EXISTS"});
        ClassifiedStatement statement = make(StatementKind::CreateDatabase, "create database");
        std::string note;
        auto schema = reader.schemaName(false, note);
        if (!schema)
            return unclassified("create database: " + note);
        statement.tables.push_back(*schema);
        return statement;
    }
    skipObjectModifiers(reader);
    if (auto why = notReplicatedObject(reader))
        return make(StatementKind::NotReplicated, {}, *why);
    if (reader.accept("TEMPORARY")) {
        return make(StatementKind::NotReplicated, {},
                    "temporary tables live in one session; in ROW format their rows are not logged either");
    }
    if (reader.accept("TABLE")) {
        reader.acceptSequence({"IF", "NOT", "EXISTS"});
        return withTable(reader, StatementKind::CreateTable, "create table",
                         [&](ClassifiedStatement& s, std::string& note) {
                             const size_t start = reader.position();
                             reader.acceptSymbol('(');
                             if (reader.accept("LIKE")) {
                                 auto source = reader.tableName(TableRole::CopiedFrom, note);
                                 if (!source)
                                     return false;
                                 s.tables.push_back(*source);
                                 return true;
                             }
                             reader.rewind(start);
                             return reader.collectReferences(s.tables, note);
                         });
    }
    reader.accept("ONLINE") || reader.accept("OFFLINE");
    reader.accept("UNIQUE") || reader.accept("FULLTEXT") || reader.accept("SPATIAL");
    if (reader.accept("INDEX") || reader.accept("KEY")) {
        reader.acceptSequence({"IF", "NOT", "EXISTS"});
        reader.skip();  // the index name
        while (!reader.atEnd() && !reader.keywordAt(0, "ON"))
            reader.skip();  // USING BTREE
        if (!reader.accept("ON"))
            return unclassified("create index: no ON <table>");
        return withTable(reader, StatementKind::CreateIndex, "create index",
                         [](ClassifiedStatement&, std::string&) { return true; });
    }
    if (reader.accept("SEQUENCE")) {
        reader.acceptSequence({"IF", "NOT", "EXISTS"});
        ClassifiedStatement statement =
            withTable(reader, StatementKind::Unsupported, "", [](ClassifiedStatement&, std::string&) { return true; });
        statement.note = "sequences are not replicated by this version";
        return statement;
    }
    return unclassified("'" + reader.opening() + "' is not a statement this engine knows how to replicate");
}

ClassifiedStatement classifyDrop(StatementReader& reader) {
    if (reader.accept("DATABASE") || reader.accept("SCHEMA")) {
        reader.acceptSequence({"IF", "EXISTS"});
        ClassifiedStatement statement = make(StatementKind::DropDatabase, "drop database");
        std::string note;
        auto schema = reader.schemaName(false, note);
        if (!schema)
            return unclassified("drop database: " + note);
        statement.tables.push_back(*schema);
        return statement;
    }
    if (auto why = notReplicatedObject(reader))
        return make(StatementKind::NotReplicated, {}, *why);
    if (reader.keywordAt(0, "TEMPORARY")) {
        return make(StatementKind::NotReplicated, {}, "DM does not replicate temporary tables");
    }
    if (reader.accept("TABLE") || reader.accept("TABLES")) {
        reader.acceptSequence({"IF", "EXISTS"});
        ClassifiedStatement statement = make(StatementKind::DropTable, "drop table");
        std::string note;
        do {
            auto table = reader.tableName(TableRole::Changed, note);
            if (!table)
                return unclassified("drop table: " + note);
            statement.tables.push_back(*table);
        } while (reader.acceptSymbol(','));
        return statement;
    }
    reader.accept("ONLINE") || reader.accept("OFFLINE");
    if (reader.accept("INDEX") || reader.accept("KEY")) {
        reader.acceptSequence({"IF", "EXISTS"});
        reader.skip();  // the index name
        if (!reader.accept("ON"))
            return unclassified("drop index: no ON <table>");
        return withTable(reader, StatementKind::DropIndex, "drop index",
                         [](ClassifiedStatement&, std::string&) { return true; });
    }
    if (reader.accept("SEQUENCE")) {
        return sequenceStatement(reader);
    }
    return unclassified("'" + reader.opening() + "' is not a statement this engine knows how to replicate");
}

ClassifiedStatement classifyAlter(StatementReader& reader) {
    if (reader.accept("DATABASE") || reader.accept("SCHEMA")) {
        ClassifiedStatement statement = make(StatementKind::AlterDatabase, "alter database");
        std::string note;
        auto schema = reader.schemaName(true, note);
        if (!schema)
            return unclassified("alter database: " + note);
        statement.tables.push_back(*schema);
        return statement;
    }
    reader.accept("ONLINE");
    reader.accept("IGNORE");
    if (reader.accept("TABLE")) {
        reader.acceptSequence({"IF", "EXISTS"});
        return withTable(reader, StatementKind::AlterTable, "alter table",
                         [&](ClassifiedStatement& s, std::string& note) {
                             while (!reader.atEnd()) {
                                 if (reader.accept("REFERENCES")) {
                                     auto parent = reader.tableName(TableRole::Referenced, note);
                                     if (!parent)
                                         return false;
                                     s.tables.push_back(*parent);
                                 } else if (reader.acceptSequence({"WITH", "TABLE"})) {
                                     // EXCHANGE PARTITION p WITH TABLE t2 changes t2's rows as well.
                                     auto exchanged = reader.tableName(TableRole::Changed, note);
                                     if (!exchanged)
                                         return false;
                                     s.tables.push_back(*exchanged);
                                 } else if (reader.accept("RENAME")) {
                                     // RENAME COLUMN / INDEX / KEY rename parts of the table, not the table itself.
                                     if (reader.keywordAt(0, "COLUMN") || reader.keywordAt(0, "INDEX") ||
                                         reader.keywordAt(0, "KEY")) {
                                         continue;
                                     }
                                     reader.accept("TO") || reader.accept("AS");
                                     auto renamed = reader.tableName(TableRole::RenamedTo, note);
                                     if (!renamed)
                                         return false;
                                     s.tables.push_back(*renamed);
                                 } else {
                                     reader.skip();
                                 }
                             }
                             return true;
                         });
    }
    skipObjectModifiers(reader);
    if (auto why = notReplicatedObject(reader))
        return make(StatementKind::NotReplicated, {}, *why);
    if (reader.accept("SEQUENCE")) {
        return sequenceStatement(reader);
    }
    return unclassified("'" + reader.opening() + "' is not a statement this engine knows how to replicate");
}

ClassifiedStatement classifyRename(StatementReader& reader) {
    if (reader.keywordAt(0, "USER"))
        return make(StatementKind::NotReplicated, {}, "DM does not replicate accounts");
    if (!reader.accept("TABLE") && !reader.accept("TABLES")) {
        return unclassified("'" + reader.opening() + "' is not a statement this engine knows how to replicate");
    }
    reader.acceptSequence({"IF", "EXISTS"});
    ClassifiedStatement statement = make(StatementKind::RenameTable, "rename table");
    std::string note;
    do {
        auto from = reader.tableName(TableRole::Changed, note);
        if (!from)
            return unclassified("rename table: " + note);
        // MariaDB's lock wait option sits between the old name and TO.
        if (reader.accept("WAIT")) {
            reader.skip();
        } else {
            reader.accept("NOWAIT");
        }
        if (!reader.accept("TO"))
            return unclassified("rename table: expected TO after " + from->name.quoted());
        auto to = reader.tableName(TableRole::RenamedTo, note);
        if (!to)
            return unclassified("rename table: " + note);
        statement.tables.push_back(*from);
        statement.tables.push_back(*to);
    } while (reader.acceptSymbol(','));
    return statement;
}

}  // namespace

ClassifiedStatement DdlClassifier::classify(std::string_view sql, std::string_view defaultDatabase, bool ansiQuotes) {
    // MariaDB writes "# Dummy event ..." QUERY events as placeholders; DM skips "^#" as well.
    const size_t first = sql.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && sql[first] == '#') {
        return make(StatementKind::NotReplicated, {}, "a comment-only placeholder event");
    }
    SqlTokenizer tokenizer(sql, ansiQuotes);
    std::vector<SqlToken> tokens = tokenizer.tokens();
    if (!tokenizer.problem().empty())
        return unclassified("cannot read the statement: " + tokenizer.problem());
    if (tokens.empty())
        return make(StatementKind::NotReplicated, {}, "an empty statement (comments only)");
    StatementReader reader(std::move(tokens), defaultDatabase);

    if (reader.accept("BEGIN") || reader.accept("COMMIT") || reader.accept("XA") ||
        reader.acceptSequence({"START", "TRANSACTION"}) || reader.accept("ROLLBACK")) {
        return make(StatementKind::TransactionControl);
    }
    if (reader.accept("SAVEPOINT") || reader.acceptSequence({"RELEASE", "SAVEPOINT"})) {
        return make(StatementKind::NotReplicated, {}, "savepoints mark nothing downstream");
    }
    if (reader.accept("FLUSH"))
        return make(StatementKind::NotReplicated, {}, "DM does not replicate FLUSH");
    if (reader.accept("GRANT") || reader.accept("REVOKE") || reader.acceptSequence({"SET", "PASSWORD"}) ||
        reader.acceptSequence({"SET", "DEFAULT", "ROLE"})) {
        return make(StatementKind::NotReplicated, {}, "DM does not replicate accounts and privileges");
    }
    if (reader.accept("INSTALL") || reader.accept("UNINSTALL")) {
        return make(StatementKind::NotReplicated, {}, "DM does not replicate plugins");
    }
    for (std::string_view maintenance : {"OPTIMIZE", "ANALYZE", "REPAIR", "CHECK"}) {
        if (reader.keywordAt(0, maintenance)) {
            return make(StatementKind::NotReplicated, {}, "DM does not replicate table maintenance");
        }
    }
    for (std::string_view dml : {"INSERT", "UPDATE", "DELETE", "REPLACE", "LOAD", "CALL", "DO"}) {
        if (reader.keywordAt(0, dml)) {
            return make(StatementKind::StatementDml, {},
                        "a data change logged as SQL text: the upstream must log in ROW format (binlog_format=ROW)");
        }
    }
    if (reader.accept("CREATE"))
        return classifyCreate(reader);
    if (reader.accept("DROP"))
        return classifyDrop(reader);
    if (reader.accept("ALTER"))
        return classifyAlter(reader);
    if (reader.accept("RENAME"))
        return classifyRename(reader);
    if (reader.accept("TRUNCATE")) {
        reader.accept("TABLE");
        return withTable(reader, StatementKind::TruncateTable, "truncate table",
                         [](ClassifiedStatement&, std::string&) { return true; });
    }
    return unclassified("'" + reader.opening() + "' is not a statement this engine knows how to replicate");
}

std::string DdlClassifier::rewriteTables(std::string_view sql, const ClassifiedStatement& statement,
                                         const std::function<TableName(const TableName&)>& route) {
    std::vector<const TableReference*> written;
    for (const auto& reference : statement.tables) {
        if (reference.end > reference.begin)
            written.push_back(&reference);
    }
    std::sort(written.begin(), written.end(), [](auto* a, auto* b) { return a->begin < b->begin; });
    std::string text;
    size_t copied = 0;
    for (const auto* reference : written) {
        text.append(sql.substr(copied, reference->begin - copied));
        text += route(reference->name).quoted();
        copied = reference->end;
    }
    text.append(sql.substr(copied));
    return text;
}

}  // namespace syncscope::filter
