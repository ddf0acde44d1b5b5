// The position ruler: one horizontal axis in upstream bytes across the upstream's binlog files, with
// labelled marks for the upstream, read, applied and global (in memory and persisted) points and, where
// it means something, the end of safe mode; below the axis a strip with one mark per table point
// (red: ahead of the global point, a resume would skip its events), the names of the tables ahead, and
// a diamond on the axis where each table was last verify'd (green: equal, red: differences or failed). While a
// shard DDL lock holds the source's global point (shard-mode), a mark there names the lock, and the table points
// ahead of it are drawn in its colour: expected, not red.
// It opens on the span that matters, from the persisted global point (where a resume starts) to the
// upstream's end, and follows it until the DBA zooms (wheel or buttons), pans (drag) or asks for every
// file. Marks outside the view sit at its edge with their distance. Hover for exact file:pos and GTID;
// click a table mark to select its table.
#pragma once

#include <QColor>
#include <QWidget>
#include <memory>
#include <vector>

#include "engine/task/status_snapshot.h"
#include "ui/models/binlog_axis.h"
#include "ui/models/table_verification.h"
#include "ui/widgets/ruler_labels.h"

namespace syncscope::ui {

class PositionRuler : public QWidget {
    Q_OBJECT

public:
    static constexpr double kZoomStep = 1.5;
    static constexpr double kMinimumSpanBytes = 64;

    // What the view follows as the snapshots come.
    enum class ViewMode {
        Span,    // from the persisted global point to the upstream's end, with a margin (the default)
        All,     // every binlog file the upstream has
        Manual,  // where the DBA zoomed or panned to
    };

    struct Marker {
        QString name;
        QColor color;
        const task::PointView* point = nullptr;
        QString meaning;  // one sentence for the tooltip
    };

    // The table points outside the view, by side (the strip's edge counts).
    struct TablesOutside {
        int left = 0;
        int leftAhead = 0;
        int right = 0;
        int rightAhead = 0;
    };

    explicit PositionRuler(QWidget* parent = nullptr);

    void setSnapshot(std::shared_ptr<const task::StatusSnapshot> snapshot);
    // The snapshot drawn (null before the first one); the tests read its marker points.
    const task::StatusSnapshot* snapshot() const { return snapshot_.get(); }

    // The visible part of the axis, in bytes.
    double viewStart() const { return viewStart_; }
    double viewEnd() const { return viewEnd_; }
    ViewMode viewMode() const { return mode_; }
    bool isZoomed() const { return mode_ == ViewMode::Manual; }
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

    // The labelled marks of the current snapshot (those with a point on the axis are drawn).
    std::vector<Marker> markers() const;
    // The shard DDL lock that holds this source's global point; null when none.
    const task::ShardLockStatus* shardLockHolding() const { return heldBy_; }
    // Where the labels are (the tests check that none covers another and that they follow the positions).
    std::vector<RulerLabel> labels() const;
    TablesOutside tablesOutside() const;
    // The explanation of the end of safe mode after an unclean stop, as the legend says it ("" when a
    // crash would leave nothing to replay).
    QString safeModeAfterCrashText() const;

    // Text of the tooltip at a point of the widget (also used by the tests).
    QString describeAt(const QPoint& position) const;
    // Widget x of an axis value; the tests use it to hover over a marker.
    double xOf(double axisValue) const;
    // The table whose mark is nearest to a widget x in the table strip (tables ahead first); -1 if none.
    int tableAt(double x) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public slots:
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    // Back to the span that matters (from the persisted global point to the upstream's end), followed.
    void zoomToGlobal();

signals:
    void viewChanged(double start, double end);
    // A click on a table's mark in the strip: the upstream schema and table.
    void tableClicked(const QString& schema, const QString& table);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    std::vector<RulerLabel> placeLabels(const QFontMetrics& metrics) const;
    std::pair<double, double> followedView() const;
    bool crashReplayWindow() const;
    bool exitSafeIsMarked() const;
    void applyView(double start, double end, ViewMode mode);
    double axisOfX(double x) const;
    QRectF plotRect() const;
    void zoomAround(double axisValue, double factor);
    QString describeTablesAt(double x) const;
    void paintFiles(QPainter& painter, const QRectF& plot);
    void paintTableStrip(QPainter& painter, const QRectF& plot);
    void paintAheadNames(QPainter& painter, const QRectF& plot);
    void paintMarkers(QPainter& painter);
    void paintLegend(QPainter& painter, const QRectF& plot);
    void paintVerifiedMarks(QPainter& painter, const QRectF& plot);
    // Red for table points ahead of the global point; the lock's colour while a shard DDL lock holds it.
    QColor aheadColor() const;

    std::shared_ptr<const task::StatusSnapshot> snapshot_;
    const task::ShardLockStatus* heldBy_ = nullptr;  // into snapshot_
    BinlogAxis axis_;
    TableVerifications verifications_;
    double viewStart_ = 0;
    double viewEnd_ = 0;
    ViewMode mode_ = ViewMode::Span;
    bool dragging_ = false;
    bool dragged_ = false;
    double dragStartX_ = 0;
    double dragStartView_ = 0;
};

}  // namespace syncscope::ui
