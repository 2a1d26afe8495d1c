nft -e add table ip t
nft -a -e add chain ip t c
nft -e -a add rule ip t c meta mark 1 counter
nft -e add set ip t s { type ipv4_addr\; flags interval\; }
nft -e add element ip t s { 10.0.0.0/8, 1.2.3.4 }
nft -e -a add map ip t m { type ipv4_addr : verdict\; }
nft -e add element ip t m { 1.1.1.1 : accept }
nft -e -a insert rule ip t c position 4 meta mark 2
nft -e -a replace rule ip t c handle 4 meta mark 3
nft -e add counter ip t cnt
nft -e add quota ip t q 100 mbytes
nft -e delete rule ip t c handle 4
nft -e -a add chain ip t b { type filter hook input priority 0\; policy drop\; }
nft -e flush chain ip t c
nft -e delete element ip t s { 1.2.3.4 }
nft -e -j add rule ip t c ip saddr @s accept
nft -e -a add rule ip t c ip saddr { 1.1.1.1, 2.2.2.2 } accept
nft -e -a flush ruleset
