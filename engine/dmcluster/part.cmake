# A TiDB DM cluster (dm-master and dm-workers) through DM's OpenAPI: its tasks and subtasks shown and
# controlled as channels, with their checkpoint tables read from the downstream when credentials are given.
syncscope_engine_part(dmcluster USES task inspect remote PRIVATE_LINKS PkgConfig::HTTPLIB)
