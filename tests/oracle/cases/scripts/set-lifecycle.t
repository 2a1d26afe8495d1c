# sets and maps: create, redefine, delete by name and handle, in-use
nft add table ip t
nft add set ip t s { type ipv4_addr ; }
nft add set ip t s { type ipv4_addr ; elements = { 1.1.1.1 } ; }
nft add set ip t s { type ipv4_addr ; elements = { 2.2.2.2 } ; }
nft list set ip t s
nft add set ip t s { type ipv6_addr ; }
nft add set ip t s { type ipv4_addr ; flags interval ; }
nft add set ip t s2 { type inet_service ; size 10 ; }
nft add set ip t s3 { type mark ; comment '"marks"' ; }
nft -a list sets
nft delete set ip t handle 2
nft delete set ip t s3
nft delete set ip t s3
nft add map ip t m { type ipv4_addr : verdict ; }
nft delete map ip t m
nft -a list ruleset
