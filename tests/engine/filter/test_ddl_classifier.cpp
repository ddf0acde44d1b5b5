// Classifying QUERY event SQL: the kind, DM's event name and every table touched, robust to comments,
// executable comments, backticks, spaces, unicode and letter case; and saying so when it cannot.
#include <QtTest>

#include "engine/filter/ddl_classifier.h"
#include "engine/filter/event_filter.h"

using namespace syncscope::filter;

namespace {

QString kindName(StatementKind kind) {
    switch (kind) {
        case StatementKind::CreateDatabase:
            return "CreateDatabase";
        case StatementKind::DropDatabase:
            return "DropDatabase";
        case StatementKind::AlterDatabase:
            return "AlterDatabase";
        case StatementKind::CreateTable:
            return "CreateTable";
        case StatementKind::DropTable:
            return "DropTable";
        case StatementKind::TruncateTable:
            return "TruncateTable";
        case StatementKind::RenameTable:
            return "RenameTable";
        case StatementKind::AlterTable:
            return "AlterTable";
        case StatementKind::CreateIndex:
            return "CreateIndex";
        case StatementKind::DropIndex:
            return "DropIndex";
        case StatementKind::TransactionControl:
            return "TransactionControl";
        case StatementKind::NotReplicated:
            return "NotReplicated";
        case StatementKind::StatementDml:
            return "StatementDml";
        case StatementKind::Unsupported:
            return "Unsupported";
        case StatementKind::Unclassified:
            return "Unclassified";
    }
    return "?";
}

// "schema.table" per reference, prefixed "to:", "like:" or "ref:" by role, joined with " | ".
QString tablesText(const ClassifiedStatement& statement) {
    QStringList parts;
    for (const auto& reference : statement.tables) {
        QString prefix;
        if (reference.role == TableRole::RenamedTo)
            prefix = "to:";
        if (reference.role == TableRole::CopiedFrom)
            prefix = "like:";
        if (reference.role == TableRole::Referenced)
            prefix = "ref:";
        QString name = QString::fromStdString(reference.name.schema);
        if (!reference.name.table.empty())
            name += "." + QString::fromStdString(reference.name.table);
        parts << prefix + name;
    }
    return parts.join(" | ");
}

}  // namespace

