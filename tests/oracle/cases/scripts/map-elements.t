# map and vmap elements: add, redefine, delete, jump targets
nft add table ip t
nft add chain ip t target
nft add map ip t m { type ipv4_addr : mark ; }
nft add element ip t m { 1.1.1.1 : 0x1, 2.2.2.2 : 0x2 }
nft add element ip t m { 1.1.1.1 : 0x1 }
nft add element ip t m { 1.1.1.1 : 0x3 }
nft delete element ip t m { 2.2.2.2 }
nft list map ip t m
nft add map ip t vm { type inet_service : verdict ; }
nft add element ip t vm { 22 : accept, 23 : drop, 24 : jump target, 25 : goto target }
nft add element ip t vm { 26 : jump nope }
nft list map ip t vm
nft delete chain ip t target
nft delete element ip t vm { 24, 25 }
nft delete chain ip t target
nft list maps
nft get element ip t vm { 22 }
