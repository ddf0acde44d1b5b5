#include "ui/dialogs/resume_from_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include "ui/models/checkpoint_anomaly.h"

namespace syncscope::ui {

ResumeFromDialog::ResumeFromDialog(std::shared_ptr<const task::StatusSnapshot> snapshot, QWidget* parent)
    : QDialog(parent), snapshot_(std::move(snapshot)) {
    setWindowTitle(tr("Resume from..."));
    auto* layout = new QVBoxLayout(this);
    auto* grid = new QGridLayout;
    fromGlobal_ = new QRadioButton(tr("The persisted &global point"), this);
    fromGlobal_->setToolTip(tr("The normal resume: where the checkpoint table says the task stands"));
    auto* globalText = new QLabel(snapshot_ ? pointText(snapshot_->globalPersisted) : QStringLiteral("-"), this);
    fromTable_ = new QRadioButton(tr("A &table's point"), this);
    fromTable_->setToolTip(tr("Start at the persisted point of one table"));
    table_ = new QComboBox(this);
    table_->setToolTip(tr("The table whose persisted point to start from; tables ahead of the global point first"));
    fromFilePos_ = new QRadioButton(tr("A binlog &position"), this);
    fromFilePos_->setToolTip(tr("Start at file:pos in the upstream's binlog"));
    filePos_ = new QLineEdit(this);
    filePos_->setPlaceholderText(tr("mysql-bin.000003:4"));
    filePos_->setToolTip(tr("The binlog file and the end position of an event, e.g. mysql-bin.000003:1234"));
    fromGtid_ = new QRadioButton(tr("A G&TID set"), this);
    fromGtid_->setToolTip(tr("Start after this GTID set"));
    gtid_ = new QLineEdit(this);
    gtid_->setPlaceholderText(tr("0-1-1234"));
    gtid_->setToolTip(tr("The GTID set already applied; the task starts after it"));
    grid->addWidget(fromGlobal_, 0, 0);
    grid->addWidget(globalText, 0, 1);
    grid->addWidget(fromTable_, 1, 0);
    grid->addWidget(table_, 1, 1);
    grid->addWidget(fromFilePos_, 2, 0);
    grid->addWidget(filePos_, 2, 1);
    grid->addWidget(fromGtid_, 3, 0);
    grid->addWidget(gtid_, 3, 1);
    layout->addLayout(grid);

    // The undo of the last resume-from, one click away: the global point it replaced.
    if (snapshot_ && snapshot_->globalBeforeResumeFrom.known()) {
        const task::PointView& previous = snapshot_->globalBeforeResumeFrom;
        const bool byGtid = !previous.gtid.empty();
        const QString target = QString::fromStdString(byGtid ? previous.gtid : previous.text());
        auto* undo = new QPushButton(tr("&Undo the last resume-from: back to %1").arg(pointText(previous)), this);
        undo->setObjectName(QStringLiteral("undoResumeFrom"));
        undo->setToolTip(tr("Choose the global point that the last resume-from replaced (the audit log has it too)"));
        connect(undo, &QPushButton::clicked, this,
                [this, byGtid, target] { choose(byGtid ? ResumeStart::GtidSet : ResumeStart::FilePosition, target); });
        layout->addWidget(undo);
    }

    if (snapshot_) {
        QStringList ahead, others;
        for (const auto& table : snapshot_->tables) {
            const QString name = QString::fromStdString(table.schema + "." + table.table);
            (table.aheadOfGlobal ? ahead : others) << name;
        }
        for (const QString& name : ahead) {
            table_->addItem(tr("%1 (ahead of global)").arg(name), name);
        }
        for (const QString& name : others) {
            table_->addItem(name, name);
        }
    }

    previewLabel_ = new QLabel(this);
    previewLabel_->setWordWrap(true);
    previewLabel_->setTextFormat(Qt::RichText);
    previewLabel_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    previewLabel_->setToolTip(tr("What the resume will apply again and what it will skip"));
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(previewLabel_);
    scroll->setWidgetResizable(true);
    layout->addWidget(new QLabel(tr("<b>Preview</b>"), this));
    layout->addWidget(scroll, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    resume_ = buttons->addButton(tr("Resume"), QDialogButtonBox::AcceptRole);
    resume_->setToolTip(tr("Resume from the chosen point (asks again when it moves the position or skips)"));
    buttons->button(QDialogButtonBox::Cancel)->setToolTip(tr("Leave the task as it is"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &ResumeFromDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    for (QRadioButton* radio : {fromGlobal_, fromTable_, fromFilePos_, fromGtid_}) {
        connect(radio, &QRadioButton::toggled, this, &ResumeFromDialog::updatePreview);
    }
    connect(table_, &QComboBox::currentIndexChanged, this, [this] {
        fromTable_->setChecked(true);
        updatePreview();
    });
    connect(filePos_, &QLineEdit::textEdited, this, [this] {
        fromFilePos_->setChecked(true);
        updatePreview();
    });
    connect(gtid_, &QLineEdit::textEdited, this, [this] {
        fromGtid_->setChecked(true);
        updatePreview();
    });
    fromGlobal_->setChecked(true);
    updatePreview();
    resize(640, 460);
}

ResumeStart ResumeFromDialog::currentStart() const {
    if (fromTable_->isChecked()) {
        return ResumeStart::TablePoint;
    }
    if (fromFilePos_->isChecked()) {
        return ResumeStart::FilePosition;
    }
    if (fromGtid_->isChecked()) {
        return ResumeStart::GtidSet;
    }
    return ResumeStart::PersistedGlobal;
}

QString ResumeFromDialog::currentChoice() const {
    switch (currentStart()) {
        case ResumeStart::TablePoint:
            return table_->currentData().toString();
        case ResumeStart::FilePosition:
            return filePos_->text();
        case ResumeStart::GtidSet:
            return gtid_->text();
        case ResumeStart::PersistedGlobal:
            return {};
    }
    return {};
}

void ResumeFromDialog::choose(ResumeStart start, const QString& choice) {
    switch (start) {
        case ResumeStart::PersistedGlobal:
            fromGlobal_->setChecked(true);
            break;
        case ResumeStart::TablePoint:
            table_->setCurrentIndex(table_->findData(choice));
            fromTable_->setChecked(true);
            break;
        case ResumeStart::FilePosition:
            filePos_->setText(choice);
            fromFilePos_->setChecked(true);
            break;
        case ResumeStart::GtidSet:
            gtid_->setText(choice);
            fromGtid_->setChecked(true);
            break;
    }
    updatePreview();
}

void ResumeFromDialog::updatePreview() {
    if (!snapshot_) {
        preview_ = {};
        preview_.error = tr("No task status yet.");
    } else {
        preview_ = previewResume(*snapshot_, currentStart(), currentChoice());
    }
    previewLabel_->setText(
        preview_.valid ? preview_.text
                       : QStringLiteral("<span style='color:#c62828'>%1</span>").arg(preview_.error.toHtmlEscaped()));
    resume_->setEnabled(preview_.valid);
}

QString ResumeFromDialog::previewText() const {
    return previewLabel_->text();
}

void ResumeFromDialog::accept() {
    if (!preview_.valid) {
        return;
    }
    if (preview_.needsConfirmation()) {
        const auto answer = QMessageBox::warning(
            this, tr("Confirm resume from another point"),
            tr("This resume moves the task's position or skips events:<br><br>%1<br><br>The move is written to the "
               "audit log. Resume?")
                .arg(preview_.text),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Yes) {
            return;
        }
    }
    QDialog::accept();
}

}  // namespace syncscope::ui