class TestDdlClassifier : public QObject {
    Q_OBJECT

private slots:
    void classifies_data() {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("defaultDb");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("event");
        QTest::addColumn<QString>("tables");

        QTest::newRow("the DM bug's ALTER") << "ALTER TABLE test1 ADD c4 INT"
                                            << "test"
                                            << "AlterTable"
                                            << "alter table"
                                            << "test.test1";
        QTest::newRow("lower case, qualified") << "alter table `test`.`test1` add column c5 int"
                                               << ""
                                               << "AlterTable"
                                               << "alter table"
                                               << "test.test1";
        QTest::newRow("comments, executable comment, spaces in names")
            << "/* why */ ALTER /*!50100 ONLINE */ TABLE `my table` ADD `c``x` INT -- done"
            << "db 1"
            << "AlterTable"
            << "alter table"
            << "db 1.my table";
        QTest::newRow("backtick inside names") << "ALTER TABLE `a``b`.`c d` ADD x INT"
                                               << ""
                                               << "AlterTable"
                                               << "alter table"
                                               << "a`b.c d";
        QTest::newRow("unicode names") << "CREATE TABLE IF NOT EXISTS `库`.`表` (id INT PRIMARY KEY)"
                                       << ""
                                       << "CreateTable"
                                       << "create table"
                                       << "库.表";
        QTest::newRow("unquoted unicode name") << "create table 订单 (id int)"
                                               << "店"
                                               << "CreateTable"
                                               << "create table"
                                               << "店.订单";
        QTest::newRow("newlines and tabs") << "CREATE\n\tTABLE\n`t`(a int)"
                                           << "s"
                                           << "CreateTable"
                                           << "create table"
                                           << "s.t";
        QTest::newRow("CREATE OR REPLACE TABLE") << "CREATE OR REPLACE TABLE t (a int)"
                                                 << "s"
                                                 << "CreateTable"
                                                 << "create table"
                                                 << "s.t";
        QTest::newRow("CREATE TABLE LIKE") << "CREATE TABLE t2 LIKE t1"
                                           << "test"
                                           << "CreateTable"
                                           << "create table"
                                           << "test.t2 | like:test.t1";
        QTest::newRow("CREATE TABLE (LIKE)") << "CREATE TABLE t2 (LIKE o.t1)"
                                             << "test"
                                             << "CreateTable"
                                             << "create table"
                                             << "test.t2 | like:o.t1";
        QTest::newRow("foreign key parent")
            << "create table c (id int, p int, FOREIGN KEY (p) REFERENCES `parent` (id))"
            << "shop"
            << "CreateTable"
            << "create table"
            << "shop.c | ref:shop.parent";
        QTest::newRow("ALTER adds a foreign key") << "ALTER TABLE c ADD CONSTRAINT f FOREIGN KEY (p) REFERENCES o.p(id)"
                                                  << "s"
                                                  << "AlterTable"
                                                  << "alter table"
                                                  << "s.c | ref:o.p";
        QTest::newRow("DROP TABLE of two, server comment")
            << "DROP TABLE IF EXISTS `a`, b.`c` /* generated by server */"
            << "test"
            << "DropTable"
            << "drop table"
            << "test.a | b.c";
        QTest::newRow("RENAME TABLE pairs") << "RENAME TABLE a TO b, x.c TO y.d"
                                            << "test"
                                            << "RenameTable"
                                            << "rename table"
                                            << "test.a | to:test.b | x.c | to:y.d";
        QTest::newRow("RENAME with MariaDB's WAIT") << "RENAME TABLE a WAIT 5 TO b"
                                                    << "s"
                                                    << "RenameTable"
                                                    << "rename table"
                                                    << "s.a | to:s.b";
        QTest::newRow("EXCHANGE PARTITION changes both tables")
            << "ALTER TABLE t EXCHANGE PARTITION p0 WITH TABLE `t 2`"
            << "s"
            << "AlterTable"
            << "alter table"
            << "s.t | s.t 2";
        QTest::newRow("ALTER TABLE RENAME TO") << "ALTER TABLE t RENAME TO t_old"
                                               << "s"
                                               << "AlterTable"
                                               << "alter table"
                                               << "s.t | to:s.t_old";
        QTest::newRow("ALTER TABLE RENAME COLUMN is not a table rename") << "ALTER TABLE t RENAME COLUMN a TO b"
                                                                         << "s"
                                                                         << "AlterTable"
                                                                         << "alter table"
                                                                         << "s.t";
        QTest::newRow("ALTER ONLINE IGNORE TABLE") << "ALTER ONLINE IGNORE TABLE t ENGINE=InnoDB"
                                                   << "s"
                                                   << "AlterTable"
                                                   << "alter table"
                                                   << "s.t";
        QTest::newRow("TRUNCATE without TABLE") << "TRUNCATE t"
                                                << "s"
                                                << "TruncateTable"
                                                << "truncate table"
                                                << "s.t";
        QTest::newRow("TRUNCATE TABLE qualified") << "truncate table `s`.`t`"
                                                  << ""
                                                  << "TruncateTable"
                                                  << "truncate table"
                                                  << "s.t";
        QTest::newRow("CREATE DATABASE") << "CREATE DATABASE IF NOT EXISTS `new db` CHARACTER SET utf8mb4"
                                         << ""
                                         << "CreateDatabase"
                                         << "create database"
                                         << "new db";
        QTest::newRow("DROP SCHEMA") << "DROP SCHEMA old"
                                     << "x"
                                     << "DropDatabase"
                                     << "drop database"
                                     << "old";
        QTest::newRow("ALTER DATABASE of the default database") << "ALTER DATABASE CHARACTER SET utf8mb4"
                                                                << "shop"
                                                                << "AlterDatabase"
                                                                << "alter database"
                                                                << "shop";
        QTest::newRow("ALTER SCHEMA named") << "ALTER SCHEMA `crm` COLLATE utf8mb4_bin"
                                            << "shop"
                                            << "AlterDatabase"
                                            << "alter database"
                                            << "crm";
        QTest::newRow("CREATE UNIQUE INDEX") << "CREATE UNIQUE INDEX idx USING BTREE ON t (a)"
                                             << "s"
                                             << "CreateIndex"
                                             << "create index"
                                             << "s.t";
        QTest::newRow("DROP INDEX") << "DROP INDEX `idx` ON `s`.`t`"
                                    << ""
                                    << "DropIndex"
                                    << "drop index"
                                    << "s.t";
        QTest::newRow("trigger") << "CREATE DEFINER=`root`@`localhost` TRIGGER trg BEFORE INSERT ON t FOR EACH ROW "
                                    "SET NEW.a=1"
                                 << "s"
                                 << "NotReplicated"
                                 << ""
                                 << "";
        QTest::newRow("view with modifiers") << "CREATE OR REPLACE ALGORITHM=MERGE SQL SECURITY DEFINER VIEW v AS "
                                                "SELECT 1"
                                             << "s"
                                             << "NotReplicated"
                                             << ""
                                             << "";
        QTest::newRow("procedure") << "CREATE DEFINER=CURRENT_USER() PROCEDURE p() BEGIN END"
                                   << "s"
                                   << "NotReplicated"
                                   << ""
                                   << "";
        QTest::newRow("drop temporary table") << "DROP /*!40005 TEMPORARY */ TABLE IF EXISTS tmp"
                                              << "test"
                                              << "NotReplicated"
                                              << ""
                                              << "";
        QTest::newRow("create temporary table") << "CREATE TEMPORARY TABLE t (a int)"
                                                << "s"
                                                << "NotReplicated"
                                                << ""
                                                << "";
        QTest::newRow("grant") << "GRANT SELECT ON *.* TO 'u'@'%'"
                               << ""
                               << "NotReplicated"
                               << ""
                               << "";
        QTest::newRow("create user") << "CREATE USER 'u'@'%' IDENTIFIED BY 'p'"
                                     << ""
                                     << "NotReplicated"
                                     << ""
                                     << "";
        QTest::newRow("flush") << "FLUSH PRIVILEGES"
                               << ""
                               << "NotReplicated"
                               << ""
                               << "";
        QTest::newRow("MariaDB placeholder") << "# Dummy event replacing event type 160 that slave cannot handle."
                                             << ""
                                             << "NotReplicated"
                                             << ""
                                             << "";
        QTest::newRow("BEGIN") << "BEGIN"
                               << "s"
                               << "TransactionControl"
                               << ""
                               << "";
        QTest::newRow("XA") << "XA START X'31',X'',1"
                            << "s"
                            << "TransactionControl"
                            << ""
                            << "";
        QTest::newRow("statement-format INSERT") << "INSERT INTO t VALUES (1)"
                                                 << "s"
                                                 << "StatementDml"
                                                 << ""
                                                 << "";
        QTest::newRow("sequence") << "CREATE SEQUENCE s1 START WITH 10"
                                  << "db"
                                  << "Unsupported"
                                  << ""
                                  << "db.s1";
        QTest::newRow("no default database") << "ALTER TABLE t1 ADD c INT"
                                             << ""
                                             << "Unclassified"
                                             << ""
                                             << "";
        QTest::newRow("unterminated identifier") << "CREATE TABLE `unterminated (a int)"
                                                 << "s"
                                                 << "Unclassified"
                                                 << ""
                                                 << "";
        QTest::newRow("RENAME without target") << "RENAME TABLE a TO"
                                               << "s"
                                               << "Unclassified"
                                               << ""
                                               << "";
        QTest::newRow("unknown statement") << "LOCK TABLES t WRITE"
                                           << "s"
                                           << "Unclassified"
                                           << ""
                                           << "";
        QTest::newRow("SET is not DDL") << "SET GLOBAL read_only = 1"
                                        << "s"
                                        << "Unclassified"
                                        << ""
                                        << "";
    }

