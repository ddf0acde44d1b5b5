#include "engine/verify/row_confirmer.h"

#include <algorithm>
#include <thread>

#include "engine/verify/chunk_sql.h"
#include "engine/verify/row_diff.h"

namespace syncscope::verify {

std::vector<std::optional<RowValues>> RowConfirmer::rowsOf(ServerSession& side, const ComparedTable& table,
                                                           const schema::TableName& name,
                                                           const std::vector<RowDifference>& suspects, bool lock) {
    ChunkSql sql(table);
    std::vector<std::optional<RowValues>> rows(suspects.size());
    std::vector<RowValues> keys;
    const size_t perStatement = std::max<size_t>(settings_.confirmLookups, 1);
    for (size_t first = 0; first < suspects.size(); first += perStatement) {
        const size_t end = std::min(suspects.size(), first + perStatement);
        keys.clear();
        for (size_t i = first; i < end; ++i) {
            keys.push_back(suspects[i].key);
        }
        for (auto& row : side.query(sql.rowsByKeys(name, keys, lock))) {
            // The key's position first, then the row; positions past the keys are the padding's repeats.
            const size_t position = std::stoull(row.front().value_or(""));
            if (position >= keys.size()) {
                continue;
            }
            if (rows[first + position]) {
                throw VerifyError(side.describe() + ": two rows of " + name.text() + " have the key of row " +
                                  std::to_string(first + position) + " of a confirmation: is the key unique?");
            }
            row.erase(row.begin());
            rows[first + position] = std::move(row);
        }
    }
    return rows;
}

std::vector<RowDifference> RowConfirmer::confirm(const ComparedTable& table, const std::vector<RowDifference>& suspects,
                                                 const ConfirmedDifferencesHandler* handToRepair) {
    for (int attempt = 1;; ++attempt) {
        try {
            upstream_.execute("START TRANSACTION");
            auto upstreamRows = rowsOf(upstream_, table, table.upstreamName(), suspects, true);
            binlog::Location lockedAt = upstream_.binlogPosition();
            bool settled = waitUntilApplied(lockedAt);
            auto downstreamRows = rowsOf(downstream_, table, table.downstreamName(), suspects, false);
            std::vector<RowDifference> confirmed;
            for (size_t i = 0; i < suspects.size(); ++i) {
                if (auto difference = diffRow(table, suspects[i].key, upstreamRows[i], downstreamRows[i])) {
                    difference->settled = settled;
                    confirmed.push_back(std::move(*difference));
                }
            }
            if (handToRepair && *handToRepair && !confirmed.empty() && settled) {
                (*handToRepair)(table, confirmed);
            }
            upstream_.execute("COMMIT");
            return confirmed;
        } catch (const ServerError& e) {
            upstream_.execute("ROLLBACK");
            if (!ServerSession::isLockConflict(e.code()) || attempt >= settings_.lockAttempts || cancelled()) {
                throw;
            }
            std::this_thread::sleep_for(settings_.appliedPoll * attempt);
        }
    }
}

bool RowConfirmer::waitUntilApplied(const binlog::Location& point) {
    auto deadline = std::chrono::steady_clock::now() + settings_.settleTimeout;
    while (true) {
        AppliedAnswer answer = progress_.appliedUpTo(point);
        if (answer != AppliedAnswer::NotYet) {
            return true;
        }
        if (std::chrono::steady_clock::now() >= deadline || cancelled()) {
            if (!cancelled()) {
                unsettled_ =
                    progress_.describe() + " did not reach " + point.toString() + " within " +
                    std::to_string(std::chrono::duration_cast<std::chrono::seconds>(settings_.settleTimeout).count()) +
                    " s: rows were compared without it (--settle-seconds)";
            }
            return false;
        }
        std::this_thread::sleep_for(settings_.appliedPoll);
    }
}

}  // namespace syncscope::verify
