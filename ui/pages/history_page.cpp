#include "ui/pages/history_page.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QHBoxLayout>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>

#include "ui/models/history_recorder.h"

namespace syncscope::ui {

namespace {
constexpr double kBytesPerMegabyte = 1024.0 * 1024.0;
constexpr double kHeadroom = 1.15;
constexpr double kMinimumLagRange = 1.0;
constexpr double kMinimumRowsRange = 10.0;

QChartView* makeView(QChart* chart, const QString& tooltip, QWidget* parent) {
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setToolTip(tooltip);
    return view;
}

QDateTimeAxis* timeAxis(QChart* chart) {
    auto* axis = new QDateTimeAxis;
    axis->setFormat(QStringLiteral("HH:mm:ss"));
    axis->setTickCount(6);
    chart->addAxis(axis, Qt::AlignBottom);
    return axis;
}
}  // namespace

HistoryPage::HistoryPage(HistoryRecorder* recorder, QWidget* parent) : QWidget(parent), recorder_(recorder) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);

    auto* rateChart = new QChart;
    rateChart->setTitle(tr("Lag and rows per second"));
    lag_ = new QLineSeries;
    lag_->setName(tr("lag (s)"));
    rows_ = new QLineSeries;
    rows_->setName(tr("rows/s"));
    rateChart->addSeries(lag_);
    rateChart->addSeries(rows_);
    rateTime_ = timeAxis(rateChart);
    lagAxis_ = new QValueAxis;
    lagAxis_->setTitleText(tr("lag, s"));
    lagAxis_->setLabelFormat(QStringLiteral("%.1f"));
    rateChart->addAxis(lagAxis_, Qt::AlignLeft);
    rowsAxis_ = new QValueAxis;
    rowsAxis_->setTitleText(tr("rows/s"));
    rowsAxis_->setLabelFormat(QStringLiteral("%.0f"));
    rateChart->addAxis(rowsAxis_, Qt::AlignRight);
    lag_->attachAxis(rateTime_);
    lag_->attachAxis(lagAxis_);
    rows_->attachAxis(rateTime_);
    rows_->attachAxis(rowsAxis_);
    layout->addWidget(makeView(rateChart,
                               tr("Lag (left axis) and rows applied per second (right axis) over the "
                                  "last minutes"),
                               this));

    auto* positionChart = new QChart;
    positionChart->setTitle(tr("Upstream position and persisted global point"));
    upstream_ = new QLineSeries;
    upstream_->setName(tr("upstream"));
    persisted_ = new QLineSeries;
    persisted_->setName(tr("global persisted"));
    positionChart->addSeries(upstream_);
    positionChart->addSeries(persisted_);
    positionTime_ = timeAxis(positionChart);
    positionAxis_ = new QValueAxis;
    positionAxis_->setTitleText(tr("MiB on the binlog axis"));
    positionAxis_->setLabelFormat(QStringLiteral("%.2f"));
    positionChart->addAxis(positionAxis_, Qt::AlignLeft);
    for (QLineSeries* series : {upstream_, persisted_}) {
        series->attachAxis(positionTime_);
        series->attachAxis(positionAxis_);
    }
    layout->addWidget(makeView(positionChart,
                               tr("The gap between the two lines is what a resume would read "
                                  "again; a flat persisted line means checkpoints are not flushed"),
                               this));

    connect(recorder_, &HistoryRecorder::samplesChanged, this, &HistoryPage::onSamplesChanged);
    redraw();
}

void HistoryPage::onSamplesChanged() {
    // The charts re-layout on every replace; a page nobody looks at waits until it is shown.
    if (isVisible()) {
        redraw();
    } else {
        stale_ = true;
    }
}

void HistoryPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (stale_) {
        redraw();
    }
}

int HistoryPage::pointCount() const {
    return int(lag_->count());
}

void HistoryPage::redraw() {
    stale_ = false;
    QList<QPointF> lag, rows, upstream, persisted;
    double maxLag = kMinimumLagRange;
    double maxRows = kMinimumRowsRange;
    double minPosition = -1;
    double maxPosition = 0;
    for (const auto& sample : recorder_->samples()) {
        const double x = double(sample.atMsecs);
        lag << QPointF(x, sample.lagSeconds);
        rows << QPointF(x, sample.rowsPerSecond);
        maxLag = std::max(maxLag, sample.lagSeconds);
        maxRows = std::max(maxRows, sample.rowsPerSecond);
        for (auto [axis, list] :
             {std::pair{sample.upstreamAxis, &upstream}, std::pair{sample.persistedGlobalAxis, &persisted}}) {
            if (axis) {
                const double megabytes = double(*axis) / kBytesPerMegabyte;
                *list << QPointF(x, megabytes);
                minPosition = minPosition < 0 ? megabytes : std::min(minPosition, megabytes);
                maxPosition = std::max(maxPosition, megabytes);
            }
        }
    }
    // One replace per series: one redraw, not one per point.
    lag_->replace(lag);
    rows_->replace(rows);
    upstream_->replace(upstream);
    persisted_->replace(persisted);
    const auto& samples = recorder_->samples();
    const qint64 now = samples.empty() ? QDateTime::currentMSecsSinceEpoch() : samples.back().atMsecs;
    const qint64 first = samples.empty() ? now - recorder_->windowMsecs() : samples.front().atMsecs;
    for (QDateTimeAxis* axis : {rateTime_, positionTime_}) {
        axis->setRange(QDateTime::fromMSecsSinceEpoch(first),
                       QDateTime::fromMSecsSinceEpoch(std::max(now, first + 1000)));
    }
    lagAxis_->setRange(0, maxLag * kHeadroom);
    rowsAxis_->setRange(0, maxRows * kHeadroom);
    if (minPosition < 0) {
        positionAxis_->setRange(0, 1);
    } else {
        const double span = std::max(maxPosition - minPosition, 0.01);
        positionAxis_->setRange(std::max(0.0, minPosition - span * 0.1), maxPosition + span * 0.1);
    }
}

}  // namespace syncscope::ui
