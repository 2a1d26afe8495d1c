# ENOENT: objects in a table that does not exist
nft add chain ip nope c
nft add rule ip nope c counter
nft add set ip nope s { type ipv4_addr ; }
nft add counter ip nope c
nft delete table ip nope
nft list table ip nope
nft flush table ip nope
nft delete table ip handle 42
nft add table ip t
nft delete table ip6 t
nft list ruleset
