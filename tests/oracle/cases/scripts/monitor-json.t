# nft -j monitor: the JSON of deletions shows what the kernel's events carry
nft add table ip t { comment '"tt"'\; }
nft add chain ip t c { type filter hook input priority 0\; policy accept\; comment '"cc"'\; }
nft add chain ip t d
nft add rule ip t c ip saddr { 2.2.2.2, 3.3.3.3 } drop comment '"rr"'
nft add set ip t s { type ipv4_addr\; flags interval\; comment '"ss"'\; elements = { 1.1.1.1, 10.0.0.0/8 }\; }
nft add counter ip t k
nft add quota ip t q 10 mbytes
nft -j monitor &
nft add rule ip t d meta mark 1 accept
nft delete rule ip t c handle 4
nft delete element ip t s { 10.0.0.0/8 }
nft delete set ip t s
nft delete counter ip t k
nft delete chain ip t d
nft delete quota ip t q
nft delete chain ip t c
nft delete table ip t
