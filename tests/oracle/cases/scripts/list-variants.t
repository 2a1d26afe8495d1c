# every list command and output flag on one ruleset
nft -f @FILE
nft list tables
nft list tables ip
nft list table ip t
nft list table inet t
nft -a list table ip t
nft list chains
nft list chain ip t c
nft list sets
nft list sets ip
nft list set ip t s
nft list maps
nft list map ip t m
nft list counters
nft list counter ip t cnt
nft list quotas
nft list limits
nft list ct helpers table ip t
nft list flowtables
nft list meters
nft list ruleset ip
nft list ruleset inet
nft -s list ruleset
nft -n list ruleset
nft -nn list ruleset
nft -y list ruleset
nft -t list ruleset
nft -N list ruleset
nft -u list ruleset
nft -p list ruleset
nft -j -a list ruleset
nft -j -s list ruleset
nft list table ip nope
nft list chain ip t nope
nft list set ip t nope
