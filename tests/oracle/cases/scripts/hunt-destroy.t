nft destroy table ip t
nft add table ip t
nft destroy chain ip t nochain
nft add chain ip t c
nft add rule ip t c meta mark 1
nft destroy rule ip t c handle 99
nft destroy rule ip t c handle 3
nft destroy set ip t s
nft add set ip t s { type ipv4_addr\; }
nft add element ip t s { 1.1.1.1 }
nft destroy element ip t s { 2.2.2.2 }
nft destroy element ip t s { 1.1.1.1 }
nft destroy map ip t m
nft destroy counter ip t cnt
nft add counter ip t cnt
nft destroy counter ip t cnt
nft destroy quota ip t q
nft destroy flowtable ip t f
nft destroy set ip t s
nft destroy chain ip t c
nft -a list ruleset
nft destroy table ip t
nft destroy table ip t
nft -a list ruleset
nft add table inet x
nft -a list tables
nft delete table inet handle 1
nft delete table inet handle 99
nft destroy table inet handle 99
nft -a list ruleset
