// What the last verify found for each table, as the table checkpoints page (a column and a filter) and
// the position ruler (a mark where each table was verified) show it. Keyed by the upstream table.
#pragma once

#include <QHash>
#include <QString>

#include <cstdint>
#include <vector>

#include "engine/task/status_snapshot.h"
#include "engine/verify/verify_result.h"

namespace syncscope::ui {

struct TableVerification {
    verify::TableOutcome outcome = verify::TableOutcome::Equal;
    task::PointView verifiedAt;  // the upstream's position when its last chunk was compared (axis unset)
    uint64_t differences = 0;
    QString problem;  // Failed: why

    // Whether it needs the DBA: differences found, or not compared to the end (failed, cancelled).
    bool needsAttention() const { return outcome != verify::TableOutcome::Equal; }
    // "verified at mariadb-bin.000002:1234, equal", "..., 3 differences", "failed: ...".
    QString text() const;
};

// "schema.table" of the upstream table -> its last verify.
using TableVerifications = QHash<QString, TableVerification>;

// The key of a table in TableVerifications: "schema.table".
inline QString verificationKey(const std::string& schema, const std::string& table) {
    return QString::fromStdString(schema + "." + table);
}

TableVerifications tableVerificationsFrom(const std::vector<verify::TableVerifyResult>& tables);

}  // namespace syncscope::ui
