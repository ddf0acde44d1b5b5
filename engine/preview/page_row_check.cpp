#include "engine/preview/page_row_check.h"

#include <map>
#include <optional>

#include "engine/common/error.h"
#include "engine/verify/window_key.h"

namespace syncscope::preview {

namespace {

// A run of page transactions that follow one another in the binlog: read as one window.
struct PageWindow {
    binlog::BinlogPosition from;
    binlog::BinlogPosition to;
};

binlog::BinlogPosition positionOf(const std::string& file, uint64_t offset) {
    if (!binlog::BinlogPosition::isBinlogFileName(file)) {
        throw Error("the row check reads the upstream's binlog, and '" + file +
                    "' is no binlog file name of a server: browse the task's upstream to check rows");
    }
    return binlog::BinlogPosition(file, offset);
}

std::string keyText(const std::vector<apply::SqlValue>& key) {
    std::string text;
    for (const auto& value : key) {
        auto part = value.text();
        text += (text.empty() ? "" : ",") + (part ? *part : std::string("NULL"));
    }
    return text;
}

// Where a row's last change lies: the page transaction holding that event end.
std::optional<size_t> transactionHolding(const std::vector<browse::BrowsedTransaction>& transactions,
                                         const binlog::BinlogPosition& change) {
    for (size_t i = 0; i < transactions.size(); ++i) {
        const auto& trx = transactions[i];
        if (trx.isMarker || !binlog::BinlogPosition::isBinlogFileName(trx.file) ||
            !binlog::BinlogPosition::isBinlogFileName(trx.endFile)) {
            continue;
        }
        if (binlog::BinlogPosition(trx.file, trx.pos) < change &&
            !(binlog::BinlogPosition(trx.endFile, trx.endPos) < change)) {
            return i;
        }
    }
    return std::nullopt;
}

}  // namespace

std::string CheckedRow::text() const {
    std::string line = table + " (" + key + ") " + verify::windowRowStateName(state);
    for (size_t i = 0; i < differingColumns.size(); ++i) {
        line += (i == 0 ? ": " : ", ") + differingColumns[i];
    }
    return line;
}

std::string TransactionRowCheck::summary() const {
    std::string text;
    auto add = [&text](size_t count, const char* what) {
        if (count > 0) {
            text += (text.empty() ? "" : ", ") + std::to_string(count) + " " + what;
        }
    };
    add(equal, "equal");
    add(missing, "missing");
    add(different, "different");
    add(notDeleted, "not deleted");
    return text;
}

PageRowCheck checkPageRows(verify::WindowPreviewRequest request,
                           const std::vector<browse::BrowsedTransaction>& transactions,
                           const browse::BrowseFilter& filter, const std::atomic<bool>* cancel) {
    PageRowCheck check;
    check.transactions.resize(transactions.size());
    std::vector<PageWindow> windows;
    for (const auto& trx : transactions) {
        if (trx.isMarker || !trx.complete) {
            continue;
        }
        binlog::BinlogPosition start = positionOf(trx.file, trx.pos);
        binlog::BinlogPosition end = positionOf(trx.endFile, trx.endPos);
        if (!windows.empty() && !(windows.back().to < start)) {
            windows.back().to = end;  // adjacent: the same window goes on
        } else {
            windows.push_back({start, end});
        }
    }
    auto shown = request.replicated;
    request.replicated = [shown, &filter](const schema::TableName& name) {
        return (!shown || shown(name)) && (filter.schema.empty() || filter.schema == name.schema) &&
               (filter.table.empty() || filter.table == name.table);
    };
    request.maxEvents = kMaxEventsPerPageWindow;

    // A row's state is the one of its last change on the page (a later window's replaces an earlier one's).
    struct LastSeen {
        size_t transaction = 0;
        CheckedRow row;
    };
    std::map<std::string, LastSeen> rows;  // by table and key
    std::vector<std::string> order;
    std::map<std::string, bool> problemTables;
    verify::WindowPreviewer previewer;
    previewer.setCancelFlag(cancel);
    for (const auto& window : windows) {
        request.from = window.from;
        request.to = window.to;
        verify::WindowPreview preview = previewer.preview(request);
        ++check.windowsRead;
        check.eventsRead += preview.eventsRead;
        for (auto& problem : preview.problems) {
            if (!problemTables[problem.table.text()]) {
                problemTables[problem.table.text()] = true;
                check.problems.push_back(std::move(problem));
            }
        }
        for (const auto& table : preview.tables) {
            for (const auto& row : table.rows) {
                const std::string key = keyText(row.key);
                if (filter.keyValue && key != *filter.keyValue) {
                    continue;
                }
                auto holder = transactionHolding(transactions, binlog::BinlogPosition::parse(row.lastChange));
                if (!holder) {
                    continue;
                }
                const std::string id = table.table.text() + "/" + verify::windowKeyId(row.key);
                auto [at, added] = rows.try_emplace(id);
                if (added) {
                    order.push_back(id);
                }
                at->second = {*holder, {table.table.text(), key, row.state, row.differingColumns}};
            }
        }
    }
    for (const auto& id : order) {
        const LastSeen& seen = rows.at(id);
        TransactionRowCheck& trx = check.transactions[seen.transaction];
        switch (seen.row.state) {
            case verify::WindowRowState::Equal:
                ++trx.equal;
                break;
            case verify::WindowRowState::Missing:
                ++trx.missing;
                break;
            case verify::WindowRowState::Different:
                ++trx.different;
                break;
            case verify::WindowRowState::NotDeleted:
                ++trx.notDeleted;
                break;
        }
        trx.rows.push_back(seen.row);
    }
    return check;
}

}  // namespace syncscope::preview
