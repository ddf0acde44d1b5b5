// The horizontal header of a table model whose columns have fixed titles: one function, so that every
// model answers headerData the same way (titles for Qt::DisplayRole, nothing else).
#pragma once

#include <QStringList>
#include <QVariant>

namespace syncscope::ui {

// `titles` in column order.
inline QVariant columnTitle(const QStringList& titles, int section, Qt::Orientation orientation, int role) {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= titles.size()) {
        return {};
    }
    return titles.at(section);
}

}  // namespace syncscope::ui
