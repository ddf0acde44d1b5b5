#include "engine/task/replayed_rows.h"

namespace syncscope::task {

const ReplayedRowsFitter::Fit& ReplayedRowsFitter::fit(const std::shared_ptr<const schema::TableSchema>& table) {
    auto found = fits_.find(table.get());
    if (found != fits_.end() && found->second.table) {
        return found->second;
    }
    Fit fit;
    fit.table = table;
    fit.source = table;
    std::optional<schema::TableSchema> downstream = lookup_(table->name());
    if (!downstream) {
        fit.tableAbsent = true;
    } else {
        for (const schema::SchemaColumn& column : table->columns()) {
            if (!column.generated && !downstream->columnIndex(column.name)) {
                fit.absentColumns.push_back(column.name);
            }
        }
        if (!fit.absentColumns.empty()) {
            fit.table = std::make_shared<const schema::TableSchema>(table->leavingOut(fit.absentColumns));
        }
    }
    // Keyed by the tracker's structure, which lives until the next DDL (forgetAll): `table` keeps it alive.
    return fits_.insert_or_assign(table.get(), std::move(fit)).first->second;
}

}  // namespace syncscope::task
