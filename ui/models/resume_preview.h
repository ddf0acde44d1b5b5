// What a resume from a chosen point would do, worked out from the status snapshot before the DBA
// confirms: the events applied again (covered by safe mode), the events skipped for every table, and
// the tables whose own checkpoints make the engine skip their events past the start.
#pragma once

#include <QString>
#include <QStringList>
#include <optional>

#include "engine/task/status_snapshot.h"
#include "engine/task/task_control.h"

namespace syncscope::ui {

enum class ResumeStart { PersistedGlobal, TablePoint, FilePosition, GtidSet };

struct ResumePreview {
    bool valid = false;
    QString error;  // why the choice cannot be used (bad text, unknown table, ...)
    task::ResumeTarget target;
    std::optional<uint64_t> targetAxis;
    uint64_t bytesAppliedAgain = 0;  // from the start to the last applied event
    uint64_t bytesSkipped = 0;       // from the last applied event to the start: never applied
    QStringList tablesSkipping;      // "db.t up to file:pos" for table points past the start
    bool movesPosition = false;      // anything but the persisted global point
    bool needsConfirmation() const { return movesPosition || bytesSkipped > 0 || !tablesSkipping.isEmpty(); }
    QString text;  // the preview as a DBA reads it (HTML)
};

// choice: the table's "schema.table" for TablePoint, the "file:pos" or GTID text for the others.
ResumePreview previewResume(const task::StatusSnapshot& snapshot, ResumeStart start, const QString& choice);

}  // namespace syncscope::ui
