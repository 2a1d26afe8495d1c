# nft monitor (background, printed at the end): deletions name the object only,
# a deleted rule's anonymous sets are announced after it
nft add table ip t
nft add chain ip t c { type filter hook input priority 0\; }
nft add rule ip t c ip saddr { 2.2.2.2, 3.3.3.3 } drop
nft add rule ip t c tcp dport vmap { 22 : accept, 23 : drop }
nft monitor &
nft add set ip t s { type ipv4_addr\; flags interval\; comment '"ss"'\; elements = { 1.1.1.1, 10.0.0.0/8 }\; }
nft add map ip t m { type ipv4_addr : verdict\; elements = { 1.1.1.1 : accept }\; }
nft add rule ip t c ip daddr { 4.4.4.4, 5.5.5.5 } counter accept
nft add counter ip t k
nft add quota ip t q 10 mbytes
nft add chain ip t d { comment '"dd"'\; }
nft rename chain ip t d e
nft -a list chain ip t c
nft delete rule ip t c handle 2
nft replace rule ip t c handle 4 tcp dport 80 accept
nft delete element ip t s { 10.0.0.0/8 }
nft delete set ip t s
nft delete counter ip t k
nft delete chain ip t e
nft add table inet x { comment '"x"'\; flags dormant\; }
nft add table inet x
nft delete table inet x
nft add rule ip t c ip saddr { 6.6.6.6, 7.7.7.7 } drop
nft flush chain ip t c
nft add rule ip t c ip saddr { 6.6.6.6, 7.7.7.7 } drop
nft flush ruleset