    void classifies() {
        QFETCH(QString, sql);
        QFETCH(QString, defaultDb);
        QFETCH(QString, kind);
        QFETCH(QString, event);
        QFETCH(QString, tables);
        const ClassifiedStatement statement = DdlClassifier::classify(sql.toStdString(), defaultDb.toStdString());
        QCOMPARE(kindName(statement.kind), kind);
        QCOMPARE(QString::fromStdString(statement.filterEvent), event);
        QCOMPARE(tablesText(statement), tables);
        const bool needsNote =
            statement.kind == StatementKind::NotReplicated || statement.kind == StatementKind::StatementDml ||
            statement.kind == StatementKind::Unsupported || statement.kind == StatementKind::Unclassified;
        QCOMPARE(!statement.note.empty(), needsNote);
    }

    void notesSayWhatCouldNotBeClassified() {
        const auto noDatabase = DdlClassifier::classify("ALTER TABLE t1 ADD c INT", "");
        QVERIFY2(noDatabase.note.find("`t1` is named without a database") != std::string::npos,
                 noDatabase.note.c_str());
        const auto unknown = DdlClassifier::classify("LOCK TABLES t WRITE", "s");
        QVERIFY2(unknown.note.find("'LOCK TABLES t'") != std::string::npos, unknown.note.c_str());
    }

