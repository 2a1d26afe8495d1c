# nft --echo / -a -e report the handles the kernel assigned
nft -e add table ip t
nft -a -e add chain ip t c
nft -a -e add rule ip t c tcp dport 22 accept
nft -a -e insert rule ip t c tcp dport 23 drop
nft -e add set ip t s { type ipv4_addr ; }
nft -e add element ip t s { 1.1.1.1 }
nft -a -e add counter ip t cnt
nft -e -j add rule ip t c counter
nft -a -e replace rule ip t c handle 2 tcp dport 2222 accept
nft -e delete rule ip t c handle 2
nft -a list ruleset
