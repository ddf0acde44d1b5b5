// The audit tab: the engine's audit log (skips, resume-from, position moves), re-read every few seconds.
#pragma once

#include <QTimer>
#include <QWidget>

class QLabel;
class QTableView;

namespace syncscope::ui {

class AuditModel;

class AuditPage : public QWidget {
    Q_OBJECT

public:
    static constexpr int kReloadMilliseconds = 2000;

    explicit AuditPage(AuditModel* model, QWidget* parent = nullptr);

    void setPath(const QString& path);
    QTableView* view() const { return view_; }

public slots:
    void reload();

private:
    AuditModel* model_;
    QLabel* path_ = nullptr;
    QTableView* view_ = nullptr;
    QTimer timer_;
};

}  // namespace syncscope::ui