    void ansiQuotesMakeDoubleQuotesIdentifiers() {
        const auto statement = DdlClassifier::classify("CREATE TABLE \"q t\" (a int)", "s", true);
        QCOMPARE(statement.kind, StatementKind::CreateTable);
        QCOMPARE(statement.tables.at(0).name, (TableName{"s", "q t"}));
        QCOMPARE(DdlClassifier::classify("CREATE TABLE \"q t\" (a int)", "s", false).kind, StatementKind::Unclassified);
    }

    void routedStatementsAreRewrittenWithQualifiedNames() {
        const auto route = [](const TableName& name) {
            return TableName{name.schema == "test" ? "dst" : name.schema, name.table};
        };
        const std::string alter = "ALTER TABLE test1 ADD c4 INT /* keep */";
        QCOMPARE(DdlClassifier::rewriteTables(alter, DdlClassifier::classify(alter, "test"), route),
                 std::string("ALTER TABLE `dst`.`test1` ADD c4 INT /* keep */"));
        const std::string rename = "RENAME TABLE a TO `x y`.b, test.c TO d";
        QCOMPARE(DdlClassifier::rewriteTables(rename, DdlClassifier::classify(rename, "test"), route),
                 std::string("RENAME TABLE `dst`.`a` TO `x y`.`b`, `dst`.`c` TO `dst`.`d`"));
        const std::string database = "CREATE DATABASE test";
        QCOMPARE(DdlClassifier::rewriteTables(database, DdlClassifier::classify(database, ""), route),
                 std::string("CREATE DATABASE `dst`"));
        const std::string odd = "ALTER TABLE `a``b` ADD x INT";
        QCOMPARE(DdlClassifier::rewriteTables(odd, DdlClassifier::classify(odd, "test"), route),
                 std::string("ALTER TABLE `dst`.`a``b` ADD x INT"));
    }

    void theDmScenarioThroughClassifierAndFilter() {
        const EventFilter filter({{"filter-rule-1", "test", "test1", {"all ddl"}, {}, FilterAction::Ignore}}, false);
        const auto decide = [&](const char* sql) {
            const auto statement = DdlClassifier::classify(sql, "test");
            return filter.decide(statement.tables.at(0).name, statement.filterEvent, sql).action;
        };
        QCOMPARE(decide("ALTER TABLE test1 ADD c4 INT"), FilterAction::Ignore);
        QCOMPARE(decide("CREATE TABLE test2 (c INT PRIMARY KEY)"), FilterAction::Do);
        QCOMPARE(decide("ALTER TABLE test2 ADD c4 INT"), FilterAction::Do);
    }
};

QTEST_GUILESS_MAIN(TestDdlClassifier)
#include "test_ddl_classifier.moc"
