# engine/multisource: a DM task with several sources run as one subtask (one engine Task) per source, with
# status and commands per source and for the whole task; the shard-merge refusal.
syncscope_engine_part(multisource USES task control preview)
