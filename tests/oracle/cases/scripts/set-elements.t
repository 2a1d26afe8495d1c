# element add/delete/get/flush on hash sets
nft add table ip t
nft add set ip t s { type ipv4_addr ; }
nft add element ip t s { 1.1.1.1, 2.2.2.2, 3.3.3.3 }
nft list set ip t s
nft delete element ip t s { 2.2.2.2 }
nft delete element ip t s { 2.2.2.2 }
nft delete element ip t s { 1.1.1.1, 9.9.9.9 }
nft list set ip t s
nft get element ip t s { 3.3.3.3 }
nft get element ip t s { 4.4.4.4 }
nft add element ip t s { 4.4.4.4, 5.5.5.5 }
nft flush set ip t s
nft list set ip t s
nft add element ip t s { 6.6.6.6 }
nft add element ip t nope { 6.6.6.6 }
nft list sets
