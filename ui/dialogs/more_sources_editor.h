// The New Task dialog's further sources, for a DM task with several sources: source files that exist
// already (each its own mysql-instances entry; the source-id is read from the file) with the databases each
// replicates. An entry that cannot work (a file that does not load, no database, a source-id twice) is
// named by problem() before anything is saved.
#pragma once

#include <QGroupBox>
#include <vector>

#include "ui/dialogs/new_task_spec.h"

class QPushButton;
class QTableWidget;

namespace syncscope::ui {

class MoreSourcesEditor : public QGroupBox {
    Q_OBJECT

public:
    enum Column { SourceIdColumn, DatabasesColumn, FileColumn, ColumnCount };

    explicit MoreSourcesEditor(QWidget* parent = nullptr);

    std::vector<MoreSource> sources() const;
    void setSources(const std::vector<MoreSource>& sources);
    // Adds the files (each read for its source-id); a file that does not load is named in the return value.
    QString addSourceFiles(const QStringList& files);
    // Empty when every entry can work; otherwise what is wrong, naming the source. `firstSourceId`: the typed one.
    QString problem(const QString& firstSourceId) const;

    QTableWidget* table() const { return table_; }
    QPushButton* addButton() const { return add_; }

private:
    void addRow(const MoreSource& source);

    QTableWidget* table_ = nullptr;
    QPushButton* add_ = nullptr;
    QPushButton* remove_ = nullptr;
};

}  // namespace syncscope::ui
