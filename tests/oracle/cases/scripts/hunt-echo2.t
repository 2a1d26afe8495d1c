nft add table ip t
nft add chain ip t c
nft -e add rule ip t c ip saddr { 1.1.1.1, 2.2.2.2 } accept
nft -e -a replace rule ip t c handle 2 ip saddr { 3.3.3.3, 4.4.4.4 } drop
nft -e -a insert rule ip t c handle 3 tcp dport { 22, 80 } accept
nft -e delete rule ip t c handle 3
nft -e -a add rule ip t c tcp dport vmap { 22 : accept, 80 : drop }
nft -e flush chain ip t c
nft -e -a add chain ip t d { comment '"x"'\; }
nft -e rename chain ip t d e
nft -e delete chain ip t e
nft -e add table ip t { flags dormant\; }
nft -e add table ip t
nft -e -j add rule ip t c ip saddr { 1.1.1.1, 2.2.2.2 } accept
nft -e -j add set ip t s { type ipv4_addr\; }
nft -e -j add element ip t s { 1.1.1.1 }
nft -e -j delete set ip t s
nft -e -j delete table ip t
nft -e -f @FILE
nft -e -a -f @FILE.b
