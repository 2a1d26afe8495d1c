# tables: add is idempotent, create is exclusive, delete by name and handle
nft add table ip t
nft add table ip t
nft create table ip t
nft add table ip6 t
nft add table inet t
nft list tables
nft -a list tables
nft list table ip t
nft delete table ip6 t
nft delete table ip6 t
nft -a list table inet t
nft delete table inet handle 3
nft list tables
nft add table ip u
nft -a list tables
nft delete table ip t
nft add table ip t
nft -a list tables
