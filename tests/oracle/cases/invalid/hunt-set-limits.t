nft add table ip t
nft add set ip t i { type ipv4_addr\; flags interval\; size 2\; }
nft add element ip t i { 10.0.0.0/8 }
nft add element ip t i { 1.1.1.1 }
nft add element ip t i { 2.2.2.2 }
nft list set ip t i
nft add set ip t i3 { type ipv4_addr\; flags interval\; size 3\; elements = { 1.1.1.1, 2.2.2.2 }\; }
nft add element ip t i3 { 3.3.3.3 }
nft add set ip t c { typeof ip saddr . tcp dport\; flags interval\; size 2\; }
nft add element ip t c { 10.0.0.0/8 . 1-10, 1.1.1.1 . 5 }
nft add element ip t c { 2.2.2.2 . 5 }
nft add set ip t g { type ipv4_addr\; flags timeout\; timeout 1h\; gc-interval 10s\; policy memory\; size 100\; }
nft list set ip t g
nft add set ip t h { type ipv4_addr\; flags dynamic\; size 1\; }
nft add element ip t h { 1.1.1.1 }
nft add element ip t h { 2.2.2.2 }
nft add chain ip t a
nft add chain ip t b
nft add map ip t vm { type ipv4_addr : verdict\; elements = { 1.1.1.1 : jump a }\; }
nft delete chain ip t a
nft add rule ip t a ip saddr vmap @vm
nft add element ip t vm { 2.2.2.2 : jump b }
nft add rule ip t b jump a
nft add element ip t vm { 3.3.3.3 : goto a }
nft add chain ip t base { type filter hook input priority 0\; }
nft add rule ip t base jump a
nft add element ip t vm { 4.4.4.4 : jump base }
nft -a list ruleset
nft delete element ip t vm { 1.1.1.1 }
nft delete chain ip t a
nft flush map ip t vm
nft -a list ruleset
# size counts neither interval ends nor the catch-all element (nft_add_set_elem)
nft add table ip u
nft add set ip u a { type ipv4_addr\; flags interval\; size 1\; }
nft add element ip u a { 10.0.0.0/8 }
nft add element ip u a { 1.1.1.1 }
nft delete element ip u a { 10.0.0.0/8 }
nft add element ip u a { 1.1.1.1 }
nft -f @FILE
nft add set ip u b { type ipv4_addr\; flags interval\; size 1\; }
nft add element ip u b { 0.0.0.0/8 }
nft add element ip u b { 1.1.1.1 }
nft add set ip u c { type ipv4_addr\; flags interval\; size 2\; }
nft add element ip u c { 1.1.1.1, 3.3.3.3 }
nft add element ip u c { 5.5.5.5 }
nft add map ip u m { type ipv4_addr : mark\; size 1\; }
nft add element ip u m { * : 1 }
nft add element ip u m { 1.1.1.1 : 2 }
nft add element ip u m { 2.2.2.2 : 2 }
nft add set ip u p { typeof ip saddr . tcp dport\; flags interval\; size 1\; }
nft add element ip u p { 1.1.1.1 . 1-5 }
nft add element ip u p { 2.2.2.2 . 1-5 }
nft add set ip u q { type ipv4_addr\; flags interval\; size 3\; elements = { 10.0.0.0/8, 20.0.0.0/8, 30.0.0.0/8 }\; }
nft add set ip u r { type ipv4_addr\; flags interval\; size 1\; auto-merge\; elements = { 10.0.0.0/8 }\; }
nft add element ip u r { 11.0.0.0/8 }
nft list table ip u
