#include "ui/dialogs/skip_event_dialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace syncscope::ui {

SkipEventDialog::SkipEventDialog(const QString& details, const QString& confirmationText, QWidget* parent)
    : QDialog(parent), confirmationText_(confirmationText) {
    setWindowTitle(tr("Skip the failed event?"));
    auto* layout = new QVBoxLayout(this);
    auto* warning = new QLabel(
        tr("<p><b style='color:#c62828'>Skipping drops this event for good.</b> Its rows will be missing or stale "
           "downstream, and the tables will differ from the upstream until you repair them by hand.</p>"
           "<p>Prefer fixing the cause (the hint says how) and pressing Retry. The skip, with the event's position "
           "and row images, is written to the audit log.</p>"
           "<p>To skip, type <b>%1</b> below.</p>")
            .arg(confirmationText.toHtmlEscaped()),
        this);
    warning->setWordWrap(true);
    auto* detailsView = new QPlainTextEdit(details, this);
    detailsView->setReadOnly(true);
    detailsView->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    detailsView->setToolTip(tr("The event that will be skipped"));
    typed_ = new QLineEdit(this);
    typed_->setPlaceholderText(confirmationText);
    typed_->setToolTip(tr("Type the table's name exactly to enable Skip"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    skip_ = buttons->addButton(tr("Skip this event"), QDialogButtonBox::DestructiveRole);
    skip_->setEnabled(false);
    skip_->setToolTip(tr("Drop the event and resume the task"));
    buttons->button(QDialogButtonBox::Cancel)->setDefault(true);
    buttons->button(QDialogButtonBox::Cancel)->setToolTip(tr("Keep the task stopped on this event"));
    layout->addWidget(warning);
    layout->addWidget(detailsView, 1);
    layout->addWidget(typed_);
    layout->addWidget(buttons);
    connect(typed_, &QLineEdit::textChanged, this,
            [this](const QString& text) { skip_->setEnabled(text.trimmed() == confirmationText_); });
    connect(skip_, &QPushButton::clicked, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(640, 420);
}

}  // namespace syncscope::ui
