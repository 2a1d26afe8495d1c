# identical table/chain names in every family are independent
nft add table ip t
nft add table ip6 t
nft add table inet t
nft add table arp t
nft add table bridge t
nft add table netdev t
nft add chain ip t c
nft add chain ip6 t c
nft add chain inet t c
nft add chain arp t c
nft add chain bridge t c
nft add chain netdev t c
nft add rule ip t c counter
nft add rule bridge t c counter
nft -a list ruleset
nft delete table ip t
nft list tables
nft flush ruleset bridge
nft list ruleset
