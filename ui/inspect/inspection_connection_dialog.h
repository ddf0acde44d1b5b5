// Where to inspect checkpoints: the downstream that holds the checkpoint tables (host, port, user,
// password, meta schema, optionally one task) and, optionally, the upstream to compare the points with.
// Remembers everything but the passwords.
#pragma once

#include <QDialog>

#include "engine/inspect/checkpoint_inspector.h"

class QCheckBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace syncscope::ui {

class InspectionConnectionDialog : public QDialog {
    Q_OBJECT

public:
    explicit InspectionConnectionDialog(QWidget* parent = nullptr);

    void setRequest(const inspect::InspectionRequest& request);
    inspect::InspectionRequest request() const;

    // Empty when the fields make a request; otherwise what is missing, naming the field.
    QString problem() const;

    void accept() override;

private:
    void restoreFields();
    void saveFields() const;

    QLineEdit* targetHost_ = nullptr;
    QSpinBox* targetPort_ = nullptr;
    QLineEdit* targetUser_ = nullptr;
    QLineEdit* targetPassword_ = nullptr;
    QLineEdit* metaSchema_ = nullptr;
    QLineEdit* task_ = nullptr;
    QGroupBox* upstreamGroup_ = nullptr;
    QLineEdit* upstreamHost_ = nullptr;
    QSpinBox* upstreamPort_ = nullptr;
    QLineEdit* upstreamUser_ = nullptr;
    QLineEdit* upstreamPassword_ = nullptr;
    QLineEdit* sourceId_ = nullptr;
    QLabel* problem_ = nullptr;
};

}  // namespace syncscope::ui
