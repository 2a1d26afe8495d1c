# ct where the kernel refuses it: families without conntrack, bad directions
nft add table arp a
nft add chain arp a c
nft add rule arp a c ct state new
nft add table netdev n
nft add chain netdev n c
nft add rule netdev n c ct mark 1
nft add table bridge b
nft add chain bridge b c
nft add rule bridge b c ct state established accept
nft add table ip t
nft add chain ip t c
nft add rule ip t c ct original mark 1
nft add rule ip t c ct original state new
nft list ruleset
