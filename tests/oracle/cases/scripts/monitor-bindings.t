# monitor: anonymous sets inside binding chains, maps of objects, replace
nft add table ip t
nft add chain ip t c
nft add counter ip t k
nft monitor &
nft add rule ip t c jump { ip saddr { 1.1.1.1, 2.2.2.2 } accept\; }
nft add rule ip t c counter name ip saddr map { 1.1.1.1 : k }
nft add rule ip t c tcp dport { 22, 80 } accept
nft -a list chain ip t c
nft replace rule ip t c handle 6 tcp dport { 23, 81 } drop
nft delete rule ip t c handle 3
nft delete rule ip t c handle 5
nft -e delete rule ip t c handle 7
nft add rule ip t c jump { ip saddr { 1.1.1.1, 2.2.2.2 } accept\; }
nft flush chain ip t c
