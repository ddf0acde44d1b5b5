// The event the task stopped on: the downstream's error, the position, table and operation, the row
// images with column names, the SQL and a hint; Retry, Skip this event (strongly confirmed) and Copy.
#pragma once

#include <QWidget>
#include <optional>

#include "engine/task/status_snapshot.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace syncscope::ui {

class FailedEventPanel : public QWidget {
    Q_OBJECT

public:
    explicit FailedEventPanel(QWidget* parent = nullptr);

    void setFailedEvent(const std::optional<task::FailedEvent>& event);
    bool hasEvent() const { return event_.has_value(); }
    // Everything about the event as plain text, for a ticket or a chat.
    QString detailsText() const;
    // The text the DBA must type to confirm a skip: the table's qualified name.
    QString skipConfirmationText() const;

    QTableWidget* rowsTable() const { return rows_; }
    QPushButton* retryButton() const { return retry_; }
    QPushButton* skipButton() const { return skip_; }
    QPushButton* browseButton() const { return browse_; }

signals:
    void retryRequested();
    // Emitted only after the DBA confirmed.
    void skipConfirmed();
    // "Browse around": the event browser should open at the event's position.
    void browseRequested(const QString& file, qulonglong pos);

public slots:
    void copyDetails();
    void askToSkip();

private:
    std::optional<task::FailedEvent> event_;
    QLabel* error_ = nullptr;
    QLabel* where_ = nullptr;
    QLabel* hint_ = nullptr;
    QTableWidget* rows_ = nullptr;
    QPlainTextEdit* sql_ = nullptr;
    QPushButton* retry_ = nullptr;
    QPushButton* skip_ = nullptr;
    QPushButton* copy_ = nullptr;
    QPushButton* browse_ = nullptr;
};

}  // namespace syncscope::ui
