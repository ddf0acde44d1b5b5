// Decodes one column value of a row image from the bytes a WRITE/UPDATE/DELETE rows event carries,
// using the column's type and TABLE_MAP metadata. Covers every type a MySQL 5.6-8.x or MariaDB 10.x
// server logs, including MariaDB's compressed columns and MySQL's binary JSON.
#pragma once

#include "engine/binlog/byte_reader.h"
#include "engine/binlog/column_def.h"
#include "engine/binlog/column_value.h"

namespace syncscope::binlog {

// Decodes one non-NULL value (NULLs are in the row image's null bitmap, not in the bytes) and moves
// the reader past it. ColumnDef::meta follows MySQL's table_def convention:
//   NEWDECIMAL (precision << 8) | scale;  STRING/ENUM/SET (first metadata byte << 8) | second byte,
//   i.e. (real type << 8) | length with the >255-length bits folded into the real type;
//   BIT (bytes << 8) | (bits % 8);  VARCHAR/VAR_STRING max length in bytes;
//   BLOB/GEOMETRY/JSON/VECTOR/BLOB_COMPRESSED pack length (1..4);  FLOAT/DOUBLE pack length;
//   TIME2/DATETIME2/TIMESTAMP2 fsp (0..6);  VARCHAR_COMPRESSED max length like VARCHAR.
// Throws TruncatedError when the bytes end early and syncscope::Error when the metadata is
// inconsistent (e.g. a DECIMAL precision of 0 or over 65, a fsp over 6, a bad compressed header);
// the message names the type and what was wrong; the caller adds file, offset, table and column.
ColumnValue decodeColumnValue(const ColumnDef& column, ByteReader& reader);

// How decoded text and bytes are kept: copied into the value, or borrowed from the bytes being read
// (only where the value is those bytes as they are: CHAR, VARCHAR, BLOB/TEXT, GEOMETRY, VECTOR),
// for a caller that is done with the value before those bytes go away.
enum class TextStorage : uint8_t { Copy, Borrow };

// The same, reusing `out` (and its string capacity) instead of returning a new value.
void decodeColumnValueInto(const ColumnDef& column, ByteReader& reader, ColumnValue& out,
                           TextStorage storage = TextStorage::Copy);

}  // namespace syncscope::binlog
