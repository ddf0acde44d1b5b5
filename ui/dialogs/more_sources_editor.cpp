#include "ui/dialogs/more_sources_editor.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>

#include "engine/config/source_config.h"

namespace syncscope::ui {

namespace {

constexpr int kVisibleRows = 3;

QStringList databaseNames(const QString& text) {
    return text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
}

}  // namespace

MoreSourcesEditor::MoreSourcesEditor(QWidget* parent)
    : QGroupBox(tr("More sources (a task with several sources)"), parent) {
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setHorizontalHeaderLabels({tr("Source-id"), tr("Databases (do-dbs)"), tr("Source file")});
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(FileColumn, QHeaderView::Stretch);
    table_->verticalHeader()->hide();
    table_->setToolTip(
        tr("Each row is one more mysql-instances entry of the task, from a source file that exists; type the "
           "databases it replicates (two sources must not write one downstream table)"));
    table_->setMaximumHeight(table_->horizontalHeader()->sizeHint().height() +
                             kVisibleRows * table_->verticalHeader()->defaultSectionSize() + 2 * table_->frameWidth());
    add_ = new QPushButton(tr("Add source files..."), this);
    add_->setToolTip(tr("Add existing DM source files, one per further source"));
    remove_ = new QPushButton(tr("Remove"), this);
    remove_->setToolTip(tr("Remove the selected source from the task"));
    connect(add_, &QPushButton::clicked, this, [this] {
        const QStringList files =
            QFileDialog::getOpenFileNames(this, tr("Add source files"), {}, tr("YAML (*.yaml *.yml)"));
        const QString failed = addSourceFiles(files);
        if (!failed.isEmpty()) {
            setToolTip(failed);
        }
    });
    connect(remove_, &QPushButton::clicked, this, [this] {
        if (table_->currentRow() >= 0) {
            table_->removeRow(table_->currentRow());
        }
    });
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(add_);
    buttons->addWidget(remove_);
    buttons->addStretch(1);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);
}

void MoreSourcesEditor::addRow(const MoreSource& source) {
    const int row = table_->rowCount();
    table_->insertRow(row);
    auto* id = new QTableWidgetItem(QString::fromStdString(source.sourceId));
    id->setFlags(id->flags() & ~Qt::ItemIsEditable);  // read from the file
    QStringList databases;
    for (const std::string& database : source.doDbs) {
        databases << QString::fromStdString(database);
    }
    auto* file = new QTableWidgetItem(QString::fromStdString(source.sourceFile));
    file->setFlags(file->flags() & ~Qt::ItemIsEditable);
    file->setToolTip(file->text());
    table_->setItem(row, SourceIdColumn, id);
    table_->setItem(row, DatabasesColumn, new QTableWidgetItem(databases.join(QStringLiteral(", "))));
    table_->setItem(row, FileColumn, file);
}

QString MoreSourcesEditor::addSourceFiles(const QStringList& files) {
    QStringList failed;
    for (const QString& file : files) {
        try {
            addRow({file.toStdString(), config::loadSourceConfig(file.toStdString()).sourceId, {}});
        } catch (const std::exception& e) {
            failed << tr("%1 was not added: %2").arg(file, QString::fromUtf8(e.what()));
        }
    }
    return failed.join(QLatin1Char('\n'));
}

std::vector<MoreSource> MoreSourcesEditor::sources() const {
    std::vector<MoreSource> sources;
    for (int row = 0; row < table_->rowCount(); ++row) {
        MoreSource source;
        source.sourceId = table_->item(row, SourceIdColumn)->text().toStdString();
        source.sourceFile = table_->item(row, FileColumn)->text().toStdString();
        for (const QString& database : databaseNames(table_->item(row, DatabasesColumn)->text())) {
            source.doDbs.push_back(database.toStdString());
        }
        sources.push_back(std::move(source));
    }
    return sources;
}

void MoreSourcesEditor::setSources(const std::vector<MoreSource>& sources) {
    table_->setRowCount(0);
    for (const MoreSource& source : sources) {
        addRow(source);
    }
}

QString MoreSourcesEditor::problem(const QString& firstSourceId) const {
    QSet<QString> ids{firstSourceId};
    for (const MoreSource& source : sources()) {
        const QString id = QString::fromStdString(source.sourceId);
        if (ids.contains(id)) {
            return tr("More sources: source-id '%1' is there twice; each source once.").arg(id);
        }
        ids.insert(id);
        if (source.doDbs.empty()) {
            return tr("More sources: source '%1' has no databases: type the databases it replicates.").arg(id);
        }
    }
    return {};
}

}  // namespace syncscope::ui
