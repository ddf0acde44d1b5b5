#include "tests/integration/verify/pt_table_sync.h"

#include <QProcess>

#include "tests/support/test_env.h"

namespace syncscope::test {
namespace {

constexpr int kPtTimeoutMs = 120000;

// A statement as a list of tokens: `names`, 'strings' (unescaped), bare words and single characters.
struct Token {
    enum Kind { Name, String, Word, Symbol } kind;
    std::string text;
};

std::vector<Token> tokenize(const std::string& sql) {
    std::vector<Token> tokens;
    size_t i = 0;
    while (i < sql.size()) {
        char c = sql[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (c == '/' && i + 1 < sql.size() && sql[i + 1] == '*') {
            size_t end = sql.find("*/", i + 2);
            i = end == std::string::npos ? sql.size() : end + 2;
        } else if (c == '`') {
            std::string name;
            for (++i; i < sql.size(); ++i) {
                if (sql[i] == '`') {
                    if (i + 1 < sql.size() && sql[i + 1] == '`') {
                        name += '`';
                        ++i;
                        continue;
                    }
                    ++i;
                    break;
                }
                name += sql[i];
            }
            tokens.push_back({Token::Name, name});
        } else if (c == '\'') {
            std::string value;
            for (++i; i < sql.size(); ++i) {
                if (sql[i] == '\\' && i + 1 < sql.size()) {
                    char next = sql[++i];
                    value += next == 'n' ? '\n' : next == 'r' ? '\r' : next == '0' ? '\0' : next == 'Z' ? '\x1a' : next;
                    continue;
                }
                if (sql[i] == '\'') {
                    if (i + 1 < sql.size() && sql[i + 1] == '\'') {
                        value += '\'';
                        ++i;
                        continue;
                    }
                    ++i;
                    break;
                }
                value += sql[i];
            }
            tokens.push_back({Token::String, value});
        } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') {
            size_t start = i;
            while (i < sql.size() && (std::isalnum(static_cast<unsigned char>(sql[i])) || sql[i] == '_' ||
                                      sql[i] == '-' || sql[i] == '.')) {
                ++i;
            }
            tokens.push_back({Token::Word, sql.substr(start, i - start)});
        } else {
            tokens.push_back({Token::Symbol, std::string(1, c)});
            ++i;
        }
    }
    return tokens;
}

std::string valueOf(const Token& token) {
    if (token.kind == Token::Word && token.text == "NULL") {
        return "NULL";
    }
    return token.text;
}

// `a`='x' AND `b` IS NULL ... up to LIMIT or the end: column -> value.
std::map<std::string, std::string> whereValues(const std::vector<Token>& tokens, size_t from) {
    std::map<std::string, std::string> values;
    for (size_t i = from; i + 2 < tokens.size(); ++i) {
        if (tokens[i].kind != Token::Name) {
            continue;
        }
        if (tokens[i + 1].text == "=") {
            values[tokens[i].text] = valueOf(tokens[i + 2]);
        } else if (tokens[i + 1].text == "IS" && tokens[i + 2].text == "NULL") {
            values[tokens[i].text] = "NULL";
        }
    }
    return values;
}

std::string keyText(const std::map<std::string, std::string>& values, const std::vector<std::string>& keyColumns) {
    std::string text;
    if (keyColumns.empty()) {
        for (const auto& [column, value] : values) {
            text += (text.empty() ? "" : ", ") + column + "=" + value;
        }
        return text;
    }
    for (const auto& column : keyColumns) {
        auto it = values.find(column);
        text += (text.empty() ? "" : ", ") + column + "=" + (it == values.end() ? "?" : it->second);
    }
    return text;
}

size_t findWord(const std::vector<Token>& tokens, const std::string& word, size_t from = 0) {
    for (size_t i = from; i < tokens.size(); ++i) {
        if (tokens[i].kind == Token::Word && tokens[i].text == word) {
            return i;
        }
    }
    return tokens.size();
}

}  // namespace

std::multiset<PtFinding> parsePtStatements(const QString& output,
                                           const std::map<std::string, std::vector<std::string>>& keyColumns) {
    std::multiset<PtFinding> findings;
    for (const QString& line : output.split('\n', Qt::SkipEmptyParts)) {
        auto tokens = tokenize(line.toStdString());
        if (tokens.size() < 4) {
            continue;
        }
        std::string verb = tokens[0].text;
        size_t tableAt = verb == "UPDATE" ? 1 : 2;  // DELETE FROM / INSERT INTO / REPLACE INTO
        if (tokens.size() <= tableAt + 2 || tokens[tableAt].kind != Token::Name) {
            continue;
        }
        std::string table = tokens[tableAt].text + "." + tokens[tableAt + 2].text;
        auto keys = keyColumns.count(table) ? keyColumns.at(table) : std::vector<std::string>{};
        PtFinding finding{table, "", ""};
        if (verb == "DELETE") {
            finding.kind = "extra";
            finding.key = keyText(whereValues(tokens, findWord(tokens, "WHERE")), keys);
        } else if (verb == "UPDATE") {
            finding.kind = "different";
            finding.key = keyText(whereValues(tokens, findWord(tokens, "WHERE")), keys);
        } else if (verb == "INSERT" || verb == "REPLACE") {
            finding.kind = "missing";
            std::vector<std::string> columns;
            size_t i = tableAt + 3;
            for (; i < tokens.size() && tokens[i].text != "VALUES"; ++i) {
                if (tokens[i].kind == Token::Name) {
                    columns.push_back(tokens[i].text);
                }
            }
            std::map<std::string, std::string> values;
            size_t column = 0;
            for (++i; i < tokens.size() && column < columns.size(); ++i) {
                if (tokens[i].kind == Token::String || tokens[i].kind == Token::Word) {
                    values[columns[column++]] = valueOf(tokens[i]);
                }
            }
            finding.key = keyText(values, keys);
        } else {
            continue;
        }
        findings.insert(finding);
    }
    return findings;
}

PtRun runPtTableSync(const QString& databases, const std::map<std::string, std::vector<std::string>>& keyColumns,
                     const QStringList& extraArguments) {
    auto up = upstreamRoot();
    auto down = downstreamRoot();
    QProcess process;
    QStringList arguments{"--print", "--no-check-slave", "--no-check-triggers", "--databases", databases};
    arguments << extraArguments;
    arguments << QString("h=127.0.0.1,P=%1,u=%2,p=%3")
                     .arg(up.port)
                     .arg(QString::fromStdString(up.user), QString::fromStdString(up.password))
              << QString("h=127.0.0.1,P=%1").arg(down.port);
    process.start("pt-table-sync", arguments);
    PtRun run;
    if (!process.waitForFinished(kPtTimeoutMs)) {
        process.kill();
        process.waitForFinished();
        run.err = "pt-table-sync did not finish";
        return run;
    }
    run.exitCode = process.exitCode();
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    run.findings = parsePtStatements(run.out, keyColumns);
    return run;
}

}  // namespace syncscope::test
