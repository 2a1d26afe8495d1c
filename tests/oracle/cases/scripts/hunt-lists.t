nft add table inet t { comment '"hi"'\; }
nft add chain inet t c { type filter hook input priority 0\; policy accept\; }
nft add chain inet t d
nft add set inet t s { type ipv4_addr\; flags interval\; elements = { 10.0.0.0/8 }\; }
nft add map inet t m { type ipv4_addr : verdict\; elements = { 1.1.1.1 : accept }\; }
nft add counter inet t cnt
nft add quota inet t q 100 mbytes
nft add limit inet t l rate 10/second
nft add rule inet t c tcp dport 22 counter accept
nft add rule inet t c ip saddr @s jump d
nft add rule inet t d ip daddr vmap @m
nft list tables
nft list table inet t
nft -a list table inet t
nft -n list table inet t
nft -s list table inet t
nft -t list table inet t
nft -j list table inet t
nft list chain inet t c
nft list chains
nft list chains inet
nft -t list chains
nft list sets
nft list sets inet
nft -t list sets
nft list set inet t s
nft -t list set inet t s
nft list maps
nft list map inet t m
nft -j list map inet t m
nft list counters
nft list counter inet t cnt
nft list quotas
nft list quota inet t q
nft list limits
nft list limit inet t l
nft list ruleset inet
nft list ruleset ip
nft list table ip t
nft list chain inet t nope
nft list set inet t nope
nft list flowtables
nft list secmarks
nft list synproxys
nft list ct helpers
nft -j list sets
nft -j list chains
nft -j list counters
nft -nn list ruleset
nft -y list ruleset
nft -T list ruleset
nft -S list ruleset
