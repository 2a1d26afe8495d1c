# EEXIST: re-adding a set or map with a different definition
nft add table ip t
nft add set ip t s { type ipv4_addr ; }
nft add set ip t s { type ipv6_addr ; }
nft add set ip t s { type ipv4_addr ; flags interval ; }
nft add set ip t s { type ipv4_addr ; flags timeout ; }
nft add map ip t s { type ipv4_addr : mark ; }
nft add map ip t m { type ipv4_addr : mark ; }
nft add map ip t m { type ipv4_addr : verdict ; }
nft add set ip t m { type ipv4_addr ; }
nft list ruleset
