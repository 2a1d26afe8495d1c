# EBUSY comes from references only: on 6.18 a chain's own rules do not block its deletion
nft add table inet t
nft add chain inet t c
nft add rule inet t c counter
nft add chain inet t b { type filter hook input priority 0 ; }
nft add rule inet t b jump c
nft delete chain inet t c
nft -a list ruleset
nft "delete rule inet t b handle 4; delete chain inet t c"
nft delete chain inet t b
nft list ruleset
