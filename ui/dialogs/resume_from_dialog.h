// Resume from...: the persisted global point, a chosen table's point, or a file:pos or GTID set, with a
// preview of what will be applied again and what will be skipped before anything moves.
#pragma once

#include <QDialog>
#include <memory>

#include "engine/task/status_snapshot.h"
#include "ui/models/resume_preview.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;

namespace syncscope::ui {

class ResumeFromDialog : public QDialog {
    Q_OBJECT

public:
    explicit ResumeFromDialog(std::shared_ptr<const task::StatusSnapshot> snapshot, QWidget* parent = nullptr);

    void choose(ResumeStart start, const QString& choice);
    const ResumePreview& preview() const { return preview_; }
    QString previewText() const;

    // Asks for a second confirmation when the preview moves the position or skips events.
    void accept() override;

private:
    void updatePreview();
    ResumeStart currentStart() const;
    QString currentChoice() const;

    std::shared_ptr<const task::StatusSnapshot> snapshot_;
    ResumePreview preview_;
    QRadioButton* fromGlobal_ = nullptr;
    QRadioButton* fromTable_ = nullptr;
    QRadioButton* fromFilePos_ = nullptr;
    QRadioButton* fromGtid_ = nullptr;
    QComboBox* table_ = nullptr;
    QLineEdit* filePos_ = nullptr;
    QLineEdit* gtid_ = nullptr;
    QLabel* previewLabel_ = nullptr;
    QPushButton* resume_ = nullptr;
};

}  // namespace syncscope::ui
