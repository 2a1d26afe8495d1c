# map and vmap data errors: changing data of an existing key, jump to missing chain, verdict in data map
nft add table ip t
nft add map ip t m { type ipv4_addr : mark ; }
nft add element ip t m { 1.1.1.1 : 0x1 }
nft add element ip t m { 1.1.1.1 : 0x2 }
nft add map ip t vm { type inet_service : verdict ; }
nft add element ip t vm { 22 : jump nope }
nft add element ip t vm { 22 : 0x1 }
nft add element ip t m { 2.2.2.2 : accept }
nft list ruleset
