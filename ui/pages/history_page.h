// History charts (Qt Charts): lag and rows per second over the last minutes, and the upstream's
// position against the persisted global point, so that a checkpoint that stops moving is visible.
#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QDateTimeAxis;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace syncscope::ui {

class HistoryRecorder;

class HistoryPage : public QWidget {
    Q_OBJECT

public:
    explicit HistoryPage(HistoryRecorder* recorder, QWidget* parent = nullptr);

    // Points drawn; a hidden page draws when it is shown again.
    int pointCount() const;

public slots:
    void redraw();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void onSamplesChanged();

    HistoryRecorder* recorder_;
    bool stale_ = false;  // samples arrived while the page was hidden
    QLineSeries* lag_ = nullptr;
    QLineSeries* rows_ = nullptr;
    QLineSeries* upstream_ = nullptr;
    QLineSeries* persisted_ = nullptr;
    QDateTimeAxis* rateTime_ = nullptr;
    QValueAxis* lagAxis_ = nullptr;
    QValueAxis* rowsAxis_ = nullptr;
    QDateTimeAxis* positionTime_ = nullptr;
    QValueAxis* positionAxis_ = nullptr;
};

}  // namespace syncscope::ui
