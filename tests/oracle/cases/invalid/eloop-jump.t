# ELOOP/EMLINK: loops reachable from a base chain, via jump, goto, vmap and self-jump
nft add table ip t
nft add chain ip t base { type filter hook input priority 0 ; }
nft add chain ip t a
nft add chain ip t b
nft add rule ip t base jump a
nft add rule ip t a jump b
nft add rule ip t b jump a
nft add rule ip t b goto a
nft add rule ip t a jump a
nft add rule ip t b tcp dport vmap { 1 : jump a }
nft add map ip t vm { type inet_service : verdict ; }
nft add rule ip t b tcp dport vmap @vm
nft add element ip t vm { 2 : goto a }
nft -a list ruleset
