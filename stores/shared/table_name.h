#pragma once
// The table a store file belongs to (RecordSet's StoredOrigin::table, then a run's
// meta.corpora[].table), named the way the store's operators name it, from the file's path and,
// for RocksDB, its own properties. A fleet survey sums a table's files across hosts by this name,
// so it must come out the same on every node that holds the table.
#include <string>

namespace kvz {

// Cassandra/ScyllaDB: `<data>/<keyspace>/<table>-<32 hex uuid>/<file>` (Cassandra 2.1+; a bare
// `<table>` directory before) -> "keyspace.table"; any other place: the file's directory.
std::string cassandra_table_name(const std::string& path);
// RocksDB: "<the DB directory>:<column family>" (the property rocksdb.column.family.name); the
// directory alone when the file names no family (an SstFileWriter file made without a handle).
std::string rocksdb_table_name(const std::string& path, const std::string& column_family);
// LevelDB has one keyspace per DB: its directory.
std::string leveldb_table_name(const std::string& path);
// HBase: `<root>/data/<namespace>/<table>/<region>/<family>/<hfile>` -> "namespace:table/family";
// any other place: the file's directory.
std::string hbase_table_name(const std::string& path);
// WiredTiger: `<name>.wt` -> "table:<name>" (the URI MongoDB and wt create); any other name: the
// file's name after "file:", its own URI.
std::string wiredtiger_table_name(const std::string& path);

}  // namespace kvz
