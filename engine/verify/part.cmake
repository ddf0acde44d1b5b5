# engine/verify: chunked upstream/downstream comparison, row diffs, repair SQL, skip-window verification.
syncscope_engine_part(verify USES source schema filter apply PRIVATE_LINKS mysqlcppconn::mysqlcppconn)
