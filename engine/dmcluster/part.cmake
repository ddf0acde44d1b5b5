# A TiDB DM cluster (dm-master and dm-workers) through DM's OpenAPI: its tasks and subtasks shown and
# controlled as channels.
syncscope_engine_part(dmcluster USES task PRIVATE_LINKS PkgConfig::HTTPLIB)
