// New Task: the fields of a DM-format task and its source, a test of both connections (off the GUI
// thread, one message per side) that must pass before anything is saved, then the task file and the
// source file written with the engine's writer and loaded back with its loader.
#pragma once

#include <QDialog>
#include <QFutureWatcher>

#include "ui/dialogs/connection_check.h"
#include "ui/dialogs/new_task_spec.h"

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace syncscope::ui {

class MoreSourcesEditor;
class PrecheckDialog;

class NewTaskDialog : public QDialog {
    Q_OBJECT

public:
    explicit NewTaskDialog(QWidget* parent = nullptr);
    ~NewTaskDialog() override;

    // The fields as a spec (and back, for tests and for "start from these values").
    NewTaskSpec spec() const;
    void setSpec(const NewTaskSpec& spec);
    QString directory() const;
    void setDirectory(const QString& directory);

    // Empty when the fields are complete; otherwise what is missing, naming the field.
    QString problem() const;

    // Starts the connection test in the background; save: write the files when both sides pass.
    void testConnections(bool save = false);
    bool isTesting() const;

    QString sourceStatus() const;
    QString targetStatus() const;
    QString errorText() const;
    // After a successful save: the files written; sourcePath() holds every source's file, tab-separated, when
    // there are several (as the opener takes them).
    QString taskPath() const { return taskPath_; }
    QString sourcePath() const { return sourcePath_; }

    // Runs the precheck of the fields as they stand (nothing is saved) in a dialog of its own; null,
    // with the reason shown, when the fields do not make a task.
    PrecheckDialog* openPrecheck();

    MoreSourcesEditor* moreSources() const { return moreSources_; }
    QPushButton* testButton() const { return test_; }
    QPushButton* precheckButton() const { return precheck_; }
    QPushButton* saveButton() const { return save_; }

signals:
    void connectionsTested(bool ok);
    // The files are written and load back; the dialog is accepted right after.
    void taskSaved(const QString& taskPath, const QString& sourcePath);

private:
    struct ServerFields {
        QLineEdit* host = nullptr;
        QSpinBox* port = nullptr;
        QLineEdit* user = nullptr;
        QComboBox* passwordKind = nullptr;
        QLineEdit* password = nullptr;
        QToolButton* browse = nullptr;
    };

    QGroupBox* makeTaskGroup();
    QGroupBox* makeSourceGroup();
    QGroupBox* makeTargetGroup();
    void makeServerFields(QWidget* parent, ServerFields& fields, const QString& side);
    ServerEntry serverEntry(const ServerFields& fields) const;
    void setServerEntry(ServerFields& fields, const ServerEntry& entry);
    void onTested();
    void save();
    void showError(const QString& text);
    void updateGtidFields();

    QLineEdit* name_ = nullptr;
    QLineEdit* metaSchema_ = nullptr;
    QLineEdit* doDbs_ = nullptr;
    QSpinBox* workerCount_ = nullptr;
    QSpinBox* batch_ = nullptr;
    QSpinBox* flushInterval_ = nullptr;
    QLineEdit* sourceId_ = nullptr;
    ServerFields source_;
    QComboBox* flavor_ = nullptr;
    QCheckBox* gtid_ = nullptr;
    QLineEdit* startFile_ = nullptr;
    QSpinBox* startPos_ = nullptr;
    QLineEdit* startGtid_ = nullptr;
    ServerFields target_;
    MoreSourcesEditor* moreSources_ = nullptr;
    QLineEdit* directory_ = nullptr;
    QPushButton* browseDirectory_ = nullptr;
    QLabel* sourceStatus_ = nullptr;
    QLabel* targetStatus_ = nullptr;
    QLabel* error_ = nullptr;
    QPushButton* test_ = nullptr;
    QPushButton* precheck_ = nullptr;
    QPushButton* save_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QFutureWatcher<ConnectionCheck> watcher_;
    bool saveWhenTested_ = false;
    QString taskPath_;
    QString sourcePath_;
};

}  // namespace syncscope::ui
