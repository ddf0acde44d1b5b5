// The engine's log and the task's notices: level filter, search, follow on/off, capped at the model.
#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace syncscope::ui {

class LogModel;
class LogFilterProxy;

class LogPage : public QWidget {
    Q_OBJECT

public:
    explicit LogPage(LogModel* model, QWidget* parent = nullptr);

    LogFilterProxy* proxy() const { return proxy_; }
    QTableView* view() const { return view_; }
    QCheckBox* followSwitch() const { return follow_; }

private:
    void scrollIfFollowing();
    void updateCount();

    LogModel* model_;
    LogFilterProxy* proxy_;
    QTableView* view_ = nullptr;
    QComboBox* level_ = nullptr;
    QLineEdit* search_ = nullptr;
    QCheckBox* follow_ = nullptr;
    QLabel* count_ = nullptr;
};

}  // namespace syncscope::ui
