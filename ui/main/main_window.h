// The main window of the SyncScope GUI: the frame that holds the task views.
#pragma once

#include <QMainWindow>

class QLabel;

namespace syncscope::ui {

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);

private:
    void createMenus();
    void showAbout();

    QLabel* welcome_ = nullptr;
};

}  // namespace syncscope::ui
