# table flags (dormant on/off) and comments, set at creation or later
nft add table ip t { flags dormant ; }
nft add chain ip t c { type filter hook input priority 0 ; }
nft list table ip t
nft add table ip t
nft list table ip t
nft add table ip t { flags dormant ; }
nft list ruleset
nft add table ip u { comment '"hello"' ; }
nft add table ip u { comment '"changed"' ; }
nft list table ip u
nft create table ip v { flags dormant ; comment '"both"' ; }
nft -j list tables
