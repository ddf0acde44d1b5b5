#include "tests/integration/binlog_types/mariadb_binlog_rows.h"

#include <QProcess>
#include <QStandardPaths>

namespace syncscope::test {

using binlog::ColumnType;
using binlog::ValueKind;

std::optional<std::vector<PrintedChange>> mariadbBinlogChanges(const std::string& file, const std::string& schema,
                                                               const std::string& table) {
    const QString tool = QStandardPaths::findExecutable("mariadb-binlog");
    if (tool.isEmpty()) {
        return std::nullopt;
    }
    QProcess process;
    process.start(tool, {"--base64-output=decode-rows", "-vv", QString::fromStdString(file)});
    process.waitForFinished(120000);
    const QByteArray output = process.readAllStandardOutput();
    const std::string target = "`" + schema + "`.`" + table + "`";
    std::vector<PrintedChange> changes;
    PrintedChange* current = nullptr;
    std::map<int, std::string>* image = nullptr;
    for (const QByteArray& rawLine : output.split('\n')) {
        const std::string line = rawLine.toStdString();
        for (const char* op : {"INSERT INTO ", "UPDATE ", "DELETE FROM "}) {
            const std::string head = std::string("### ") + op;
            if (line.rfind(head, 0) == 0) {
                current = nullptr;
                image = nullptr;
                if (line.substr(head.size()) == target) {
                    changes.push_back({std::string(op).substr(0, 6), {}, {}});
                    current = &changes.back();
                }
            }
        }
        if (current == nullptr) {
            continue;
        }
        if (line == "### WHERE") {
            image = &current->before;
        } else if (line == "### SET") {
            image = &current->after;
        } else if (image != nullptr && line.rfind("###   @", 0) == 0) {
            const size_t eq = line.find('=');
            const size_t comment = line.rfind(" /* ");
            if (eq == std::string::npos || comment == std::string::npos || comment < eq) {
                continue;
            }
            std::string value = line.substr(eq + 1, comment - eq - 1);
            value.erase(value.find_last_not_of(' ') + 1);
            (*image)[std::stoi(line.substr(7, eq - 7))] = value;
        }
    }
    return changes;
}

namespace {

std::string bitString(uint64_t bits, unsigned width) {
    std::string out = "b'";
    for (unsigned i = width; i > 0; --i) {
        out.push_back(((bits >> (i - 1)) & 1) ? '1' : '0');
    }
    return out + "'";
}

}  // namespace

std::optional<std::string> printedLikeMariadbBinlog(const binlog::ColumnValue& value, const binlog::ColumnDef& column) {
    binlog::ColumnDef plain;
    switch (value.kind()) {
        case ValueKind::Null:
            return std::string("NULL");
        case ValueKind::Year:
            // mariadb-binlog adds 1900 to the stored byte even for YEAR 0, which SELECT shows as 0000.
            return value.asYear() == 0 ? std::string("1900") : value.toText(plain);
        case ValueKind::Int:
        case ValueKind::UInt:
        case ValueKind::Decimal:
        case ValueKind::Date:
        case ValueKind::Time:
        case ValueKind::DateTime:
            return value.toText(plain);
        case ValueKind::Timestamp: {
            std::string text = std::to_string(value.timestamp().seconds);
            if (value.timestamp().fsp > 0) {
                std::string fraction = std::to_string(1000000 + value.timestamp().microsecond).substr(1);
                text += "." + fraction.substr(0, value.timestamp().fsp);
            }
            return text;
        }
        case ValueKind::Enum:
            return std::to_string(value.enumIndex());
        case ValueKind::Set: {
            // mariadb-binlog prints a SET's bytes in storage order (little-endian), each byte high bit first.
            std::string text = "b'";
            for (unsigned byte = 0; byte < (column.meta & 0xFFu); ++byte) {
                text += bitString((value.bits() >> (8 * byte)) & 0xFF, 8).substr(2, 8);
            }
            return text + "'";
        }
        case ValueKind::Bit:
            return bitString(value.bits(), (column.meta >> 8) * 8u + (column.meta & 0xFF));
        default:
            return std::nullopt;  // floats, text and bytes: mariadb-binlog's own formats
    }
}

std::string normalizedPrinted(const std::string& printed, const binlog::ColumnValue& value) {
    std::string text = printed;
    if (value.kind() == ValueKind::UInt) {
        // Unsigned values with the top bit set print as "-1 (255)": the unsigned one is in parentheses.
        const size_t open = text.find(" (");
        if (open != std::string::npos && text.back() == ')') {
            text = text.substr(open + 2, text.size() - open - 3);
        }
    } else if (value.kind() == ValueKind::Int) {
        text = text.substr(0, text.find(" ("));
    }
    if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'') {
        text = text.substr(1, text.size() - 2);
    }
    if (value.kind() == ValueKind::Date) {
        for (char& c : text) {
            c = c == ':' ? '-' : c;
        }
    }
    return text;
}

}  // namespace syncscope::test
