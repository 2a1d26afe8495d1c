# an owner table dies with the nft process that created it (no events, no new generation)
nft -f @FILE
nft list ruleset
nft add table ip keep { flags dormant\; }
nft -e add table ip o2 { flags owner\; }
nft list tables
nft add table ip keep { flags owner\; }
nft add table ip o3
nft add table ip o3 { flags owner\; }
nft -a list ruleset
nft -f @FILE.b
nft list tables
