// The position ruler: one horizontal axis in upstream bytes across the upstream's binlog files, with
// markers for the upstream, read, applied, global (in memory and persisted) and exit-safe points, and a
// tick for every table point; table points ahead of the global point are red; a diamond on the axis
// where each table was last verified (green: equal, red: differences or failed). Zoom with the wheel
// or the buttons, pan by dragging, hover for the exact file:pos and GTID.
#pragma once

#include <QColor>
#include <QWidget>
#include <memory>
#include <vector>

#include "engine/task/status_snapshot.h"
#include "ui/models/binlog_axis.h"
#include "ui/models/table_verification.h"

namespace syncscope::ui {

class PositionRuler : public QWidget {
    Q_OBJECT

public:
    static constexpr double kZoomStep = 1.5;
    static constexpr double kMinimumSpanBytes = 64;

    struct Marker {
        QString name;
        QColor color;
        const task::PointView* point = nullptr;
    };

    explicit PositionRuler(QWidget* parent = nullptr);

    void setSnapshot(std::shared_ptr<const task::StatusSnapshot> snapshot);
    // The snapshot drawn (null before the first one); the tests read its marker points.
    const task::StatusSnapshot* snapshot() const { return snapshot_.get(); }

    // The visible part of the axis, in bytes.
    double viewStart() const { return viewStart_; }
    double viewEnd() const { return viewEnd_; }
    bool isZoomed() const;
    void setView(double start, double end);
    // The last verify of each table: a mark where it was verified.
    void setVerifications(TableVerifications verifications);
    struct VerifiedMark {
        double axis = 0;  // where on the axis
        QString table;    // the upstream "schema.table"
        TableVerification verification;
    };
    // The marks that fall on the upstream's binlog files (sorted by axis); the tests check them.
    std::vector<VerifiedMark> verifiedMarks() const;

    // Text of the tooltip at a point of the widget (also used by the tests).
    QString describeAt(const QPoint& position) const;
    // Widget x of an axis value; the tests use it to hover over a marker.
    double xOf(double axisValue) const;
    // Where the marker labels are painted (the tests check that none covers another).
    std::vector<QRectF> markerLabelRects() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public slots:
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    // Zooms so that the persisted global point and every table point ahead of it fill the view.
    void zoomToGlobal();

signals:
    void viewChanged(double start, double end);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct LabelPart {
        QString name;
        QColor color;
        double width;
    };
    // One marker label, or the joined labels of markers at the same pixel.
    struct PlacedLabel {
        double x;     // the markers' position
        int row;      // label row, from the top
        double left;  // where the label starts (right of x - width / 2 when it had to move)
        double width;
        std::vector<LabelPart> parts;
    };

    std::vector<Marker> markers() const;
    std::vector<PlacedLabel> placeLabels(const QFontMetrics& metrics, const QRectF& plot) const;
    double axisOfX(double x) const;
    QRectF plotRect() const;
    void zoomAround(double axisValue, double factor);
    void paintFiles(QPainter& painter, const QRectF& plot);
    void paintTicks(QPainter& painter, const QRectF& plot);
    void paintMarkers(QPainter& painter, const QRectF& plot);
    void paintLegend(QPainter& painter, const QRectF& plot);
    void paintVerifiedMarks(QPainter& painter, const QRectF& plot);

    std::shared_ptr<const task::StatusSnapshot> snapshot_;
    BinlogAxis axis_;
    TableVerifications verifications_;
    double viewStart_ = 0;
    double viewEnd_ = 0;
    bool followFullAxis_ = true;  // stays fitted to the axis as it grows until the DBA zooms
    bool dragging_ = false;
    double dragStartX_ = 0;
    double dragStartView_ = 0;
};

}  // namespace syncscope::ui
