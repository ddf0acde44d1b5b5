// The event browser's tree: one top-level row per transaction (start, time, GTID, events, rows, and
// whether it is applied downstream yet: by position, and once checked, by its rows), its shown events as
// children. A page is swapped in whole, in one reset; the applied point is compared again when it moves
// and a row check arrives whole (one dataChanged for the column each).
#pragma once

#include <QAbstractItemModel>
#include <memory>
#include <optional>
#include <vector>

#include "engine/binlog/position_axis.h"
#include "engine/browse/binlog_history.h"
#include "engine/browse/browsed_event.h"
#include "engine/filter/online_ddl_rules.h"
#include "engine/preview/page_row_check.h"

namespace syncscope::ui {

class EventBrowserModel : public QAbstractItemModel {
    Q_OBJECT

public:
    enum Column {
        PositionColumn,
        TimeColumn,
        GtidColumn,
        TypeColumn,
        TableColumn,
        RowsColumn,
        AppliedColumn,
        ColumnCount
    };

    enum Role {
        SortRole = Qt::UserRole,  // the start offset for positions, the timestamp for times, the row count
        IsTransactionRole,        // bool: a transaction row (not an event)
        IsTargetRole,             // bool: the transaction the page was opened at
    };
    Q_ENUM(Role)

    explicit EventBrowserModel(QObject* parent = nullptr);

    void setPage(std::vector<browse::BrowsedTransaction> transactions, std::optional<size_t> target,
                 std::vector<binlog::BinlogFileSize> files);
    // The downstream's applied point (an event end); empty file: unknown, the column stays blank.
    void setAppliedPoint(const browse::BrowsePoint& applied);
    // The page's rows checked against the downstream (one entry per transaction of the page); a new page
    // clears it.
    void setRowCheck(std::vector<preview::TransactionRowCheck> check);
    // The task's online-ddl rules (null: off): events on a tool's shadow and trash tables say what the
    // task does with them (never applied; the shadow's DDLs run on the table at the swap).
    void setOnlineDdlRules(std::shared_ptr<const filter::OnlineDdlRules> rules);
    // What the task does with this event under online-ddl ("" when it is not about a tool's table).
    QString onlineDdlNote(const browse::BrowsedEvent& event) const;
    // The row check of the transaction at `row`; null before a check.
    const preview::TransactionRowCheck* rowCheckAt(size_t row) const;

    const browse::BrowsedTransaction* transactionAt(const QModelIndex& index) const;  // the row's, or its parent's
    const browse::BrowsedEvent* eventAt(const QModelIndex& index) const;              // null for a transaction row
    QModelIndex targetIndex() const;
    size_t transactionCount() const { return transactions_.size(); }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // Internal ids: 0 for a transaction row, transaction index + 1 for its events.
    static constexpr quintptr kTransactionRow = 0;

    QVariant transactionData(const browse::BrowsedTransaction& trx, size_t row, int column, int role,
                             bool target) const;
    QVariant eventData(const browse::BrowsedEvent& event, int column, int role) const;
    QString appliedText(const browse::BrowsedTransaction& trx, size_t row) const;

    std::vector<browse::BrowsedTransaction> transactions_;
    std::optional<size_t> target_;
    std::vector<binlog::BinlogFileSize> files_;
    browse::BrowsePoint applied_;
    std::vector<preview::TransactionRowCheck> rowCheck_;  // empty: not checked
    std::shared_ptr<const filter::OnlineDdlRules> onlineDdl_;
};

}  // namespace syncscope::ui
