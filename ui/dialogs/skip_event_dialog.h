// The strong confirmation before skipping a failed event: the DBA reads what will be lost and types the
// table's name; the skip is written to the audit log by the engine.
#pragma once

#include <QDialog>

class QLineEdit;
class QPushButton;

namespace syncscope::ui {

class SkipEventDialog : public QDialog {
    Q_OBJECT

public:
    SkipEventDialog(const QString& details, const QString& confirmationText, QWidget* parent = nullptr);

    QLineEdit* confirmationEdit() const { return typed_; }
    QPushButton* skipButton() const { return skip_; }

private:
    QString confirmationText_;
    QLineEdit* typed_ = nullptr;
    QPushButton* skip_ = nullptr;
};

}  // namespace syncscope::ui
