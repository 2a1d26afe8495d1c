# objects addressed in the wrong family are not found
nft add table ip t
nft add chain ip t c
nft add rule ip6 t c counter
nft list table ip6 t
nft delete table inet t
nft add rule ip t c ip6 saddr ::1
nft add table arp a
nft add chain arp a c
nft add rule arp a c ip saddr 1.1.1.1
nft add rule arp a c tcp dport 22
nft list ruleset
