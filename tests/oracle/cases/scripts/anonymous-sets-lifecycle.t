# anonymous sets are created and destroyed with their rules
nft add table ip t
nft add chain ip t c
nft add rule ip t c tcp dport { 22, 80 } accept
nft add rule ip t c ip saddr { 10.0.0.0/8, 192.168.0.0/16 } accept
nft add rule ip t c tcp dport vmap { 1 : accept, 2 : drop }
nft -a list ruleset
nft list sets
nft delete rule ip t c handle 3
nft add rule ip t c udp dport { 53, 123 } accept
nft -a list ruleset
nft replace rule ip t c handle 4 ip saddr { 1.1.1.1 } drop
nft -a list ruleset
nft flush chain ip t c
nft -a list ruleset
