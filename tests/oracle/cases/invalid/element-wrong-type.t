# elements of the wrong type or length for the set key (caught in nft or in the kernel)
nft add table ip t
nft add set ip t s4 { type ipv4_addr ; }
nft add set ip t sp { type inet_service ; }
nft add set ip t sc { type ipv4_addr . inet_service ; }
nft add element ip t s4 { ::1 }
nft add element ip t s4 { 80 }
nft add element ip t sp { 1.2.3.4 }
nft add element ip t sp { 70000 }
nft add element ip t sc { 1.2.3.4 }
nft add element ip t sc { 1.2.3.4 . 80 . 80 }
nft add element ip t s4 { 10.0.0.0/8 }
nft add map ip t m { type ipv4_addr : mark ; }
nft add element ip t m { 1.1.1.1 }
nft add element ip t m { 1.1.1.1 : 1.1.1.1 }
nft -j "{\"nftables\": [{\"add\": {\"element\": {\"family\": \"ip\", \"table\": \"t\", \"name\": \"sp\", \"elem\": [\"1.2.3.4\"]}}}]}"
nft list ruleset
